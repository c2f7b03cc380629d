// to_json/from_json of what the server sends. Each to_json writes the keys the handlers used
// to write (nlohmann's object sorts them, so the same object is the same bytes).
#include "lsp/protocol_results.h"

namespace blockls::lsp {
namespace {

// `key` of `j` into `out` when present (and not null).
template <typename T> void read_optional(const json& j, const char* key, std::optional<T>& out) {
  const auto it = j.find(key);
  out = it == j.end() || it->is_null() ? std::nullopt : std::optional<T>(it->get<T>());
}

// Strict read of a boolean field: absent (or null) gives `fallback`.
bool optional_bool(const json& j, std::string_view key, bool fallback) {
  const json* at = optional_field(j, key, json::value_t::boolean);
  return at ? at->get<bool>() : fallback;
}

} // namespace

// ---- basics ------------------------------------------------------------------------------

void to_json(json& j, const Position& p) {
  j = {{"line", p.line}, {"character", p.character}};
}

void from_json(const json& j, Position& p) {
  p.line = static_cast<uint32_t>(require_int(j, "line"));
  p.character = static_cast<uint32_t>(require_int(j, "character"));
}

void to_json(json& j, const Range& r) {
  j = {{"start", r.start}, {"end", r.end}};
}

void from_json(const json& j, Range& r) {
  r.start = require_object(j, "start").get<Position>();
  r.end = require_object(j, "end").get<Position>();
}

Range to_range(const PositionMapper& mapper, ByteRange range) {
  return {mapper.position(range.begin), mapper.position(range.end)};
}

void to_json(json& j, const LspCommand& c) {
  j = {{"title", c.title}, {"command", c.command}};
  if (c.arguments) j["arguments"] = *c.arguments;
}

void from_json(const json& j, LspCommand& c) {
  c.title = require_string(j, "title");
  c.command = j.at("command").get<std::string>(); // may be ""
  read_optional(j, "arguments", c.arguments);
}

// ---- initialize --------------------------------------------------------------------------

void to_json(json& j, const ServerCapabilities& c) {
  const json code_action = c.code_action_options
                               ? json{{"codeActionKinds", c.code_action_options->code_action_kinds},
                                      {"resolveProvider", c.code_action_options->resolve_provider}}
                               : json(true);
  j = {{"positionEncoding", c.position_encoding},
       {"textDocumentSync",
        {{"openClose", c.open_close},
         {"change", c.change},
         {"save", {{"includeText", c.save_include_text}}}}},
       {"codeActionProvider", code_action},
       {"codeLensProvider", {{"resolveProvider", c.code_lens_resolve_provider}}},
       {"documentSymbolProvider", c.document_symbol_provider},
       {"foldingRangeProvider", c.folding_range_provider},
       {"hoverProvider", c.hover_provider},
       {"executeCommandProvider", {{"commands", c.commands}}},
       {"workspace",
        {{"workspaceFolders",
          {{"supported", c.workspace_folders_supported},
           {"changeNotifications", c.workspace_folders_change_notifications}}}}}};
}

void from_json(const json& j, ServerCapabilities& c) {
  c.position_encoding = require_string(j, "positionEncoding");
  c.open_close = j.at("textDocumentSync").at("openClose").get<bool>();
  c.change = j.at("textDocumentSync").at("change").get<int>();
  c.save_include_text = j.at("textDocumentSync").at("save").at("includeText").get<bool>();
  const json& code_action = j.at("codeActionProvider");
  if (code_action.is_object())
    c.code_action_options =
        CodeActionOptions{code_action.at("codeActionKinds").get<std::vector<std::string>>(),
                          code_action.at("resolveProvider").get<bool>()};
  else
    c.code_action_options.reset();
  c.code_lens_resolve_provider = j.at("codeLensProvider").at("resolveProvider").get<bool>();
  c.document_symbol_provider = j.at("documentSymbolProvider").get<bool>();
  c.folding_range_provider = j.at("foldingRangeProvider").get<bool>();
  c.hover_provider = j.at("hoverProvider").get<bool>();
  c.commands = j.at("executeCommandProvider").at("commands").get<std::vector<std::string>>();
  const json& folders = j.at("workspace").at("workspaceFolders");
  c.workspace_folders_supported = folders.at("supported").get<bool>();
  c.workspace_folders_change_notifications = folders.at("changeNotifications").get<bool>();
}

void to_json(json& j, const InitializeResult& r) {
  j = {{"capabilities", r.capabilities},
       {"serverInfo", {{"name", r.server_name}, {"version", r.server_version}}}};
}

void from_json(const json& j, InitializeResult& r) {
  r.capabilities = require_object(j, "capabilities").get<ServerCapabilities>();
  r.server_name = require_string(j, "serverInfo.name");
  r.server_version = require_string(j, "serverInfo.version");
}

void to_json(json& j, const RegistrationParams& p) {
  json registrations = json::array();
  for (const Registration& r : p.registrations) {
    json watchers = json::array();
    for (const FileSystemWatcher& w : r.watchers)
      watchers.push_back({{"globPattern", w.glob_pattern}});
    registrations.push_back(
        {{"id", r.id}, {"method", r.method}, {"registerOptions", {{"watchers", watchers}}}});
  }
  j = {{"registrations", registrations}};
}

void from_json(const json& j, RegistrationParams& p) {
  p.registrations.clear();
  for (const json& r : require_array(j, "registrations")) {
    Registration reg{require_string(r, "id"), require_string(r, "method"), {}};
    for (const json& w : require_array(r, "registerOptions.watchers"))
      reg.watchers.push_back({require_string(w, "globPattern")});
    p.registrations.push_back(std::move(reg));
  }
}

// ---- document features -------------------------------------------------------------------

void to_json(json& j, const CodeLens& l) {
  j = {{"range", l.range}, {"command", l.command}};
}

void from_json(const json& j, CodeLens& l) {
  l.range = require_object(j, "range").get<Range>();
  l.command = require_object(j, "command").get<LspCommand>();
}

void to_json(json& j, const DocumentSymbol& s) {
  j = {{"name", s.name},
       {"kind", s.kind},
       {"range", s.range},
       {"selectionRange", s.selection_range}};
  if (s.detail) j["detail"] = *s.detail;
  if (s.children) {
    json children = json::array();
    for (const DocumentSymbol& c : *s.children)
      children.push_back(c);
    j["children"] = std::move(children);
  }
}

void from_json(const json& j, DocumentSymbol& s) {
  s.name = require_string(j, "name");
  s.kind = static_cast<int>(require_int(j, "kind"));
  s.range = require_object(j, "range").get<Range>();
  s.selection_range = require_object(j, "selectionRange").get<Range>();
  read_optional(j, "detail", s.detail);
  s.children.reset();
  if (const json* children = optional_field(j, "children", json::value_t::array)) {
    s.children.emplace();
    for (const json& c : *children)
      s.children->push_back(c.get<DocumentSymbol>());
  }
}

void to_json(json& j, const FoldingRange& r) {
  j = {{"startLine", r.start_line}, {"endLine", r.end_line}, {"kind", r.kind}};
}

void from_json(const json& j, FoldingRange& r) {
  r.start_line = static_cast<uint32_t>(require_int(j, "startLine"));
  r.end_line = static_cast<uint32_t>(require_int(j, "endLine"));
  r.kind = require_string(j, "kind");
}

void to_json(json& j, const Hover& h) {
  j = {{"contents", {{"kind", h.contents.kind}, {"value", h.contents.value}}}, {"range", h.range}};
}

void from_json(const json& j, Hover& h) {
  h.contents = {require_string(j, "contents.kind"), require_string(j, "contents.value")};
  h.range = require_object(j, "range").get<Range>();
}

void to_json(json& j, const CodeAction& a) {
  j = {{"title", a.title}, {"kind", a.kind}};
  if (a.diagnostics) j["diagnostics"] = *a.diagnostics;
  if (a.is_preferred) j["isPreferred"] = *a.is_preferred;
  if (a.edit) j["edit"] = *a.edit;
  if (a.data) j["data"] = {{"fixAll", true}, {"uri", a.data->uri}, {"version", a.data->version}};
}

void from_json(const json& j, CodeAction& a) {
  a.title = require_string(j, "title");
  a.kind = require_string(j, "kind");
  read_optional(j, "diagnostics", a.diagnostics);
  read_optional(j, "isPreferred", a.is_preferred);
  read_optional(j, "edit", a.edit);
  a.data.reset();
  if (const json* data = optional_field(j, "data", json::value_t::object))
    a.data = FixAllData{require_string(*data, "uri"), require_int(*data, "version")};
}

// ---- requests and notifications to the client --------------------------------------------

void to_json(json& j, const ApplyWorkspaceEditParams& p) {
  j = {{"edit", p.edit}};
  if (p.label) j["label"] = *p.label;
}

void from_json(const json& j, ApplyWorkspaceEditParams& p) {
  p.edit = require_object(j, "edit");
  read_optional(j, "label", p.label);
}

void to_json(json& j, const ApplyWorkspaceEditResult& r) {
  j = {{"applied", r.applied}};
  if (r.failure_reason) j["failureReason"] = *r.failure_reason;
}

void from_json(const json& j, ApplyWorkspaceEditResult& r) {
  if (!j.is_object()) invalid_field("result", "object", j.is_null());
  r.applied = optional_bool(j, "applied", false); // absent: not applied
  const json* reason = optional_field(j, "failureReason", json::value_t::string);
  r.failure_reason = reason ? std::optional<std::string>(reason->get<std::string>()) : std::nullopt;
}

void to_json(json& j, const WorkDoneProgress& p) {
  j = {{"kind", p.kind}};
  if (p.title) j["title"] = *p.title;
  if (p.cancellable) j["cancellable"] = *p.cancellable;
  if (p.message) j["message"] = *p.message;
}

void from_json(const json& j, WorkDoneProgress& p) {
  p.kind = require_string(j, "kind");
  read_optional(j, "title", p.title);
  read_optional(j, "cancellable", p.cancellable);
  read_optional(j, "message", p.message);
}

void to_json(json& j, const ProgressParams& p) {
  j = {{"token", p.token}, {"value", p.value}};
}

void from_json(const json& j, ProgressParams& p) {
  p.token = require_field(j, "token");
  p.value = require_object(j, "value").get<WorkDoneProgress>();
}

void to_json(json& j, const ResponseError& e) {
  j = {{"code", e.code}, {"message", e.message}};
}

void from_json(const json& j, ResponseError& e) {
  e.code = static_cast<int>(require_int(j, "code"));
  e.message = require_string(j, "message");
}

std::string response_error_message(const json& error) {
  if (error.is_object())
    if (const auto m = error.find("message"); m != error.end() && m->is_string())
      return m->get<std::string>();
  return "error";
}

} // namespace blockls::lsp
