// Typed LSP messages: the params the server reads and the results it sends, with nlohmann's
// from_json/to_json (the idea of clangd's Protocol.h). Readers go through protocol.h's field
// helpers, so a malformed field throws the InvalidParams LspError naming it
// ("missing field 'textDocument.uri' (expected string)") exactly as the handlers always said.
// Fields a handler checks only in some cases (after the analysis, or when the document is open)
// stay raw here and are checked where they are used, so the answers keep their order and text.
// Views (`const json*`) point into the params they were read from: keep those alive.
#pragma once

#include "lsp/protocol.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace blockls::lsp {

// ---- initialize --------------------------------------------------------------------------

// What the server reads of ClientCapabilities (lenient: a missing flag is false), and what it
// chose from them.
struct ClientCapabilities {
  PositionEncoding encoding = PositionEncoding::utf16; // first of general.positionEncodings known
  bool document_changes = false;                       // workspace.workspaceEdit.documentChanges
  std::set<std::string> resource_operations;           // workspace.workspaceEdit.resourceOperations
  bool apply_edit = false;                             // workspace.applyEdit
  bool related_information = false;  // textDocument.publishDiagnostics.relatedInformation
  bool watch_dynamic = false;        // workspace.didChangeWatchedFiles.dynamicRegistration
  bool work_done_progress = false;   // window.workDoneProgress
  bool markdown = true;              // textDocument.hover.contentFormat has markdown (or absent)
  bool defer_fix_all = false;        // codeAction resolveSupport of "edit" and dataSupport
  bool code_action_literals = false; // textDocument.codeAction.codeActionLiteralSupport
  bool code_lens_refresh = false;    // workspace.codeLens.refreshSupport
  bool operator==(const ClientCapabilities&) const = default;
};
void from_json(const json& j, ClientCapabilities& c);
void to_json(json& j, const ClientCapabilities& c);

struct InitializeParams {
  std::optional<int> process_id;      // a positive int, else none
  json capabilities = json::object(); // as received (showDebugInfo reports it)
  ClientCapabilities client;
  // Workspace roots, in the order they are looked at: folders, else rootUri, else rootPath
  // (rootUri and rootPath are read only when no folder gives a root).
  std::vector<std::string> workspace_folders; // uris
  std::optional<std::string> root_uri, root_path;
  json initialization_options; // null when absent
  bool operator==(const InitializeParams&) const = default;
};
// Fills `p` field by field: when a later field is malformed the earlier ones are read (the
// server still watches processId then, as it always did).
void from_json(const json& j, InitializeParams& p);
void to_json(json& j, const InitializeParams& p);
// The workspace roots of `p` as paths.
std::vector<std::string> workspace_roots(const InitializeParams& p);

// ---- text synchronisation ----------------------------------------------------------------

// codeLens, documentSymbol, foldingRange, didClose: only textDocument.uri is read.
struct TextDocumentParams {
  std::string uri;
  bool operator==(const TextDocumentParams&) const = default;
};
void from_json(const json& j, TextDocumentParams& p);
void to_json(json& j, const TextDocumentParams& p);

struct DidOpenParams {
  std::string uri;
  std::string text;
  int64_t version = 0;
  bool operator==(const DidOpenParams&) const = default;
};
void from_json(const json& j, DidOpenParams& p);
void to_json(json& j, const DidOpenParams& p);

struct DidChangeParams {
  std::string uri;
  int64_t version = 0;
  // A view of contentChanges (an array): documents.cpp checks each change itself, and a bad
  // change desynchronises the document instead of being answered.
  const json* content_changes = nullptr;
};
void from_json(const json& j, DidChangeParams& p);
void to_json(json& j, const DidChangeParams& p);

struct DidSaveParams {
  std::string uri;
  const json* params = nullptr; // view: `text` is checked only when the document is open
  // The saved text: nullptr when absent; throws when it is not a string.
  const json* text() const;
};
void from_json(const json& j, DidSaveParams& p);
void to_json(json& j, const DidSaveParams& p);

// ---- requests on a document --------------------------------------------------------------

struct HoverParams {
  std::string uri;
  Position position;
  bool operator==(const HoverParams& o) const {
    return uri == o.uri && position.line == o.position.line &&
           position.character == o.position.character;
  }
};
void from_json(const json& j, HoverParams& p);
void to_json(json& j, const HoverParams& p);

struct CodeActionParams {
  std::string uri;
  json range;       // an object (not converted: the actions do not depend on it)
  json diagnostics; // context.diagnostics, an array
  json only;        // context.only as received; checked when the actions are computed
  // context.only: nullptr when absent; throws when it is not an array.
  const json* only_kinds() const;
  bool operator==(const CodeActionParams&) const = default;
};
void from_json(const json& j, CodeActionParams& p);
void to_json(json& j, const CodeActionParams& p);

