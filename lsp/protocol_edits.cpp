// to_json/from_json of diagnostics and WorkspaceEdits. Each to_json writes the keys the
// handlers used to write (nlohmann's object sorts them, so the same object is the same bytes).
#include "lsp/protocol_edits.h"

#include <utility>

namespace blockls::lsp {
namespace {

// `key` of `j` into `out` when present (and not null).
template <typename T> void read_optional(const json& j, const char* key, std::optional<T>& out) {
  const auto it = j.find(key);
  out = it == j.end() || it->is_null() ? std::nullopt : std::optional<T>(it->get<T>());
}

template <typename T> std::vector<T> read_array(const json& j, std::string_view key) {
  const json& array = require_array(j, key);
  std::vector<T> out;
  out.reserve(array.size());
  for (const json& e : array)
    out.push_back(e.get<T>());
  return out;
}

} // namespace

// ---- edits -------------------------------------------------------------------------------

void to_json(json& j, const LspTextEdit& e) {
  j = {{"range", e.range}, {"newText", e.new_text}};
  if (e.annotation_id) j["annotationId"] = *e.annotation_id;
}

void to_json(json& j, LspTextEdit&& e) {
  j = {{"range", e.range}, {"newText", std::move(e.new_text)}};
  if (e.annotation_id) j["annotationId"] = std::move(*e.annotation_id);
}

void from_json(const json& j, LspTextEdit& e) {
  e.range = require_object(j, "range").get<Range>();
  e.new_text = require_string(j, "newText");
  read_optional(j, "annotationId", e.annotation_id);
}

void to_json(json& j, const TextDocumentEdit& e) {
  json version = e.text_document.version ? json(*e.text_document.version) : json(nullptr);
  j = {{"textDocument", {{"uri", e.text_document.uri}, {"version", std::move(version)}}},
       {"edits", e.edits}};
}

void from_json(const json& j, TextDocumentEdit& e) {
  e.text_document.uri = require_string(j, "textDocument.uri");
  read_optional(require_object(j, "textDocument"), "version", e.text_document.version);
  e.edits = read_array<LspTextEdit>(j, "edits");
}

void to_json(json& j, const CreateFile& c) {
  j = {{"kind", "create"}, {"uri", c.uri}};
  if (c.options) {
    json options = json::object();
    if (c.options->overwrite) options["overwrite"] = *c.options->overwrite;
    if (c.options->ignore_if_exists) options["ignoreIfExists"] = *c.options->ignore_if_exists;
    j["options"] = std::move(options);
  }
  if (c.annotation_id) j["annotationId"] = *c.annotation_id;
}

void from_json(const json& j, CreateFile& c) {
  c.uri = require_string(j, "uri");
  c.options.reset();
  if (const json* o = optional_field(j, "options", json::value_t::object)) {
    c.options.emplace();
    read_optional(*o, "overwrite", c.options->overwrite);
    read_optional(*o, "ignoreIfExists", c.options->ignore_if_exists);
  }
  read_optional(j, "annotationId", c.annotation_id);
}

void to_json(json& j, const RenameFile& r) {
  j = {{"kind", "rename"}, {"oldUri", r.old_uri}, {"newUri", r.new_uri}};
  if (r.options) {
    json options = json::object();
    if (r.options->overwrite) options["overwrite"] = *r.options->overwrite;
    if (r.options->ignore_if_exists) options["ignoreIfExists"] = *r.options->ignore_if_exists;
    j["options"] = std::move(options);
  }
  if (r.annotation_id) j["annotationId"] = *r.annotation_id;
}

void from_json(const json& j, RenameFile& r) {
  r.old_uri = require_string(j, "oldUri");
  r.new_uri = require_string(j, "newUri");
  r.options.reset();
  if (const json* o = optional_field(j, "options", json::value_t::object)) {
    r.options.emplace();
    read_optional(*o, "overwrite", r.options->overwrite);
    read_optional(*o, "ignoreIfExists", r.options->ignore_if_exists);
  }
  read_optional(j, "annotationId", r.annotation_id);
}

void to_json(json& j, const DeleteFile& d) {
  j = {{"kind", "delete"}, {"uri", d.uri}};
  if (d.options) {
    json options = json::object();
    if (d.options->recursive) options["recursive"] = *d.options->recursive;
    if (d.options->ignore_if_not_exists)
      options["ignoreIfNotExists"] = *d.options->ignore_if_not_exists;
    j["options"] = std::move(options);
  }
  if (d.annotation_id) j["annotationId"] = *d.annotation_id;
}

void from_json(const json& j, DeleteFile& d) {
  d.uri = require_string(j, "uri");
  d.options.reset();
  if (const json* o = optional_field(j, "options", json::value_t::object)) {
    d.options.emplace();
    read_optional(*o, "recursive", d.options->recursive);
    read_optional(*o, "ignoreIfNotExists", d.options->ignore_if_not_exists);
  }
  read_optional(j, "annotationId", d.annotation_id);
}

void to_json(json& j, const DocumentChange& c) {
  std::visit([&j](const auto& change) { to_json(j, change); }, c);
}

void from_json(const json& j, DocumentChange& c) {
  const json* kind = optional_field(j, "kind", json::value_t::string);
  if (!kind) {
    c = j.get<TextDocumentEdit>();
  } else if (*kind == "create") {
    c = j.get<CreateFile>();
  } else if (*kind == "rename") {
    c = j.get<RenameFile>();
  } else if (*kind == "delete") {
    c = j.get<DeleteFile>();
  } else {
    throw LspError(kInvalidParams, "invalid field 'kind' (expected create, rename or delete)");
  }
}

void to_json(json& j, const ChangeAnnotation& a) {
  j = {{"label", a.label}};
  if (a.needs_confirmation) j["needsConfirmation"] = *a.needs_confirmation;
  if (a.description) j["description"] = *a.description;
}

void from_json(const json& j, ChangeAnnotation& a) {
  a.label = require_string(j, "label");
  read_optional(j, "needsConfirmation", a.needs_confirmation);
  read_optional(j, "description", a.description);
}

void to_json(json& j, const WorkspaceEdit& e) {
  j = json::object();
  if (e.changes) j["changes"] = *e.changes;
  if (e.document_changes) j["documentChanges"] = *e.document_changes;
  if (e.change_annotations) j["changeAnnotations"] = *e.change_annotations;
}

void from_json(const json& j, WorkspaceEdit& e) {
  read_optional(j, "changes", e.changes);
  e.document_changes.reset();
  if (optional_field(j, "documentChanges", json::value_t::array))
    e.document_changes = read_array<DocumentChange>(j, "documentChanges");
  read_optional(j, "changeAnnotations", e.change_annotations);
}

// ---- diagnostics -------------------------------------------------------------------------

void to_json(json& j, const DiagnosticData& d) {
  json fixes = json::array();
  for (const DiagnosticFix& f : d.fixes)
    fixes.push_back({{"title", f.title}, {"isPreferred", f.is_preferred}, {"edits", f.edits}});
  j = {{"v", d.v}, {"version", d.version}, {"fixes", std::move(fixes)}};
}

void from_json(const json& j, DiagnosticData& d) {
  d.v = static_cast<int>(require_int(j, "v"));
  d.version = require_int(j, "version");
  d.fixes.clear();
  for (const json& f : require_array(j, "fixes")) {
    const json* preferred = optional_field(f, "isPreferred", json::value_t::boolean);
    d.fixes.push_back({require_string(f, "title"), preferred && preferred->get<bool>(),
                       read_array<LspTextEdit>(f, "edits")});
  }
}

// Both overloads: `Moved` is `LspDiagnostic&&` (strings moved out) or `const LspDiagnostic&`.
template <typename D> static void diagnostic_to_json(json& j, D&& d) {
  j = {{"range", d.range},
       {"severity", d.severity},
       {"code", std::forward<D>(d).code},
       {"source", std::forward<D>(d).source},
       {"message", std::forward<D>(d).message}};
  if (d.code_description) j["codeDescription"] = {{"href", d.code_description->href}};
  if (d.related_information) {
    json related = json::array();
    for (const DiagnosticRelatedInformation& r : *d.related_information)
      related.push_back({{"location", {{"uri", r.location.uri}, {"range", r.location.range}}},
                         {"message", r.message}});
    j["relatedInformation"] = std::move(related);
  }
  if (d.data) j["data"] = *d.data;
}

void to_json(json& j, const LspDiagnostic& d) {
  diagnostic_to_json(j, d);
}

void to_json(json& j, LspDiagnostic&& d) {
  diagnostic_to_json(j, std::move(d));
}

void from_json(const json& j, LspDiagnostic& d) {
  d.range = require_object(j, "range").get<Range>();
  d.severity = static_cast<int>(require_int(j, "severity"));
  d.code = require_string(j, "code");
  d.source = require_string(j, "source");
  d.message = require_string(j, "message");
  d.code_description.reset();
  if (optional_field(j, "codeDescription", json::value_t::object))
    d.code_description = CodeDescription{require_string(j, "codeDescription.href")};
  d.related_information.reset();
  if (const json* related = optional_field(j, "relatedInformation", json::value_t::array)) {
    d.related_information.emplace();
    for (const json& r : *related)
      d.related_information->push_back(
          {{require_string(r, "location.uri"), require_object(r, "location.range").get<Range>()},
           require_string(r, "message")});
  }
  read_optional(j, "data", d.data);
}

} // namespace blockls::lsp
