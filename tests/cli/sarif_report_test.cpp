// `check --format sarif` moved from an nlohmann::json tree to the streaming JsonWriter (#20)
// without a byte of output changing. The tree builder it replaced is kept here, frozen, as the
// reference: the writer's text must equal its dump for every test input, generated transcripts
// of every dialect, and inputs with invalid UTF-8, CRLF, non-ASCII text or nothing at all.
#include "bench/transcript_generator.h"
#include "cli/sarif_report.h"
#include "diagnostics/codes.h"
#include "diagnostics/file_uri.h"
#include "diagnostics/json_text.h"
#include "diagnostics/source_view.h"
#include "fixits/verify_fixes.h"
#include "support/test_inputs.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <nlohmann/json.hpp>

namespace blockls::cli {
namespace {

// ---- the reference: sarif_log as it was before the writer (do not edit) ----------------------

std::string_view reference_level(Severity s) {
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

nlohmann::json reference_region(const SourceView& view, size_t begin, size_t end) {
  begin = std::min(begin, view.text.size());
  end = std::clamp(end, begin, view.text.size());
  const OutwardPosition s = view.position(view.lines.line_of(begin), begin);
  const OutwardPosition e = view.position(view.lines.line_of(end), end);
  return {{"startLine", s.line},
          {"startColumn", s.column},
          {"endLine", e.line},
          {"endColumn", e.column}};
}

std::string reference_rule_name(std::string_view code) {
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

nlohmann::json reference_sarif_log(const std::vector<SarifFile>& files, std::string_view version,
                                   std::string_view docs_base_url) {
  nlohmann::json rules = nlohmann::json::array();
  const auto codes = all_codes();
  for (const CodeInfo& c : codes) {
    std::string anchor(c.name);
    std::transform(anchor.begin(), anchor.end(), anchor.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    rules.push_back(
        {{"id", c.name},
         {"name", reference_rule_name(c.name)},
         {"shortDescription", {{"text", c.summary}}},
         {"helpUri", std::string(docs_base_url) + std::string(c.doc_page) + ".md#" + anchor},
         {"defaultConfiguration", {{"level", reference_level(c.severity)}}},
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
          replacements.push_back(
              {{"deletedRegion", reference_region(view, e.range.begin, e.range.end)},
               {"insertedContent", {{"text", e.new_text}}}});
        fixes.push_back({{"description", {{"text", fx.title}}},
                         {"artifactChanges",
                          {{{"artifactLocation", {{"uri", uri}, {"index", f}}},
                            {"replacements", replacements}}}}});
      }
      nlohmann::json result = {
          {"ruleId", d.code},
          {"level", reference_level(d.severity)},
          {"message",
           {{"text", d.fix_hint.empty() ? d.message : d.message + " (" + d.fix_hint + ")"}}},
          {"locations",
           {{{"physicalLocation",
              {{"artifactLocation", {{"uri", uri}, {"index", f}}},
               {"region", reference_region(view, d.range.begin, d.range.end)}}}}}},
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

// ---- the comparison --------------------------------------------------------------------------

struct Input {
  std::string path;
  std::string text;
};

// The writer's log of `inputs` (checked as `check` checks them) must be the reference's dump,
// in the layout `check` prints (indent 2) and on one line. Returns the reference log.
nlohmann::json compare_with_reference(const std::vector<Input>& inputs) {
  std::vector<CheckedDocument> checked;
  checked.reserve(inputs.size());
  for (const Input& in : inputs)
    checked.push_back(check_with_verified_fixes(in.text));
  std::vector<SarifFile> files;
  for (size_t i = 0; i < inputs.size(); ++i)
    files.push_back({inputs[i].path, inputs[i].text, &checked[i]});
  nlohmann::json reference =
      reference_sarif_log(files, "1.2.3-test", "https://example.invalid/docs/");
  // Added since: the run's invocation (every input here was checked).
  reference["runs"][0]["invocations"] = {{{"executionSuccessful", true}}};
  for (int indent : {2, -1}) {
    std::string written;
    JsonWriter w(&written, indent);
    write_sarif_log(w, files, "1.2.3-test", "https://example.invalid/docs/");
    const std::string expected = dump_json(reference, indent);
    const bool same = written == expected;
    std::string where; // the first difference, with some context (the logs are large)
    if (!same) {
      const auto diff =
          std::mismatch(written.begin(), written.end(), expected.begin(), expected.end());
      const size_t at = static_cast<size_t>(diff.first - written.begin());
      const size_t from = at < 200 ? 0 : at - 200;
      where = "first difference at byte " + std::to_string(at) +
              "\nwritten:  " + written.substr(from, 400) +
              "\nexpected: " + expected.substr(from, 400);
    }
    INFO("indent " << indent << "; " << where);
    CHECK(same);
  }
  return reference;
}

const char* const kBrokenTelt = "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\n"
                                "a.txt\n--CONTENT abc--\nhello\n--END abx--\n";

} // namespace

TEST_CASE("SARIF from the writer equals the reference's dump for every test input", "[sarif]") {
  const std::vector<test::NamedInput>& inputs = test::all_inputs();
  REQUIRE(inputs.size() > 100);
  for (const test::NamedInput& in : inputs) {
    INFO("input " << in.name);
    compare_with_reference({{in.name, in.text}});
  }
  // All of them in one log: artifact indexes and uris past the first file.
  std::vector<Input> all;
  for (const test::NamedInput& in : inputs)
    all.push_back({"inputs/" + in.name, in.text});
  compare_with_reference(all);
}

TEST_CASE("SARIF from the writer equals the reference's dump on generated transcripts", "[sarif]") {
  using bench::Mix;
  for (const Mix mix : {Mix::classic, Mix::nesl_only, Mix::heredoc, Mix::edits, Mix::every}) {
    bench::TranscriptOptions options;
    options.target_bytes = 96 * 1024;
    options.mix = mix;
    options.broken_rate = 0.2;
    INFO("mix " << static_cast<int>(mix));
    compare_with_reference({{"transcript.md", bench::generate_transcript(options)}});
  }
}

TEST_CASE("SARIF from the writer equals the reference's dump on awkward bytes", "[sarif]") {
  const std::string crlf = "#!telt [3-char SHA: abc]\r\n=== CREATE_FILE ===\r\n--FILE abc--\r\n"
                           "a.txt\r\n--CONTENT abc--\r\nhello\r\n--END abx--\r\n";
  const std::string non_ascii =
      "Voilà 😀 — prose\n#!telt [3-char SHA: abc]\n=== CRÉATE_FILE ===\n--FILE abc--\n"
      "caf\xc3\xa9.txt\n--CONTENT abc--\n\xc3\xa9\xf0\x9f\x98\x80 --FILE abx--\n--END abx--\n";
  const std::string invalid_utf8 = std::string("\xff\xfe bad \x80\n") + kBrokenTelt +
                                   "#!telt [3-char SHA: d\xe2\x82]\n=== CREATE_FILE ===\n"
                                   "--FILE d\xe2\x82--\n\xc0\xaf.txt\n--END d\xe2\x82--\n";
  const std::string nesl_at_end = "#!nesl [@three-char-SHA-256: k1m]\naction = \"write_file\"\n"
                                  "path = \"/tmp/x\"\ncontent = <<'EOT_k1m'\nunfinished";
  const std::vector<Input> cases = {
      {"empty.md", ""},
      {"crlf.md", crlf},
      {"non-ascii/é 😀.md", non_ascii},
      {"invalid.md", invalid_utf8},
      {"bad \xff path.md", kBrokenTelt},
      {"nesl-at-end.md", nesl_at_end},
      {"only-newlines.md", "\n\r\n\n"},
  };
  for (const Input& c : cases) {
    INFO("case " << c.path);
    compare_with_reference({c});
  }
  // Together: results in several files, fixes among them (the cases do exercise the writer).
  const nlohmann::json log = compare_with_reference(cases);
  const nlohmann::json& results = log["runs"][0]["results"];
  CHECK(results.size() > 4);
  CHECK(std::any_of(results.begin(), results.end(),
                    [](const nlohmann::json& r) { return r.contains("fixes"); }));
  CHECK(std::any_of(results.begin(), results.end(), [](const nlohmann::json& r) {
    return r["locations"][0]["physicalLocation"]["artifactLocation"]["index"] == 3;
  }));
  compare_with_reference({}); // no files at all
}

} // namespace blockls::cli
