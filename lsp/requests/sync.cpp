// blockls/sync (tests and benchmarks): answered once every open document's analysis is
// current.
#include "lsp/handlers.h"

namespace blockls::lsp {

void sync(Session& s, const json& id, const json&) {
  s.sync_waiters.push_back(id);
  s.scheduler.flush_all();
  s.check_sync();
}

} // namespace blockls::lsp
