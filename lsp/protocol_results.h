// Typed messages the server sends: the results of its requests (initialize, codeAction,
// codeLens, documentSymbol, foldingRange, hover), its requests and notifications to the client
// (registerCapability, workspace/applyEdit, $/progress), and the client's answer to applyEdit.
// to_json writes exactly the object the handlers used to assemble (optional fields only when
// set); from_json reads it back (round trips in tests/lsp/protocol_types_test.cpp) and, for the
// applyEdit answer, checks the client's fields with the InvalidParams wording of protocol.h.
// Content that comes from the client (the diagnostics and edits a code action echoes) stays
// `json`, and so do the WorkspaceEdit members (built as protocol_edits.h structs, carried as json).
#pragma once

#include "lsp/protocol.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace blockls::lsp {

// ---- basics ------------------------------------------------------------------------------

void to_json(json& j, const Position& p);
void from_json(const json& j, Position& p);

struct Range {
  Position start, end;
  bool operator==(const Range&) const = default;
};
void to_json(json& j, const Range& r);
void from_json(const json& j, Range& r);
// `range` of the mapper's text as an LSP Range.
Range to_range(const PositionMapper& mapper, ByteRange range);

// LSP Command (LspCommand: blockls::Command is a command of a block).
struct LspCommand {
  std::string title;
  std::string command;           // "" for a lens that only informs
  std::optional<json> arguments; // an array
  bool operator==(const LspCommand&) const = default;
};
void to_json(json& j, const LspCommand& c);
void from_json(const json& j, LspCommand& c);

// ---- initialize --------------------------------------------------------------------------

// codeActionProvider as an object (clients with codeActionLiteralSupport).
struct CodeActionOptions {
  std::vector<std::string> code_action_kinds;
  bool resolve_provider = false;
  bool operator==(const CodeActionOptions&) const = default;
};

struct ServerCapabilities {
  std::string position_encoding = "utf-16";
  // textDocumentSync: {openClose, change (2: incremental), save.includeText}
  bool open_close = true;
  int change = 2;
  bool save_include_text = true;
  std::optional<CodeActionOptions> code_action_options; // absent: codeActionProvider is true
  bool code_lens_resolve_provider = false;
  bool document_symbol_provider = true;
  bool folding_range_provider = true;
  bool hover_provider = true;
  std::vector<std::string> commands; // executeCommandProvider.commands
  bool workspace_folders_supported = true;
  bool workspace_folders_change_notifications = true;
  bool operator==(const ServerCapabilities&) const = default;
};
void to_json(json& j, const ServerCapabilities& c);
void from_json(const json& j, ServerCapabilities& c);

struct InitializeResult {
  ServerCapabilities capabilities;
  std::string server_name = "blockls";
  std::string server_version;
  bool operator==(const InitializeResult&) const = default;
};
void to_json(json& j, const InitializeResult& r);
void from_json(const json& j, InitializeResult& r);

// client/registerCapability of workspace/didChangeWatchedFiles.
struct FileSystemWatcher {
  std::string glob_pattern;
  bool operator==(const FileSystemWatcher&) const = default;
};
struct Registration {
  std::string id;
  std::string method;
  std::vector<FileSystemWatcher> watchers; // registerOptions.watchers
  bool operator==(const Registration&) const = default;
};
struct RegistrationParams {
  std::vector<Registration> registrations;
  bool operator==(const RegistrationParams&) const = default;
};
void to_json(json& j, const RegistrationParams& p);
void from_json(const json& j, RegistrationParams& p);

// ---- document features -------------------------------------------------------------------

struct CodeLens {
  Range range;
  LspCommand command;
  bool operator==(const CodeLens&) const = default;
};
void to_json(json& j, const CodeLens& l);
void from_json(const json& j, CodeLens& l);

struct DocumentSymbol {
  std::string name;
  std::optional<std::string> detail;
  int kind = 0; // 1 File, 2 Module, 7 Property, 12 Function
  Range range;
  Range selection_range;
  std::optional<std::vector<DocumentSymbol>> children;
  bool operator==(const DocumentSymbol&) const = default;
};
void to_json(json& j, const DocumentSymbol& s);
void from_json(const json& j, DocumentSymbol& s);

struct FoldingRange {
  uint32_t start_line = 0;
  uint32_t end_line = 0;
  std::string kind = "region";
  bool operator==(const FoldingRange&) const = default;
};
void to_json(json& j, const FoldingRange& r);
void from_json(const json& j, FoldingRange& r);

struct MarkupContent {
  std::string kind; // "markdown" or "plaintext"
  std::string value;
  bool operator==(const MarkupContent&) const = default;
};
struct Hover {
  MarkupContent contents;
  Range range;
  bool operator==(const Hover&) const = default;
};
void to_json(json& j, const Hover& h);
void from_json(const json& j, Hover& h);

// data of a fix-all action whose edit is computed by codeAction/resolve.
struct FixAllData {
  std::string uri;
  int64_t version = 0;
  bool operator==(const FixAllData&) const = default;
};

struct CodeAction {
  std::string title;
  std::string kind;                 // "quickfix" or "source.fixAll.blockls"
  std::optional<json> diagnostics;  // the client's diagnostic, as it sent it (quick fixes)
  std::optional<bool> is_preferred; // quick fixes
  std::optional<json> edit;         // a WorkspaceEdit (its edits may be the client's data)
  std::optional<FixAllData> data;   // a deferred fix-all
  bool operator==(const CodeAction&) const = default;
};
void to_json(json& j, const CodeAction& a);
void from_json(const json& j, CodeAction& a);

// ---- requests and notifications to the client --------------------------------------------

struct ApplyWorkspaceEditParams {
  std::optional<std::string> label;
  json edit; // from workspace_edit.h
  bool operator==(const ApplyWorkspaceEditParams&) const = default;
};
void to_json(json& j, const ApplyWorkspaceEditParams& p);
void from_json(const json& j, ApplyWorkspaceEditParams& p);

// The client's answer to workspace/applyEdit. from_json is strict: a result that is no object,
// a non-boolean `applied` or a non-string `failureReason` throws the InvalidParams LspError
// naming the field ("invalid field 'applied' (expected boolean)").
struct ApplyWorkspaceEditResult {
  bool applied = false;
  std::optional<std::string> failure_reason;
  bool operator==(const ApplyWorkspaceEditResult&) const = default;
};
void to_json(json& j, const ApplyWorkspaceEditResult& r);
void from_json(const json& j, ApplyWorkspaceEditResult& r);

// The value of $/progress for a work-done token ("begin" or "end").
struct WorkDoneProgress {
  std::string kind;
  std::optional<std::string> title;   // begin
  std::optional<bool> cancellable;    // begin
  std::optional<std::string> message; // end
  bool operator==(const WorkDoneProgress&) const = default;
};
void to_json(json& j, const WorkDoneProgress& p);
void from_json(const json& j, WorkDoneProgress& p);

struct ProgressParams {
  json token;
  WorkDoneProgress value;
  bool operator==(const ProgressParams&) const = default;
};
void to_json(json& j, const ProgressParams& p);
void from_json(const json& j, ProgressParams& p);

// The `error` of a response (the server's error replies, and the error the server makes up for
// a request the client never answered).
struct ResponseError {
  int code = kInternalError;
  std::string message;
  bool operator==(const ResponseError&) const = default;
};
void to_json(json& j, const ResponseError& e);
void from_json(const json& j, ResponseError& e);

// The `error` of a response from the client, read leniently: its message when it has one.
std::string response_error_message(const json& error);

} // namespace blockls::lsp
