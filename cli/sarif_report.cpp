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

nlohmann::json region(const SourceView& view, size_t begin, size_t end) {
  begin = std::min(begin, view.text.size());
  end = std::clamp(end, begin, view.text.size());
  const OutwardPosition s = view.position(view.lines.line_of(begin), begin);
  const OutwardPosition e = view.position(view.lines.line_of(end), end);
  return {{"startLine", s.line},
          {"startColumn", s.column},
          {"endLine", e.line},
          {"endColumn", e.column}};
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

nlohmann::json sarif_log(const std::vector<SarifFile>& files, std::string_view version,
                         std::string_view docs_base_url) {
  nlohmann::json rules = nlohmann::json::array();
  const auto codes = all_codes();
  for (const CodeInfo& c : codes) {
    std::string anchor(c.name);
    std::transform(anchor.begin(), anchor.end(), anchor.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    rules.push_back(
        {{"id", c.name},
         {"name", rule_name(c.name)},
         {"shortDescription", {{"text", c.summary}}},
         {"helpUri", std::string(docs_base_url) + std::string(c.doc_page) + ".md#" + anchor},
         {"defaultConfiguration", {{"level", level(c.severity)}}},
         {"properties",
          {{"severity", severity_name(c.severity)}, {"dialect", dialect_column(c)}}}});
  }
  nlohmann::json results = nlohmann::json::array();
  nlohmann::json artifacts = nlohmann::json::array();
  for (size_t f = 0; f < files.size(); ++f) {
    const SarifFile& file = files[f];
    const std::string uri = file_uri(file.path);
    artifacts.push_back({{"location", {{"uri", uri}}}, {"length", file.text.size()}});
    const SourceView view{file.text, file.checked->parsed.lines};
    for (const Diagnostic& d : file.checked->diagnostics) {
      const auto rule = std::find_if(codes.begin(), codes.end(),
                                     [&](const CodeInfo& c) { return c.name == d.code; });
      nlohmann::json fixes = nlohmann::json::array();
      for (const Fix& fx : d.fixes) {
        nlohmann::json replacements = nlohmann::json::array();
        for (const TextEdit& e : fx.edits)
          replacements.push_back({{"deletedRegion", region(view, e.range.begin, e.range.end)},
                                  {"insertedContent", {{"text", e.new_text}}}});
        fixes.push_back({{"description", {{"text", fx.title}}},
                         {"artifactChanges",
                          {{{"artifactLocation", {{"uri", uri}, {"index", f}}},
                            {"replacements", replacements}}}}});
      }
      nlohmann::json result = {
          {"ruleId", d.code},
          {"level", level(d.severity)},
          {"message",
           {{"text", d.fix_hint.empty() ? d.message : d.message + " (" + d.fix_hint + ")"}}},
          {"locations",
           {{{"physicalLocation",
              {{"artifactLocation", {{"uri", uri}, {"index", f}}},
               {"region", region(view, d.range.begin, d.range.end)}}}}}},
          {"properties",
           {{"severity", severity_name(d.severity)}, {"dialect", dialect_name(d.dialect)}}}};
      if (rule != codes.end()) result["ruleIndex"] = rule - codes.begin();
      if (!fixes.empty()) result["fixes"] = fixes;
      results.push_back(result);
    }
  }
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs",
           {{{"tool",
              {{"driver",
                {{"name", "blockls"},
                 {"semanticVersion", version},
                 {"informationUri", "https://github.com/blockls/blockls"},
                 {"rules", rules}}}}},
             {"columnKind", "utf16CodeUnits"},
             {"artifacts", artifacts},
             {"results", results}}}}};
}

} // namespace blockls::cli
