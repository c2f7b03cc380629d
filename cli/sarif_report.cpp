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

// {"text": text}
void write_text_object(JsonWriter& w, std::string_view key, std::string_view text) {
  w.key(key);
  w.begin_object();
  w.field("text", text);
  w.end_object();
}

void write_artifact_location(JsonWriter& w, const std::string& uri, size_t index) {
  w.key("artifactLocation");
  w.begin_object();
  w.field("index", uint64_t{index});
  w.field("uri", uri);
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

} // namespace

// Every object's keys are written in sorted order, as dump_json writes nlohmann's objects: the
// output is the same as a dump of the value this describes (sarif_log).
void write_sarif_log(JsonWriter& w, const std::vector<SarifFile>& files, std::string_view version,
                     std::string_view docs_base_url) {
  const auto codes = all_codes();
  w.begin_object();
  w.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.key("artifacts");
  w.begin_array();
  for (const SarifFile& file : files) {
    w.begin_object();
    w.field("length", uint64_t{file.text.size()});
    w.key("location");
    w.begin_object();
    w.field("uri", file_uri(file.path));
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.field("columnKind", "utf16CodeUnits");
  w.key("results");
  w.begin_array();
  for (size_t f = 0; f < files.size(); ++f) {
    const SarifFile& file = files[f];
    const std::string uri = file_uri(file.path);
    const SourceView view{file.text, file.checked->parsed.lines};
    for (const Diagnostic& d : file.checked->diagnostics) {
      w.begin_object();
      if (!d.fixes.empty()) {
        w.key("fixes");
        w.begin_array();
        for (const Fix& fx : d.fixes) {
          w.begin_object();
          w.key("artifactChanges");
          w.begin_array();
          w.begin_object();
          write_artifact_location(w, uri, f);
          w.key("replacements");
          w.begin_array();
          for (const TextEdit& e : fx.edits) {
            w.begin_object();
            w.key("deletedRegion");
            write_region(w, view, e.range.begin, e.range.end);
            write_text_object(w, "insertedContent", e.new_text);
            w.end_object();
          }
          w.end_array();
          w.end_object();
          w.end_array();
          write_text_object(w, "description", fx.title);
          w.end_object();
        }
        w.end_array();
      }
      w.field("level", level(d.severity));
      w.key("locations");
      w.begin_array();
      w.begin_object();
      w.key("physicalLocation");
      w.begin_object();
      write_artifact_location(w, uri, f);
      w.key("region");
      write_region(w, view, d.range.begin, d.range.end);
      w.end_object();
      w.end_object();
      w.end_array();
      write_text_object(w, "message",
                        d.fix_hint.empty() ? d.message : d.message + " (" + d.fix_hint + ")");
      w.key("properties");
      w.begin_object();
      w.field("dialect", dialect_name(d.dialect));
      w.field("severity", severity_name(d.severity));
      w.end_object();
      w.field("ruleId", d.code);
      const auto rule = std::find_if(codes.begin(), codes.end(),
                                     [&](const CodeInfo& c) { return c.name == d.code; });
      if (rule != codes.end()) w.field("ruleIndex", uint64_t(rule - codes.begin()));
      w.end_object();
    }
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
  for (const CodeInfo& c : codes) {
    std::string anchor(c.name);
    std::transform(anchor.begin(), anchor.end(), anchor.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    w.begin_object();
    w.key("defaultConfiguration");
    w.begin_object();
    w.field("level", level(c.severity));
    w.end_object();
    w.field("helpUri", std::string(docs_base_url) + std::string(c.doc_page) + ".md#" + anchor);
    w.field("id", std::string_view(c.name));
    w.field("name", rule_name(c.name));
    w.key("properties");
    w.begin_object();
    w.field("dialect", dialect_column(c));
    w.field("severity", severity_name(c.severity));
    w.end_object();
    write_text_object(w, "shortDescription", c.summary);
    w.end_object();
  }
  w.end_array();
  w.field("semanticVersion", version);
  w.end_object();
  w.end_object();
  w.end_object();
  w.end_array();
  w.field("version", "2.1.0");
  w.end_object();
}

nlohmann::json sarif_log(const std::vector<SarifFile>& files, std::string_view version,
                         std::string_view docs_base_url) {
  std::string text;
  JsonWriter w(&text);
  write_sarif_log(w, files, version, docs_base_url);
  return nlohmann::json::parse(text);
}

} // namespace blockls::cli
