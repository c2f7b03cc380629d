// The SEARCH/REPLACE blocks inside a `<diff>` parameter (Cline's replace_in_file: `------- SEARCH`
// … `=======` … `+++++++ REPLACE`; its older and Roo's apply_diff spelling `<<<<<<< SEARCH` …
// `>>>>>>> REPLACE`, Roo's `:start_line:` lines and `-------` after the SEARCH marker). Each
// block becomes one file_replace_text. Markers may carry one trailing `>` (models add it; Cline
// accepts it). Hand-written line scanning, no regular expressions. A block the diff ends (or the
// next SEARCH marker cuts) before its REPLACE marker is kept with the text it has, and a
// problem: so what `blockls stream` reported of it while it arrived is its value.
#pragma once

#include "grammar/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::xml {

struct DiffBlock {
  ByteRange marker;   // the SEARCH marker line (absolute offsets)
  ByteRange old_text; // its lines, without the break after the last one
  ByteRange new_text;
  ByteRange replace_marker; // the `=======` line
  uint32_t line = 0;        // the SEARCH marker's line, counted from the diff's first line
};

struct DiffProblem {
  ByteRange at; // the marker line at fault (or the diff's first byte)
  std::string message, hint;
  uint32_t line = 0; // the line of `at`, counted from the diff's first line
};

struct ParsedDiff {
  std::vector<DiffBlock> blocks;
  std::vector<DiffProblem> problems;
};

// Reads a diff one line at a time: parse_diff over a whole diff, and the XML parser while a
// `<diff>`'s lines arrive (its open block's text so far is what the stream reports).
class DiffReader {
public:
  // The diff's next line: its text without the line break, `here` its range (absolute offsets)
  // and `next` the first byte after its break.
  void line(std::string_view line, ByteRange here, size_t next);
  // The diff ends at `range.end` (`range`: the whole diff).
  ParsedDiff finish(ByteRange range);

  // The SEARCH or REPLACE text of the block being read, once it has a line: the lines that are
  // its text for sure. A marker line inside it is held back (it is text only when a text line
  // follows it), and so is the break after its last line (the text ends without it).
  struct Open {
    uint32_t block = 0;       // its block's index among the diff's blocks
    uint32_t marker_line = 0; // its SEARCH marker's line, counted from the diff's first line
    bool replace = false;     // the REPLACE text (else the SEARCH text)
    ByteRange lines;          // from its first line's start to its last line's end
  };
  std::optional<Open> open() const;

private:
  static constexpr size_t npos = std::string_view::npos;
  enum class Part : uint8_t { outside, search_head, search, replace };
  // Keeps the block being read, unfinished at `at`, with the text it has.
  void cut(size_t at);
  // A line of the open section (its range).
  void add_section_line(ByteRange here);

  ParsedDiff out_;
  Part part_ = Part::outside;
  DiffBlock cur_;
  // The lines of the open section: its first line's start (npos: none yet), its last line's
  // end, and where it is empty when it has no line.
  size_t first_ = npos, last_end_ = 0, section_at_ = 0;
  // The end of the section's lines that are its text for sure (npos: none yet): a blank last
  // line is held back (see add_section_line).
  size_t sure_end_ = npos;
  uint32_t lines_ = 0, marker_line_ = 0;
};

// Splits the diff text `text[range]` (absolute offsets into `text`) into its blocks.
ParsedDiff parse_diff(std::string_view text, ByteRange range);

// True when `line` (without its break) is one of the diff's marker lines (a value written into
// a diff must not hold one).
bool is_diff_marker(std::string_view line);

} // namespace blockls::xml
