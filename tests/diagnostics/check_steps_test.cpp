// check_steps::judge finds each diagnostic's command by a binary search over its block's
// command lines: a malformed `<diff>` makes thousands of commands in one block, each with an
// error, and a scan of the block's commands per diagnostic was quadratic.
#include "diagnostics/check_steps.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using namespace blockls;

TEST_CASE("judge reads O(log n) command lines per diagnostic", "[check]") {
  std::string text = "<replace_in_file>\n<path>a.py</path>\n<diff>\n";
  constexpr size_t kBlocks = 4000;
  for (size_t i = 0; i < kBlocks; ++i)
    text += "<<<<<<< SEARCH\nx\n"; // each unfinished: one command and one error
  text += "</diff>\n</replace_in_file>\n";
  const CheckedDocument checked = check_document(text);
  REQUIRE(checked.parsed.blocks.size() == 1);
  REQUIRE(checked.parsed.blocks[0].commands.size() == kBlocks);
  REQUIRE(checked.diagnostics.size() >= kBlocks);

  const auto lines = check_steps::CommandLines::of(checked.parsed, 0, 1);
  std::vector<BlockVerdict> verdicts;
  check_steps::judge(checked.diagnostics, verdicts, 0, 1, lines);
  // Same verdict as check's; a scan per diagnostic read ~4000 * 4000 / 2 = 8 M lines.
  REQUIRE(verdicts.size() == 1);
  CHECK(verdicts[0].valid == checked.verdicts[0].valid);
  CHECK(verdicts[0].error_count == checked.verdicts[0].error_count);
  CHECK(std::equal(verdicts[0].command_valid.begin(), verdicts[0].command_valid.end(),
                   checked.verdicts[0].command_valid.begin(),
                   checked.verdicts[0].command_valid.end()));
  INFO("command lines read: " << lines.lines_read());
  CHECK(lines.lines_read() <= checked.diagnostics.size() * 16);
}
