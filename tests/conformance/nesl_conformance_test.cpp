// nesl-js conformance: the three integration suites (current, upper-case NESL, SHAM) converted
// to tests/data/nesl/*.json, compared exactly (blocks, and every error's code, line, column,
// length, blockId, content, context, message) after filtering our own extra codes. Also the
// extra golden cases (extras.json) and the fix property over every case that has fixes.
#include "diagnostics/source_view.h"
#include "fixits/apply_fixes.h"
#include "grammar/router/document_parser.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace {

using nlohmann::json;
using namespace blockls;

json load(const std::string& name) {
  std::ifstream in(std::string(BLOCKLS_TEST_DATA_DIR) + "/nesl/" + name);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

// Codes blockls adds beyond nesl-js; they never appear in nesl-js results.
bool is_extra_code(std::string_view code) {
  static const std::set<std::string_view> kExtra = {
      "SUSPICIOUS_END", "GLUED_DELIMITER",      "DUPLICATE_BLOCK_ID",
      "LEGACY_ERA",     "NONSTANDARD_BLOCK_ID", "NONSTANDARD_HEADER_LABEL"};
  return kExtra.count(code) > 0;
}

// The parse result in nesl-js's shape.
json nesl_js_result(std::string_view text, const ParsedDocument& doc) {
  const SourceView view{text, doc.lines};
  json blocks = json::array();
  for (const Block& b : doc.blocks) {
    if (b.dialect != Dialect::nesl) continue;
    json props = json::object();
    for (const Command& c : b.commands)
      for (const Parameter& p : c.params)
        props[p.name] = std::string(p.value(text));
    blocks.push_back({{"id", b.id},
                      {"properties", props},
                      {"startLine", b.start_line + 1},
                      {"endLine", b.end_line ? json(*b.end_line + 1) : json(nullptr)}});
  }
  json errors = json::array();
  for (const Diagnostic& d : doc.diagnostics) {
    if (d.dialect != Dialect::nesl || is_extra_code(d.code)) continue;
    const OutwardPosition pos = view.start_of(d);
    errors.push_back({{"code", std::string(d.code)},
                      {"line", pos.line},
                      {"column", pos.column},
                      {"length", view.utf16_length(d.range)},
                      {"blockId", d.block >= 0 ? json(doc.blocks[d.block].id) : json(nullptr)},
                      {"content", std::string(view.line_content(d.line))},
                      {"context", view.nesl_context(d.line)},
                      {"message", d.message}});
  }
  return {{"blocks", blocks}, {"errors", errors}};
}

std::map<std::string, size_t> count_codes(const ParsedDocument& doc) {
  std::map<std::string, size_t> counts;
  for (const Diagnostic& d : doc.diagnostics)
    ++counts[std::string(d.code)];
  return counts;
}

void run_suite(const std::string& file, const std::string& era) {
  const json data = load(file);
  size_t exact = 0, overridden = 0;
  for (const json& c : data["cases"]) {
    const std::string name = c["name"];
    const std::string input = c["input"];
    INFO(era << " " << name);
    const ParsedDocument doc = parse_document(input);
    const json actual = nesl_js_result(input, doc);
    if (c.contains("spec_override")) {
      ++overridden;
      INFO("spec override: " << c["spec_override"]["reason"].get<std::string>());
      CHECK(actual.dump(1) == c["spec_override"]["expected"].dump(1));
    } else {
      if (actual == c["expected"]) ++exact;
      CHECK(actual.dump(1) == c["expected"].dump(1));
    }
  }
  std::cout << "nesl conformance (" << era << "): " << exact << "/" << data["cases"].size()
            << " exact, " << overridden << " overridden by spec/nesl.md\n";
  CHECK(exact + overridden == data["cases"].size());
}

} // namespace

TEST_CASE("nesl-js integration suite, current era (#!nesl)", "[nesl][conformance]") {
  run_suite("nesl_current.json", "current");
}

TEST_CASE("nesl-js integration suite, upper-case NESL era (#!NESL)", "[nesl][conformance]") {
  run_suite("nesl_upper.json", "upper");
}

