// The lines of the line-number actions of clada's unified-design.yaml: file_read_numbered and
// file_replace_lines (slupe: read_file_numbered, replace_lines_in_file). Their `lines`
// parameter is "4" or "23-43" (1-based, inclusive). The runners are
// apply/actions/file_read_numbered.cpp and file_replace_lines.cpp; they follow clada's
// results (data {path, content} and {path, lines_replaced}) and its error messages.
#pragma once

#include "apply/actions/action_host.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockls::apply {

struct LineRange {
  size_t first = 0, last = 0; // 1-based, first <= last
};

// A `lines` value parsed, or why it is not one (errors as values).
struct LineSpec {
  std::optional<LineRange> range;
  std::string error; // clada's words: "Invalid line specification '0'", "Invalid line range ..."
};

// Parses "N" or "A-B" (surrounding whitespace ignored; numbers from 1, A <= B).
LineSpec parse_line_spec(std::string_view spec);

// The lines of a file: a final line break does not start another line, so "" has none and
// "a\nb\n" has two. Offsets are bytes: begin of the line, end of its text (before "\r\n"/"\n").
struct FileLines {
  std::vector<std::pair<size_t, size_t>> lines;
};
FileLines split_lines(std::string_view content);

// What the two runners share.
// `s` without the blanks and line breaks around it.
std::string_view trim_spaces(std::string_view s);
// "1 line", "4 lines".
std::string plural_lines(size_t n);
// "line 4 is" / "lines 23-43 are": what was asked for, as a diagnostic's subject.
std::string lines_asked(std::string_view spec);
// The `lines` parameter parsed, or the action failed with INVALID_LINE_RANGE.
std::optional<LineRange> lines_param_range(ActionHost& host, std::string_view spec_text);

} // namespace blockls::apply
