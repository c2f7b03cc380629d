// blockls.showDebugInfo: what the server negotiated and holds, and one document's text.
#include "lsp/handlers.h"

namespace blockls::lsp {

json debug_info(Session& s, const json& arg) {
  json docs = json::array();
  for (const auto& [uri, doc] : s.docs)
    docs.push_back(uri);
  json out = {{"positionEncoding", encoding_name(s.client.encoding)},
              {"clientCapabilities", s.client_capabilities},
              {"serverCapabilities", s.server_capabilities},
              {"workspaceRoots", s.workspace_roots},
              {"settings", settings_json(s.settings)},
              {"documents", docs}};
  // What the checks use, not what was sent: the canonical allowed roots (the workspace folders
  // when the setting is empty; none without a root) and the deny globs with the defaults.
  json& settings = out["settings"];
  settings["allowedRoots"] = json::array();
  settings["denyPatterns"] = effective_deny_globs(s.settings);
  if (s.context && s.context->apply_config) {
    settings["allowedRoots"] = s.context->apply_config->allowed_roots;
    settings["denyPatterns"] = s.context->apply_config->deny_globs;
  }
  if (arg.is_object() && arg.contains("uri") && arg["uri"].is_string()) {
    const Doc* doc = s.find_doc(arg["uri"].get<std::string>());
    if (!doc) throw LspError(kInvalidParams, "arguments[0].uri: the document is not open");
    out["document"] = {{"uri", doc->uri},
                       {"version", doc->version},
                       {"desynced", doc->desynced},
                       {"bytes", doc->text.text->size()},
                       {"lines", doc->text.lines->line_count()},
                       {"text", *doc->text.text}};
  }
  return out;
}

} // namespace blockls::lsp