TEST_CASE("nesl-js integration suite, SHAM era (#!SHAM)", "[nesl][conformance]") {
  run_suite("nesl_sham.json", "sham");
}

TEST_CASE("blockls NESL extras: diagnostics and preferred fixes", "[nesl][extras]") {
  const json data = load("extras.json");
  for (const json& c : data["cases"]) {
    const std::string input = c["input"];
    INFO(c["name"].get<std::string>() << "\n--- input ---\n" << input);
    const ParsedDocument doc = parse_document(input);
    const SourceView view{input, doc.lines};
    json got = json::array();
    for (const Diagnostic& d : doc.diagnostics) {
      const OutwardPosition pos = view.start_of(d);
      got.push_back({{"code", std::string(d.code)},
                     {"severity", std::string(severity_name(d.severity))},
                     {"line", pos.line},
                     {"column", pos.column},
                     {"length", view.utf16_length(d.range)},
                     {"fixes", d.fixes.size()}});
    }
    if (c.contains("diagnostics")) {
      json expected = c["diagnostics"];
      // Fields left out of the expectation are not compared.
      json trimmed = json::array();
      for (size_t i = 0; i < got.size(); ++i) {
        json g = got[i];
        if (i < expected.size())
          for (auto it = g.begin(); it != g.end();) {
            if (!expected[i].contains(it.key())) {
              it = g.erase(it);
            } else {
              ++it;
            }
          }
        trimmed.push_back(g);
      }
      CHECK(trimmed.dump(1) == expected.dump(1));
    }
    if (c.contains("messages")) {
      for (const json& m : c["messages"]) {
        const std::string code = m["code"];
        bool found = false;
        for (const Diagnostic& d : doc.diagnostics)
          if (d.code == code && d.message == m["message"].get<std::string>()) found = true;
        INFO("message of " << code << ": " << m["message"].get<std::string>());
        CHECK(found);
      }
    }
    if (c.contains("fixed")) {
      std::string fixed;
      apply_preferred_fixes(input, doc.diagnostics, &fixed);
      CHECK(fixed == c["fixed"].get<std::string>());
      if (c.value("fixed_is_clean", true)) {
        const ParsedDocument again = parse_document(fixed);
        for (const Diagnostic& d : again.diagnostics) {
          INFO("left after fixing: " << d.code << " " << d.message);
          CHECK(!is_error(d.severity));
        }
      }
    }
    if (c.contains("blocks"))
      CHECK(nesl_js_result(input, doc)["blocks"].dump(1) == c["blocks"].dump(1));
  }
}

TEST_CASE("every NESL fix removes its diagnostic and adds none", "[nesl][fix]") {
  size_t checked = 0;
  for (const char* file :
       {"nesl_current.json", "nesl_upper.json", "nesl_sham.json", "extras.json"}) {
    const json data = load(file);
    for (const json& c : data["cases"]) {
      const std::string input = c["input"];
      const ParsedDocument doc = parse_document(input);
      const auto before = count_codes(doc);
      for (const Diagnostic& d : doc.diagnostics) {
        for (const Fix& fix : d.fixes) {
          INFO(file << " " << c["name"].get<std::string>() << ": " << d.code << " fix '"
                    << fix.title << "'\n--- input ---\n"
                    << input);
          std::string fixed;
          REQUIRE(apply_fix(input, fix, &fixed));
          INFO("--- fixed ---\n" << fixed);
          const auto after = count_codes(parse_document(fixed));
          for (const auto& [code, n] : after) {
            const auto it = before.find(code);
            INFO("code " << code);
            CHECK(n <= (it == before.end() ? 0 : it->second));
          }
          const auto it = after.find(std::string(d.code));
          CHECK((it == after.end() ? 0 : it->second) < before.at(std::string(d.code)));
          ++checked;
        }
      }
    }
  }
  std::cout << "nesl fix property: " << checked << " fixes checked\n";
  CHECK(checked > 0);
}
