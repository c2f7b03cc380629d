// The format instructions for NESL that `blockls instructions nesl` prints: what a prompt
// author pastes into a system prompt so that a model writes blocks this checker accepts
// (spec/nesl.md, current era). The example that follows them is NeslDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::nesl {

inline constexpr std::string_view kInstructions =
    R"(To change files, write NESL blocks.

Syntax (each line after "| ", which is not written):
  | #!nesl [@three-char-SHA-256: k7m]     starts a block; k7m is 3 letters or digits, new for each
  | key = "value"                         a parameter whose value is a JSON string on one line
  | key = <<'EOT_k7m'                     a parameter whose value is the following lines, up to
  | ...                                   the line EOT_k7m (the block id after EOT_)
  | EOT_k7m
  | #!end_k7m                             ends the block

Rules:
- Every block names its action: action = "file_write" (also file_append, file_replace_text,
  file_delete, file_move, ...); the other keys are the action's parameters (path, content,
  old_text, new_text, ...).
- A key is assigned once per block. A quoted value is a JSON string: escape `"` and `\`, and
  write a line break as \n. For text of several lines use the heredoc form; its lines are kept
  exactly as written.
- Inside a block only assignments, heredoc lines and empty lines may appear; explain your changes
  in prose outside the blocks.
- Close every heredoc with its EOT_ line and every block with #!end_ and its id.
)";

} // namespace blockls::nesl
