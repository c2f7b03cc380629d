// from_json/to_json of the typed LSP messages. The readers check the fields in the order the
// handlers always did, so the first malformed field is the one named.
#include "lsp/protocol_types.h"

#include "lsp/uri.h"

#include <limits>

namespace blockls::lsp {
namespace {

// `path` ("textDocument.uri") as nested objects in `j`, set to `value`.
void put(json& j, std::string_view path, json value) {
  json* at = &j;
  while (true) {
    const size_t dot = path.find('.');
    json& next = (*at)[std::string(path.substr(0, dot))];
    if (dot == std::string_view::npos) {
      next = std::move(value);
      return;
    }
    at = &next;
    path.remove_prefix(dot + 1);
  }
}

} // namespace

// ---- initialize --------------------------------------------------------------------------

void from_json(const json& j, ClientCapabilities& c) {
  c = ClientCapabilities{};
  // Position encoding: the client's first preference we support; UTF-16 otherwise.
  if (const json* list = optional_field(j, "general.positionEncodings", json::value_t::array)) {
    for (const json& e : *list) {
      if (e == "utf-8") {
        c.encoding = PositionEncoding::utf8;
        break;
      }
      if (e == "utf-16") {
        c.encoding = PositionEncoding::utf16;
        break;
      }
      if (e == "utf-32") {
        c.encoding = PositionEncoding::utf32;
        break;
      }
    }
  }
  c.document_changes = capability(j, "workspace.workspaceEdit.documentChanges");
  if (const json* ops =
          optional_field(j, "workspace.workspaceEdit.resourceOperations", json::value_t::array))
    for (const json& op : *ops)
      if (op.is_string()) c.resource_operations.insert(op.get<std::string>());
  c.apply_edit = capability(j, "workspace.applyEdit");
  c.related_information = capability(j, "textDocument.publishDiagnostics.relatedInformation");
  c.watch_dynamic = capability(j, "workspace.didChangeWatchedFiles.dynamicRegistration");
  c.work_done_progress = capability(j, "window.workDoneProgress");
  c.code_lens_refresh = capability(j, "workspace.codeLens.refreshSupport");
  c.markdown = true;
  if (const json* formats =
          optional_field(j, "textDocument.hover.contentFormat", json::value_t::array)) {
    c.markdown = false;
    for (const json& f : *formats)
      c.markdown = c.markdown || f == "markdown";
  }
  bool resolve_edit = false;
  if (const json* props = optional_field(j, "textDocument.codeAction.resolveSupport.properties",
                                         json::value_t::array))
    for (const json& p : *props)
      resolve_edit = resolve_edit || p == "edit";
  c.defer_fix_all = resolve_edit && capability(j, "textDocument.codeAction.dataSupport");
  c.code_action_literals = optional_field(j, "textDocument.codeAction.codeActionLiteralSupport",
                                          json::value_t::object) != nullptr;
}

void to_json(json& j, const ClientCapabilities& c) {
  j = json::object();
  put(j, "general.positionEncodings", json::array({encoding_name(c.encoding)}));
  put(j, "workspace.workspaceEdit.documentChanges", c.document_changes);
  put(j, "workspace.workspaceEdit.resourceOperations", c.resource_operations);
  put(j, "workspace.applyEdit", c.apply_edit);
  put(j, "textDocument.publishDiagnostics.relatedInformation", c.related_information);
  put(j, "workspace.didChangeWatchedFiles.dynamicRegistration", c.watch_dynamic);
  put(j, "window.workDoneProgress", c.work_done_progress);
  put(j, "workspace.codeLens.refreshSupport", c.code_lens_refresh);
  put(j, "textDocument.hover.contentFormat",
      c.markdown ? json::array({"markdown", "plaintext"}) : json::array({"plaintext"}));
  if (c.defer_fix_all) {
    put(j, "textDocument.codeAction.resolveSupport.properties", json::array({"edit"}));
    put(j, "textDocument.codeAction.dataSupport", true);
  }
  if (c.code_action_literals)
    put(j, "textDocument.codeAction.codeActionLiteralSupport",
        {{"codeActionKind", {{"valueSet", json::array({"quickfix"})}}}});
}

void from_json(const json& j, InitializeParams& p) {
  if (!j.is_object()) throw LspError(kInvalidParams, "missing field 'params' (expected object)");
  optional_field(j, "capabilities", json::value_t::object);
  p.capabilities = j.value("capabilities", json::object());
  if (const auto pid = j.find("processId"); pid != j.end() && pid->is_number_integer() &&
                                            pid->get<int64_t>() > 0 &&
                                            pid->get<int64_t>() <= std::numeric_limits<int>::max())
    p.process_id = pid->get<int>();
  p.client = p.capabilities.get<ClientCapabilities>();
  bool folder_root = false;
  if (const json* folders = optional_field(j, "workspaceFolders", json::value_t::array)) {
    for (const json& f : *folders)
      if (f.is_object() && f.contains("uri") && f["uri"].is_string()) {
        p.workspace_folders.push_back(f["uri"].get<std::string>());
        folder_root = folder_root || !path_from_uri(p.workspace_folders.back()).empty();
      }
  }
  if (!folder_root) {
    if (const json* root = optional_field(j, "rootUri", json::value_t::string))
      p.root_uri = root->get<std::string>();
    else if (const json* path = optional_field(j, "rootPath", json::value_t::string))
      p.root_path = path->get<std::string>();
  }
  p.initialization_options =
      j.contains("initializationOptions") ? j["initializationOptions"] : json();
}

void to_json(json& j, const InitializeParams& p) {
  j = {{"processId", p.process_id ? json(*p.process_id) : json()},
       {"capabilities", p.capabilities}};
  if (!p.workspace_folders.empty()) {
    j["workspaceFolders"] = json::array();
    for (const std::string& uri : p.workspace_folders)
      j["workspaceFolders"].push_back({{"uri", uri}, {"name", uri}});
  }
  if (p.root_uri) j["rootUri"] = *p.root_uri;
  if (p.root_path) j["rootPath"] = *p.root_path;
  if (!p.initialization_options.is_null()) j["initializationOptions"] = p.initialization_options;
}

std::vector<std::string> workspace_roots(const InitializeParams& p) {
  std::vector<std::string> roots;
  for (const std::string& uri : p.workspace_folders)
    if (std::string path = path_from_uri(uri); !path.empty()) roots.push_back(path);
  if (roots.empty()) {
    if (p.root_uri) {
      if (std::string path = path_from_uri(*p.root_uri); !path.empty()) roots.push_back(path);
    } else if (p.root_path) {
      roots.push_back(*p.root_path);
    }
  }
  return roots;
}

// ---- text synchronisation ----------------------------------------------------------------

void from_json(const json& j, TextDocumentParams& p) {
  p.uri = require_string(j, "textDocument.uri");
}

void to_json(json& j, const TextDocumentParams& p) {
  j = {{"textDocument", {{"uri", p.uri}}}};
}

void from_json(const json& j, DidOpenParams& p) {
  p.uri = require_string(j, "textDocument.uri");
  p.text = require_string(j, "textDocument.text");
  p.version = require_int(j, "textDocument.version");
}

void to_json(json& j, const DidOpenParams& p) {
  j = {{"textDocument",
        {{"uri", p.uri}, {"languageId", "blockls"}, {"version", p.version}, {"text", p.text}}}};
}

void from_json(const json& j, DidChangeParams& p) {
  p.uri = require_string(j, "textDocument.uri");
  p.version = require_int(j, "textDocument.version");
  p.content_changes = &require_array(j, "contentChanges");
}

void to_json(json& j, const DidChangeParams& p) {
  j = {{"textDocument", {{"uri", p.uri}, {"version", p.version}}},
       {"contentChanges", p.content_changes ? *p.content_changes : json::array()}};
}

void from_json(const json& j, DidSaveParams& p) {
  p.uri = require_string(j, "textDocument.uri");
  p.params = &j;
}

const json* DidSaveParams::text() const {
  return params ? optional_field(*params, "text", json::value_t::string) : nullptr;
}

void to_json(json& j, const DidSaveParams& p) {
  j = {{"textDocument", {{"uri", p.uri}}}};
  if (const json* text = p.text()) j["text"] = *text;
}

// ---- requests on a document --------------------------------------------------------------

void from_json(const json& j, HoverParams& p) {
  p.uri = require_string(j, "textDocument.uri");
  p.position = parse_position(j, "position");
}

void to_json(json& j, const HoverParams& p) {
  j = {{"textDocument", {{"uri", p.uri}}},
       {"position", {{"line", p.position.line}, {"character", p.position.character}}}};
}

void from_json(const json& j, CodeActionParams& p) {
  p.uri = require_string(j, "textDocument.uri");
  p.range = require_object(j, "range");
  p.diagnostics = require_array(j, "context.diagnostics");
  const json& context = j["context"]; // an object: context.diagnostics was found
  const auto only = context.find("only");
  p.only = only == context.end() ? json() : *only;
}

const json* CodeActionParams::only_kinds() const {
  if (only.is_null()) return nullptr;
  if (!only.is_array()) invalid_field("context.only", "array", false);
  return &only;
}

void to_json(json& j, const CodeActionParams& p) {
  j = {{"textDocument", {{"uri", p.uri}}},
       {"range", p.range},
       {"context", {{"diagnostics", p.diagnostics}}}};
  if (!p.only.is_null()) j["context"]["only"] = p.only;
}

void from_json(const json& j, CodeActionResolveParams& p) {
  if (!j.is_object()) throw LspError(kInvalidParams, "missing field 'params' (expected object)");
  p.action = j;
  p.fix_all = false;
  if (j.contains("edit") || !j.contains("data")) return;
  const json& data = require_object(j, "data");
  p.fix_all = data.value("fixAll", false);
  if (!p.fix_all) return;
  p.uri = require_string(data, "uri");
  p.version = require_int(data, "version");
}

void to_json(json& j, const CodeActionResolveParams& p) {
  j = p.action;
  if (p.fix_all) j["data"] = {{"fixAll", true}, {"uri", p.uri}, {"version", p.version}};
}

// ---- workspace/executeCommand ------------------------------------------------------------

void from_json(const json& j, ExecuteCommandParams& p) {
  p.command = require_string(j, "command");
  const json* args = optional_field(j, "arguments", json::value_t::array);
  p.argument = args && !args->empty() ? (*args)[0] : json::object();
  p.work_done_token = j.contains("workDoneToken") ? j["workDoneToken"] : json(nullptr);
}

void to_json(json& j, const ExecuteCommandParams& p) {
  j = {{"command", p.command}, {"arguments", json::array({p.argument})}};
  if (!p.work_done_token.is_null()) j["workDoneToken"] = p.work_done_token;
}

void from_json(const json& j, ExecuteAllArguments& a) {
  if (!j.is_object())
    throw LspError(kInvalidParams, "missing field 'arguments[0]' (expected object)");
  a.uri = require_string(j, "uri");
  a.version = require_int(j, "version");
}

void to_json(json& j, const ExecuteAllArguments& a) {
  j = {{"uri", a.uri}, {"version", a.version}};
}

void from_json(const json& j, ExecuteBlockArguments& a) {
  from_json(j, static_cast<ExecuteAllArguments&>(a));
  a.line = require_int(j, "line");
}

void to_json(json& j, const ExecuteBlockArguments& a) {
  to_json(j, static_cast<const ExecuteAllArguments&>(a));
  j["line"] = a.line;
}

void from_json(const json& j, ExecuteResult& r) {
  r.applied = j.at("applied").get<bool>();
  r.backend = j.at("backend").get<std::string>();
  r.results = j.at("results");
  r.touched = j.contains("touched") ? std::optional<json>(j["touched"]) : std::nullopt;
  r.failure_reason = j.contains("failureReason")
                         ? std::optional<std::string>(j["failureReason"].get<std::string>())
                         : std::nullopt;
}

void to_json(json& j, const ExecuteResult& r) {
  j = {{"applied", r.applied}, {"backend", r.backend}, {"results", r.results}};
  if (r.touched) j["touched"] = *r.touched;
  if (r.failure_reason) j["failureReason"] = *r.failure_reason;
}

// ---- notifications -----------------------------------------------------------------------

void from_json(const json& j, CancelParams& p) {
  p.id = require_field(j, "id");
}

void to_json(json& j, const CancelParams& p) {
  j = {{"id", p.id}};
}

void from_json(const json& j, DidChangeConfigurationParams& p) {
  p.settings = j.is_object() && j.contains("settings") ? j["settings"] : json();
}

void to_json(json& j, const DidChangeConfigurationParams& p) {
  j = {{"settings", p.settings}};
}

void from_json(const json& j, DidChangeWorkspaceFoldersParams& p) {
  const json& event = require_object(j, "event");
  for (const json& f : event.value("removed", json::array()))
    if (f.is_object() && f.contains("uri")) p.removed.push_back(f["uri"].get<std::string>());
  for (const json& f : event.value("added", json::array()))
    if (f.is_object() && f.contains("uri")) p.added.push_back(f["uri"].get<std::string>());
}

void to_json(json& j, const DidChangeWorkspaceFoldersParams& p) {
  json removed = json::array(), added = json::array();
  for (const std::string& uri : p.removed)
    removed.push_back({{"uri", uri}, {"name", uri}});
  for (const std::string& uri : p.added)
    added.push_back({{"uri", uri}, {"name", uri}});
  j = {{"event", {{"removed", removed}, {"added", added}}}};
}

void from_json(const json& j, DidChangeWatchedFilesParams& p) {
  for (const json& change : require_array(j, "changes")) {
    FileEvent e;
    if (change.is_object()) {
      if (const auto uri = change.find("uri"); uri != change.end() && uri->is_string())
        e.uri = uri->get<std::string>();
      if (const auto type = change.find("type"); type != change.end() && type->is_number_integer())
        e.type = type->get<int>();
    }
    p.changes.push_back(std::move(e));
  }
}

void to_json(json& j, const DidChangeWatchedFilesParams& p) {
  json changes = json::array();
  for (const FileEvent& e : p.changes)
    changes.push_back({{"uri", e.uri}, {"type", e.type}});
  j = {{"changes", changes}};
}

// ---- what the server sends ---------------------------------------------------------------

void from_json(const json& j, PublishDiagnosticsParams& p) {
  p.uri = require_string(j, "uri");
  if (const json* version = optional_field(j, "version", json::value_t::number_integer))
    p.version = version->get<int64_t>();
  p.diagnostics = require_array(j, "diagnostics");
}

void to_json(json& j, const PublishDiagnosticsParams& p) {
  j = {{"uri", p.uri}, {"diagnostics", p.diagnostics}};
  if (p.version) j["version"] = *p.version;
}

void to_json(json& j, PublishDiagnosticsParams&& p) {
  j = {{"uri", std::move(p.uri)}, {"diagnostics", std::move(p.diagnostics)}};
  if (p.version) j["version"] = *p.version;
}

void from_json(const json& j, ShowMessageParams& p) {
  p.type = static_cast<int>(require_int(j, "type"));
  p.message = require_string(j, "message");
}

void to_json(json& j, const ShowMessageParams& p) {
  j = {{"type", p.type}, {"message", p.message}};
}

} // namespace blockls::lsp
