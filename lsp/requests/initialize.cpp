// initialize: the client's capabilities and workspace roots in, the server's capabilities out;
// initialized: registers for watched files when the client allows dynamic registration.
#include "diagnostics/json_text.h"
#include "lsp/handlers.h"

namespace blockls::lsp {
namespace {

const char* const kCommands[] = {"blockls.executeBlock", "blockls.executeAll",
                                 "blockls.showDebugInfo"};

json server_capabilities(const ClientCapabilities& client) {
  json code_action = client.code_action_literals
                         ? json{{"codeActionKinds", {"quickfix", "source.fixAll.blockls"}},
                                {"resolveProvider", true}}
                         : json(true);
  return {
      {"positionEncoding", encoding_name(client.encoding)},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", true}}}}},
      {"codeActionProvider", code_action},
      {"codeLensProvider", {{"resolveProvider", false}}},
      {"documentSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"hoverProvider", true},
      {"executeCommandProvider", {{"commands", kCommands}}},
      {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}},
  };
}

} // namespace

void initialize(Session& s, const json& id, const json& params) {
  if (s.initialized) return s.reply_error(id, kInvalidRequest, "initialize was already received");
  InitializeParams p;
  try {
    from_json(params, p);
  } catch (const LspError&) {
    // processId is honoured even when a later field is malformed.
    if (p.process_id) s.watch_client(*p.process_id, "initialize.processId");
    throw;
  }
  s.client_capabilities = p.capabilities;
  if (p.process_id) s.watch_client(*p.process_id, "initialize.processId");
  s.client = p.client;
  for (std::string& root : workspace_roots(p))
    s.workspace_roots.push_back(std::move(root));
  std::vector<std::string> problems;
  read_settings(p.initialization_options, &s.settings, &problems);
  s.rebuild_context(problems);

  s.server_capabilities = server_capabilities(s.client);
  s.initialized = true;
  s.reply(id, {{"capabilities", s.server_capabilities},
               {"serverInfo", {{"name", "blockls"}, {"version", s.options.version}}}});
}

void initialized(Session& s, const json&) {
  if (!s.client.watch_dynamic) return;
  json registration = {
      {"id", "blockls-watched-files"},
      {"method", "workspace/didChangeWatchedFiles"},
      {"registerOptions", {{"watchers", json::array({{{"globPattern", "**/*"}}})}}}};
  s.request("client/registerCapability", {{"registrations", json::array({registration})}},
            [&s](const json&, const json* error) {
              s.watching_files = error == nullptr;
              if (error)
                s.log(LogLevel::warning, "file watching not registered: " + dump_json(*error));
            });
}

} // namespace blockls::lsp
