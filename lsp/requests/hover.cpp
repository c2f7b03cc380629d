// textDocument/hover: the block under the cursor and what it would do.
#include "lsp/handlers.h"

namespace blockls::lsp {

void hover(Session& s, const json& id, const json& params) {
  const HoverParams p = params.get<HoverParams>();
  s.with_analysis(id, p.uri, true, [&s, id, p](std::shared_ptr<const Analysis> a) {
    const std::optional<Hover> h = lsp::hover(s.features(p.uri, *a), p.position);
    s.reply(id, h ? json(*h) : json(nullptr));
  });
}

} // namespace blockls::lsp
