// textDocument/codeAction (quick fixes and fix-all) and codeAction/resolve (the fix-all edit,
// computed when the client asks for it).
#include "lsp/handlers.h"

namespace blockls::lsp {

void code_action(Session& s, const json& id, const json& params) {
  const CodeActionParams p = params.get<CodeActionParams>();
  s.with_analysis(id, p.uri, true, [&s, id, p](std::shared_ptr<const Analysis> a) {
    s.reply(id, code_actions(s.features(p.uri, *a), p, s.client.defer_fix_all));
  });
}

void resolve_code_action(Session& s, const json& id, const json& params) {
  const CodeActionResolveParams p = params.get<CodeActionResolveParams>();
  if (!p.fix_all) return s.reply(id, p.action);
  s.with_analysis(id, p.uri, true, [&s, id, p](std::shared_ptr<const Analysis> a) {
    if (a->version != p.version)
      return s.reply_error(id, kContentModified,
                           "The document changed since the action was offered");
    // The client's action as it sent it (unknown fields kept), with the edit filled in.
    json action = p.action;
    const std::optional<WorkspaceEdit> edit = fix_all_edit(s.features(p.uri, *a));
    action["edit"] = edit ? json(*edit) : json::object();
    s.reply(id, action);
  });
}

} // namespace blockls::lsp
