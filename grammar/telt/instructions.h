// The format instructions for TELT that `blockls instructions telt` prints: what a prompt
// author pastes into a system prompt so that a model writes blocks this checker accepts
// (spec/telt.md). The example that follows them is TeltDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::telt {

inline constexpr std::string_view kInstructions =
    R"(To change files, write TELT blocks.

Syntax:
  #!telt [3-char SHA: xyz]      starts a block; xyz is 3 letters or digits, new for each block
  === COMMAND_NAME ===          starts a command (CREATE_FILE, REPLACE_TEXT, DELETE_FILE, ...)
  --PARAM_NAME xyz--            starts a parameter of the command (PATH, CONTENT, OLD_TEXT, ...)
  --END xyz--                   ends the block

Rules:
- Every delimiter line starts at column 0 and carries the block's own hash xyz.
- A parameter's value is every line after its delimiter up to the next delimiter of the block,
  kept exactly as written (indentation, empty lines and `//` lines included); nothing is
  escaped or quoted.
- One block may hold several commands; each runs in order, and the block runs all of them or
  none.
- Text outside blocks is ignored, so explain your changes in prose around the blocks.
- Close every block with --END xyz--, also the last one.
)";

} // namespace blockls::telt
