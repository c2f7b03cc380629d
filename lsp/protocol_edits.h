// Typed diagnostics and WorkspaceEdits the server sends: the LSP Diagnostic (with blockls's fix
// payload in `data`) and the WorkspaceEdit (changes, documentChanges with TextDocumentEdit /
// CreateFile / RenameFile / DeleteFile, changeAnnotations). Named Lsp* where the grammar has a
// type of that name (blockls::Diagnostic, blockls::TextEdit). to_json writes exactly the objects
// the server assembled by hand before (optional keys only when set); from_json reads them back
// (round trips in tests/lsp/protocol_types_test.cpp). The `&&` overloads move the strings out
// (a large document publishes many diagnostics).
#pragma once

#include "lsp/protocol_results.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace blockls::lsp {

// ---- edits -------------------------------------------------------------------------------

struct LspTextEdit {
  Range range;
  std::string new_text;
  std::optional<std::string> annotation_id; // an AnnotatedTextEdit
  bool operator==(const LspTextEdit&) const = default;
};
void to_json(json& j, const LspTextEdit& e);
void to_json(json& j, LspTextEdit&& e);
void from_json(const json& j, LspTextEdit& e);

// OptionalVersionedTextDocumentIdentifier: `version` is written as null when absent.
struct VersionedDocument {
  std::string uri;
  std::optional<int64_t> version;
  bool operator==(const VersionedDocument&) const = default;
};

struct TextDocumentEdit {
  VersionedDocument text_document;
  std::vector<LspTextEdit> edits;
  bool operator==(const TextDocumentEdit&) const = default;
};
void to_json(json& j, const TextDocumentEdit& e);
void from_json(const json& j, TextDocumentEdit& e);

struct CreateFileOptions {
  std::optional<bool> overwrite;
  std::optional<bool> ignore_if_exists;
  bool operator==(const CreateFileOptions&) const = default;
};
struct CreateFile {
  std::string uri;
  std::optional<CreateFileOptions> options;
  std::optional<std::string> annotation_id;
  bool operator==(const CreateFile&) const = default;
};
void to_json(json& j, const CreateFile& c);
void from_json(const json& j, CreateFile& c);

struct RenameFileOptions {
  std::optional<bool> overwrite;
  std::optional<bool> ignore_if_exists;
  bool operator==(const RenameFileOptions&) const = default;
};
struct RenameFile {
  std::string old_uri;
  std::string new_uri;
  std::optional<RenameFileOptions> options;
  std::optional<std::string> annotation_id;
  bool operator==(const RenameFile&) const = default;
};
void to_json(json& j, const RenameFile& r);
void from_json(const json& j, RenameFile& r);

struct DeleteFileOptions {
  std::optional<bool> recursive;
  std::optional<bool> ignore_if_not_exists;
  bool operator==(const DeleteFileOptions&) const = default;
};
struct DeleteFile {
  std::string uri;
  std::optional<DeleteFileOptions> options;
  std::optional<std::string> annotation_id;
  bool operator==(const DeleteFile&) const = default;
};
void to_json(json& j, const DeleteFile& d);
void from_json(const json& j, DeleteFile& d);

// One element of documentChanges; from_json tells them apart by `kind` (none: a TextDocumentEdit).
using DocumentChange = std::variant<TextDocumentEdit, CreateFile, RenameFile, DeleteFile>;
void to_json(json& j, const DocumentChange& c);
void from_json(const json& j, DocumentChange& c);

struct ChangeAnnotation {
  std::string label;
  std::optional<bool> needs_confirmation;
  std::optional<std::string> description;
  bool operator==(const ChangeAnnotation&) const = default;
};
void to_json(json& j, const ChangeAnnotation& a);
void from_json(const json& j, ChangeAnnotation& a);

struct WorkspaceEdit {
  std::optional<std::map<std::string, std::vector<LspTextEdit>>> changes; // by uri
  std::optional<std::vector<DocumentChange>> document_changes;
  std::optional<std::map<std::string, ChangeAnnotation>> change_annotations; // by id
  bool operator==(const WorkspaceEdit&) const = default;
};
void to_json(json& j, const WorkspaceEdit& e);
void from_json(const json& j, WorkspaceEdit& e);

// ---- diagnostics -------------------------------------------------------------------------

struct CodeDescription {
  std::string href;
  bool operator==(const CodeDescription&) const = default;
};

struct Location {
  std::string uri;
  Range range;
  bool operator==(const Location&) const = default;
};

struct DiagnosticRelatedInformation {
  Location location;
  std::string message;
  bool operator==(const DiagnosticRelatedInformation&) const = default;
};

// A fix of blockls's `data` payload: what codeAction turns into a quick fix without the server's
// state (the client sends the diagnostic back).
struct DiagnosticFix {
  std::string title;
  bool is_preferred = false;
  std::vector<LspTextEdit> edits;
  bool operator==(const DiagnosticFix&) const = default;
};
// blockls's `data` of a diagnostic with fixes: {"v": payload version, "version": document
// version, "fixes": [...]}. Written by the server; what the client sends back is read leniently
// from the raw json in features.cpp (it may be stale or mangled).
struct DiagnosticData {
  int v = 1;
  int64_t version = 0;
  std::vector<DiagnosticFix> fixes;
  bool operator==(const DiagnosticData&) const = default;
};
void to_json(json& j, const DiagnosticData& d);
void from_json(const json& j, DiagnosticData& d);

// LSP Diagnostic (LspDiagnostic: blockls::Diagnostic is the engine's).
struct LspDiagnostic {
  Range range;
  int severity = 1;
  std::string code;
  std::optional<CodeDescription> code_description;
  std::string source = "blockls";
  std::string message;
  std::optional<std::vector<DiagnosticRelatedInformation>> related_information;
  std::optional<DiagnosticData> data;
  bool operator==(const LspDiagnostic&) const = default;
};
void to_json(json& j, const LspDiagnostic& d);
void to_json(json& j, LspDiagnostic&& d);
void from_json(const json& j, LspDiagnostic& d);

} // namespace blockls::lsp
