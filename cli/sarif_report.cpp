// SARIF rendering. End-of-input diagnostics (one line past the last, as nesl-js reports
// them) are clamped to the end of the file, because a SARIF region must lie inside it.
#include "cli/sarif_report.h"

#include "diagnostics/codes.h"
#include "diagnostics/file_uri.h"
#include "diagnostics/source_view.h"

#include <algorithm>
#include <cctype>

namespace blockls::cli {
namespace {

std::string_view level(Severity s) {
  switch (s) {
  case Severity::block_fatal:
  case Severity::command_error:
    return "error";
  case Severity::parameter_warning:
    return "warning";
  case Severity::syntax_info:
    return "note";
  }
  return "error";
}

void write_region(JsonWriter& w, const SourceView& view, size_t begin, size_t end) {
  begin = std::min(begin, view.text.size());
  end = std::clamp(end, begin, view.text.size());
  const OutwardPosition s = view.position(view.lines.line_of(begin), begin);
  const OutwardPosition e = view.position(view.lines.line_of(end), end);
  w.begin_object();
  w.field("endColumn", e.column);
  w.field("endLine", e.line);
  w.field("startColumn", s.column);
  w.field("startLine", s.line);
  w.end_object();
}

std::string rule_name(std::string_view code) {
  std::string name;
  bool upper = true;
  for (char c : code) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name.push_back(upper ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    upper = false;
  }
  return name;
}

// {"severity", "dialect"}: the properties bag of rules and results.
void write_properties(JsonWriter& w, std::string_view dialect, std::string_view severity) {
  w.key("properties");
  w.begin_object();
  w.field("dialect", dialect);
  w.field("severity", severity);
  w.end_object();
}

// {"text": text}: SARIF's message objects.
void write_message(JsonWriter& w, std::string_view key, std::string_view text) {
  w.key(key);
  w.begin_object();
  w.field("text", text);
  w.end_object();
}

void write_artifact_location(JsonWriter& w, std::string_view uri, size_t index) {
  w.key("artifactLocation");
  w.begin_object();
  w.field("index", static_cast<uint64_t>(index));
  w.field("uri", uri);
  w.end_object();
}

void write_rule(JsonWriter& w, const CodeInfo& c, std::string_view docs_base_url) {
  std::string anchor(c.name);
  std::transform(anchor.begin(), anchor.end(), anchor.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  w.begin_object();
  w.key("defaultConfiguration");
  w.begin_object();
  w.field("level", level(c.severity));
  w.end_object();
  w.field("helpUri", std::string(docs_base_url) + std::string(c.doc_page) + ".md#" + anchor);
  w.field("id", c.name);
  w.field("name", rule_name(c.name));
  write_properties(w, dialect_column(c), severity_name(c.severity));
  write_message(w, "shortDescription", c.summary);
  w.end_object();
}

void write_fix(JsonWriter& w, const SourceView& view, std::string_view uri, size_t index,
               const Fix& fix) {
  w.begin_object();
  w.key("artifactChanges");
  w.begin_array();
  w.begin_object();
  write_artifact_location(w, uri, index);
  w.key("replacements");
  w.begin_array();
  for (const TextEdit& e : fix.edits) {
    w.begin_object();
    w.key("deletedRegion");
    write_region(w, view, e.range.begin, e.range.end);
    write_message(w, "insertedContent", e.new_text);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.end_array();
  write_message(w, "description", fix.title);
  w.end_object();
}

// One result; `message` is scratch space reused across results (one allocation, not one each).
void write_result(JsonWriter& w, const SourceView& view, std::string_view uri, size_t index,
                  const Diagnostic& d, std::string& message) {
  const std::span<const CodeInfo> codes = all_codes();
  const CodeInfo* rule = find_code(d.code);
  message.assign(d.message);
  if (!d.fix_hint.empty()) message.append(" (").append(d.fix_hint).append(")");
  w.begin_object();
  if (!d.fixes.empty()) {
    w.key("fixes");
    w.begin_array();
    for (const Fix& fx : d.fixes)
      write_fix(w, view, uri, index, fx);
    w.end_array();
  }
  w.field("level", level(d.severity));
  w.key("locations");
  w.begin_array();
  w.begin_object();
  w.key("physicalLocation");
  w.begin_object();
  write_artifact_location(w, uri, index);
  w.key("region");
  write_region(w, view, d.range.begin, d.range.end);
  w.end_object();
  w.end_object();
  w.end_array();
  write_message(w, "message", message);
  write_properties(w, dialect_name(d.dialect), severity_name(d.severity));
  w.field("ruleId", d.code);
  if (rule) w.field("ruleIndex", static_cast<uint64_t>(rule - codes.data()));
  w.end_object();
}

// A notification (SARIF 2.1.0 §3.58) for an input that could not be read: its location names
// the file only (it is not one of the run's artifacts, which hold what was checked).
void write_io_notification(JsonWriter& w, const SarifIoError& e) {
  w.begin_object();
  w.field("level", "error");
  w.key("locations");
  w.begin_array();
  w.begin_object();
  w.key("physicalLocation");
  w.begin_object();
  w.key("artifactLocation");
  w.begin_object();
  w.field("uri", file_uri(e.path));
  w.end_object();
  w.end_object();
  w.end_object();
  w.end_array();
  write_message(w, "message", e.message);
  w.end_object();
}

// The run's invocation (§3.20): without it a consumer cannot tell a run that could not read its
// input from a clean one, since both have no results.
void write_invocations(JsonWriter& w, const std::vector<SarifIoError>& unchecked) {
  w.key("invocations");
  w.begin_array();
  w.begin_object();
  w.field("executionSuccessful", unchecked.empty());
  if (!unchecked.empty()) {
    w.key("toolExecutionNotifications");
    w.begin_array();
    for (const SarifIoError& e : unchecked)
      write_io_notification(w, e);
    w.end_array();
  }
  w.end_object();
  w.end_array();
}

} // namespace

void write_sarif_log(JsonWriter& w, const std::vector<SarifFile>& files, std::string_view version,
                     std::string_view docs_base_url, const std::vector<SarifIoError>& unchecked) {
  std::vector<std::string> uris;
  uris.reserve(files.size());
  for (const SarifFile& file : files)
    uris.push_back(file_uri(file.path));

  w.begin_object();
  w.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.key("artifacts");
  w.begin_array();
  for (size_t f = 0; f < files.size(); ++f) {
    w.begin_object();
    w.field("length", static_cast<uint64_t>(files[f].text.size()));
    w.key("location");
    w.begin_object();
    w.field("uri", uris[f]);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.field("columnKind", "utf16CodeUnits");
  write_invocations(w, unchecked);
  w.key("results");
  w.begin_array();
  std::string message;
  for (size_t f = 0; f < files.size(); ++f) {
    const SourceView view{files[f].text, files[f].checked->parsed.lines};
    for (const Diagnostic& d : files[f].checked->diagnostics)
      write_result(w, view, uris[f], f, d, message);
  }
  w.end_array();
  w.key("tool");
  w.begin_object();
  w.key("driver");
  w.begin_object();
  w.field("informationUri", "https://github.com/blockls/blockls");
  w.field("name", "blockls");
  w.key("rules");
  w.begin_array();
  for (const CodeInfo& c : all_codes())
    write_rule(w, c, docs_base_url);
  w.end_array();
  w.field("semanticVersion", version);
  w.end_object();
  w.end_object();
  w.end_object();
  w.end_array();
  w.field("version", "2.1.0");
  w.end_object();
}

} // namespace blockls::cli
