// initialize: the client's capabilities and workspace roots in, the server's capabilities out;
// initialized: registers for watched files when the client allows dynamic registration.
#include "diagnostics/json_text.h"
#include "lsp/handlers.h"

namespace blockls::lsp {
namespace {

// What the server offers, given what the client supports.
ServerCapabilities server_capabilities(const ClientCapabilities& client) {
  ServerCapabilities c;
  c.position_encoding = std::string(encoding_name(client.encoding));
  if (client.code_action_literals)
    c.code_action_options = CodeActionOptions{{"quickfix", "source.fixAll.blockls"}, true};
  c.commands = {"blockls.executeBlock", "blockls.executeAll", "blockls.showDebugInfo"};
  return c;
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

  const InitializeResult result{server_capabilities(s.client), "blockls", s.options.version};
  s.server_capabilities = result.capabilities;
  s.initialized = true;
  s.reply(id, result);
}

void initialized(Session& s, const json&) {
  if (!s.client.watch_dynamic) return;
  const RegistrationParams params{
      {{"blockls-watched-files", "workspace/didChangeWatchedFiles", {{"**/*"}}}}};
  s.request("client/registerCapability", params, [&s](const json&, const json* error) {
    s.watching_files = error == nullptr;
    if (error) s.log(LogLevel::warning, "file watching not registered: " + dump_json(*error));
  });
}

} // namespace blockls::lsp
