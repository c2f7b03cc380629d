// Real replacer replies (tests/data/replacer/replacer_real.json: 86 replies with the tool's
// verdicts, see SOURCES.md there) against the replacer diagnostics. The tool numbers its
// verdicts per edit (`SUCCESS Block N`), so verdict N is our N-th edit: every edit the tool ran
// successfully has no replacer syntax error and the verdict's file ends with the edit's path;
// the tool never rejected an edit for its format in this corpus (its errors are about the
// files: no match, several matches, outside the repository, not found), and those edits have
// no syntax error either. The replies where the tool itself was wrong are listed (kTooWrong)
// and checked exactly.
#include "diagnostics/check.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Replies where the tool's verdicts do not describe the edits as written.
struct ToolWrong {
  const char* file;
  size_t verdicts; // how many edits the tool reported
  size_t edits;    // how many edits the reply holds
  bool cut_off;    // the edits past the reported ones are unfinished (an error each)
  const char* why;
};
constexpr ToolWrong kToolWrong[] = {
    {"bigfoothq__clada/replacer_input@20250620T235718_53211e8b64.txt", 1, 2, false,
     "the first edit's REPLACE is empty (the seed's own deletion); the tool, which needs a "
     "line there, read one edit from the first SEARCH to the second edit's END and reported "
     "it 'Updated': it merged the two edits"},
    {"bigfoothq__clada/replacer_input@20250718T135817_1ecfe3dcd6.md", 1, 2, true,
     "the reply is cut off inside the second edit's SEARCH (no REPLACE, no END): the tool "
     "said nothing about it; blockls reports UNCLOSED_BLOCK on it"},
    {"bigfoothq__clada/replacer_input@20250721T160308_5f23efabab.md", 1, 2, true,
     "the reply is cut off inside the second edit's OVERWRITE (no END): the tool said "
     "nothing about it; blockls reports UNCLOSED_BLOCK on it"},
};

const ToolWrong* tool_wrong(const std::string& file) {
  for (const ToolWrong& w : kToolWrong)
    if (file == w.file) return &w;
  return nullptr;
}

} // namespace

TEST_CASE("real replacer replies: the tool's verdicts agree with the diagnostics",
          "[replacer][real]") {
  const nlohmann::json data = nlohmann::json::parse(blockls::test::read_file(
      std::string(BLOCKLS_TEST_DATA_DIR) + "/replacer/replacer_real.json"));
  blockls::CheckOptions options;
  options.parse.dialects = blockls::DialectSet::none();
  options.parse.dialects.insert(blockls::Dialect::replacer);

  std::map<std::string, size_t> kinds;
  size_t replies = 0, edits = 0, succeeded = 0, workspace = 0, disagreements = 0;
  size_t tool_wrong_seen = 0, whitespace_notes = 0;
  std::ostringstream report;
  for (const nlohmann::json& reply : data.at("replies")) {
    ++replies;
    const std::string file = reply.at("file");
    const std::string input = reply.at("input");
    const blockls::CheckedDocument checked = blockls::check_document(input, options);
    const std::vector<blockls::Block>& blocks = checked.parsed.blocks;
    edits += blocks.size();
    std::vector<size_t> errors(blocks.size());
    for (const blockls::Diagnostic& d : checked.diagnostics) {
      if (blockls::is_error(d.severity) && d.block >= 0) ++errors[static_cast<size_t>(d.block)];
      whitespace_notes += d.code == "REPLACE_WHITESPACE_ONLY";
    }
    const nlohmann::json& verdicts = reply.at("verdicts");

    if (const ToolWrong* w = tool_wrong(file)) {
      ++tool_wrong_seen;
      INFO(file << ": " << w->why);
      CHECK(verdicts.size() == w->verdicts);
      REQUIRE(blocks.size() == w->edits);
      // The edits the tool did not report (cut off) are the ones with an error.
      for (size_t b = 0; b < blocks.size(); ++b)
        CHECK((errors[b] > 0) == (w->cut_off && b >= verdicts.size()));
      for (const nlohmann::json& v : verdicts)
        ++kinds[v.at("kind").get<std::string>()];
      continue;
    }
    if (verdicts.size() != blocks.size()) {
      ++disagreements;
      report << file << ": " << verdicts.size() << " verdicts, " << blocks.size() << " edits\n";
      continue;
    }
    for (const nlohmann::json& v : verdicts) {
      const size_t b = v.at("block").get<size_t>() - 1;
      ++kinds[v.at("kind").get<std::string>()];
      const bool ok = v.at("ok");
      (ok ? succeeded : workspace) += 1;
      std::string path;
      for (const blockls::Parameter& p : blocks.at(b).commands[0].params)
        if (p.name == "path") path = std::string(p.value(input));
      const std::string message = v.at("message");
      // The tool prints the resolved absolute path; the edit names it relative (`./x`, `x`)
      // or absolute.
      std::string_view tail = path;
      if (tail.starts_with("./")) tail.remove_prefix(2);
      if (tail.starts_with('/')) tail.remove_prefix(1);
      const bool path_named = !tail.empty() && message.find(tail) != std::string::npos;
      if (errors[b] == 0 && (path_named || !ok)) continue;
      ++disagreements;
      report << file << " block " << b + 1 << ": the tool says '" << message << "', blockls has "
             << errors[b] << " errors, path '" << path << "'\n";
    }
  }
  INFO(report.str());
  std::ostringstream counts;
  for (const auto& [k, n] : kinds)
    counts << k << " " << n << ", ";
  INFO("verdicts: " << counts.str() << "edits " << edits);
  CHECK(replies == 86);
  CHECK(tool_wrong_seen == std::size(kToolWrong));
  CHECK(succeeded == 264);
  CHECK(workspace == 21);
  CHECK(edits == 291);
  // Models follow the seed's "blank line and a space" rule: each such REPLACE is a note.
  CHECK(whitespace_notes == 5);
  CHECK(disagreements == 0);
}
