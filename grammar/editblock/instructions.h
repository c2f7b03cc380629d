// The format instructions for Aider-style edit blocks that `blockls instructions editblock`
// prints: what a prompt author pastes into a system prompt so that a model writes edits this
// checker accepts (spec/dialects.md, "Aider edit blocks"). The example that follows them is
// EditBlockDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::editblock {

inline constexpr std::string_view kInstructions =
    R"(To change a file, write one SEARCH/REPLACE block per change.

Syntax (each line after "| ", which is not written):
  | path/to/file                      the file's path, alone on the line before the fence
  | ```
  | <<<<<<< SEARCH
  | ...                               lines copied exactly from the file
  | =======
  | ...                               the lines that replace them
  | >>>>>>> REPLACE
  | ```

Rules:
- Put the full path alone on its own line right before the opening fence: no bold, no
  backticks, no other words.
- The SEARCH lines must match the file exactly, character for character, comments, blank
  lines and indentation included; include just enough lines to be unique in the file.
- Only the first match is replaced. To make several changes, write several small blocks.
- Leave SEARCH empty to append the REPLACE lines to the file (creating it when it is missing).
- Write each marker exactly as shown, alone on its line; close every block with
  >>>>>>> REPLACE.
)";

} // namespace blockls::editblock
