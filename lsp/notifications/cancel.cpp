// $/cancelRequest: a request still in flight is answered RequestCancelled and forgotten.
#include "lsp/handlers.h"

namespace blockls::lsp {

void cancel_request(Session& s, const json& params) {
  const json id = params.get<CancelParams>().id;
  auto it = s.in_flight.find(id_key(id));
  if (it == s.in_flight.end()) return; // answered already
  const std::string key = it->first;
  if (!it->second.waiting_uri.empty())
    if (Doc* doc = s.find_doc(it->second.waiting_uri))
      std::erase_if(doc->waiters, [&](const Waiter& w) { return w.key == key; });
  std::erase(s.sync_waiters, id);
  s.reply_error(it->second.id, kRequestCancelled, "The request was cancelled");
}

} // namespace blockls::lsp
