// textDocument/hover: the block under the cursor and what it would do.
#include "lsp/handlers.h"

namespace blockls::lsp {

void hover(Session& s, const json& id, const json& params) {
  const HoverParams p = params.get<HoverParams>();
  s.with_analysis(id, p.uri, true, [&s, id, p](std::shared_ptr<const Analysis> a) {
    s.reply(id, lsp::hover(s.features(p.uri, *a), p.position));
  });
}

} // namespace blockls::lsp
