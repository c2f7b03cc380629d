// The line-number actions of clada's unified-design.yaml: file_read_numbered and
// file_replace_lines (slupe: read_file_numbered, replace_lines_in_file). Their `lines`
// parameter is "4" or "23-43" (1-based, inclusive). The runners see the files through the
// simulation (apply/simulate.cpp dispatches to run_line_action) and follow clada's results:
// data {path, content} and {path, lines_replaced}, and its error messages.
#pragma once

#include "apply/action_host.h"

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

// Runs host.planned() when it is a line-number action; false (nothing done) for other actions.
bool run_line_action(ActionHost& host);

} // namespace blockls::apply