// codeAction/resolve: the action as offered; a fix-all action resolved later carries its
// document in `data`.
struct CodeActionResolveParams {
  json action;
  bool fix_all = false; // data.fixAll, when the action has data and no edit
  std::string uri;      // data.uri (fix_all only)
  int64_t version = 0;  // data.version (fix_all only)
  bool operator==(const CodeActionResolveParams&) const = default;
};
void from_json(const json& j, CodeActionResolveParams& p);
void to_json(json& j, const CodeActionResolveParams& p);

// ---- workspace/executeCommand ------------------------------------------------------------

struct ExecuteCommandParams {
  std::string command;
  json argument = json::object(); // arguments[0], {} when there is none
  json work_done_token;           // null when absent
  bool operator==(const ExecuteCommandParams&) const = default;
};
void from_json(const json& j, ExecuteCommandParams& p);
void to_json(json& j, const ExecuteCommandParams& p);

// arguments[0] of blockls.executeAll.
struct ExecuteAllArguments {
  std::string uri;
  int64_t version = 0;
  bool operator==(const ExecuteAllArguments&) const = default;
};
void from_json(const json& j, ExecuteAllArguments& a);
void to_json(json& j, const ExecuteAllArguments& a);

// arguments[0] of blockls.executeBlock: the block at `line` (0-based).
struct ExecuteBlockArguments : ExecuteAllArguments {
  int64_t line = 0;
  bool operator==(const ExecuteBlockArguments&) const = default;
};
void from_json(const json& j, ExecuteBlockArguments& a);
void to_json(json& j, const ExecuteBlockArguments& a);

// What executeBlock/executeAll answer.
struct ExecuteResult {
  bool applied = false;
  std::string backend; // "workspaceEdit" or "disk"
  json results = json::array();
  std::optional<json> touched;               // disk only
  std::optional<std::string> failure_reason; // when not applied
  bool operator==(const ExecuteResult&) const = default;
};
void from_json(const json& j, ExecuteResult& r);
void to_json(json& j, const ExecuteResult& r);

// ---- notifications -----------------------------------------------------------------------

struct CancelParams {
  json id;
  bool operator==(const CancelParams&) const = default;
};
void from_json(const json& j, CancelParams& p);
void to_json(json& j, const CancelParams& p);

// workspace/didChangeConfiguration: `settings`, read leniently by read_settings.
struct DidChangeConfigurationParams {
  json settings; // null when absent (or the params are no object)
  bool operator==(const DidChangeConfigurationParams&) const = default;
};
void from_json(const json& j, DidChangeConfigurationParams& p);
void to_json(json& j, const DidChangeConfigurationParams& p);

// workspace/didChangeWorkspaceFolders: the uris of event.removed and event.added (entries
// without a uri are skipped).
struct DidChangeWorkspaceFoldersParams {
  std::vector<std::string> removed, added;
  bool operator==(const DidChangeWorkspaceFoldersParams&) const = default;
};
void from_json(const json& j, DidChangeWorkspaceFoldersParams& p);
void to_json(json& j, const DidChangeWorkspaceFoldersParams& p);

// workspace/didChangeWatchedFiles: each change's uri and type (1 created, 2 changed,
// 3 deleted). Malformed entries are kept with type 0 (read as "anything may have changed").
struct FileEvent {
  std::string uri;
  int type = 0;
  bool operator==(const FileEvent&) const = default;
};
struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> changes;
  bool operator==(const DidChangeWatchedFilesParams&) const = default;
};
void from_json(const json& j, DidChangeWatchedFilesParams& p);
void to_json(json& j, const DidChangeWatchedFilesParams& p);

// ---- what the server sends ---------------------------------------------------------------

struct PublishDiagnosticsParams {
  std::string uri;
  std::optional<int64_t> version; // absent when the diagnostics are cleared
  json diagnostics = json::array();
  bool operator==(const PublishDiagnosticsParams&) const = default;
};
void from_json(const json& j, PublishDiagnosticsParams& p);
void to_json(json& j, const PublishDiagnosticsParams& p);
// Moves the diagnostics (a large document's are many): json(std::move(params)).
void to_json(json& j, PublishDiagnosticsParams&& p);

// window/showMessage: type 1 error, 2 warning, 3 info.
struct ShowMessageParams {
  int type = 3;
  std::string message;
  bool operator==(const ShowMessageParams&) const = default;
};
void from_json(const json& j, ShowMessageParams& p);
void to_json(json& j, const ShowMessageParams& p);

} // namespace blockls::lsp
