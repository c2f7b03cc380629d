// The SEARCH/REPLACE blocks inside a `<diff>` parameter (Cline's replace_in_file: `------- SEARCH`
// … `=======` … `+++++++ REPLACE`; its older and Roo's apply_diff spelling `<<<<<<< SEARCH` …
// `>>>>>>> REPLACE`, Roo's `:start_line:` lines and `-------` after the SEARCH marker). Each
// block becomes one file_replace_text. Markers may carry one trailing `>` (models add it; Cline
// accepts it). Hand-written line scanning, no regular expressions.
#pragma once

#include "grammar/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace blockls::xml {

struct DiffBlock {
  ByteRange marker;   // the SEARCH marker line (absolute offsets)
  ByteRange old_text; // its lines, without the break after the last one
  ByteRange new_text;
  ByteRange replace_marker; // the `=======` line
};

struct DiffProblem {
  ByteRange at; // the marker line at fault (or the diff's first byte)
  std::string message, hint;
};

struct ParsedDiff {
  std::vector<DiffBlock> blocks;
  std::vector<DiffProblem> problems;
};

// Splits the diff text `text[range]` (absolute offsets into `text`) into its blocks.
ParsedDiff parse_diff(std::string_view text, ByteRange range);

// True when `line` (without its break) is one of the diff's marker lines (a value written into
// a diff must not hold one).
bool is_diff_marker(std::string_view line);

} // namespace blockls::xml
