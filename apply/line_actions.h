// The line-number actions of clada's unified-design.yaml: file_read_numbered and
// file_replace_lines (slupe: read_file_numbered, replace_lines_in_file). Their `lines`
// parameter is "4" or "23-43" (1-based, inclusive). The runners see the files through the
// simulation (apply/simulate.cpp dispatches to run_line_action) and follow clada's results:
// data {path, content} and {path, lines_replaced}, and its error messages.
#pragma once

#include "apply/plan.h"
#include "apply/simulate.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

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

// What a runner outside simulate.cpp may ask of the simulation of one action.
class ActionHost {
public:
  virtual ~ActionHost() = default;
  virtual const PlannedAction& planned() const = 0;
  // The parameter's value ("" when absent) and the path as shown in results (trimmed).
  virtual std::string value(std::string_view param) const = 0;
  virtual std::string shown_path(std::string_view param) const = 0;
  // The absolute path of a path parameter; reports and fails the action when it may not be used.
  virtual std::optional<std::string> resolve_param_path(std::string_view param) = 0;
  // The file at `path` as the earlier actions left it, when it is a regular file; reports
  // FILE_NOT_FOUND or NOT_A_FILE on `param` and fails the action otherwise.
  virtual std::optional<FileState> existing_file(std::string_view param,
                                                 const std::string& path) = 0;
  // Reports a workspace diagnostic (`message`, `hint`) on `param` and fails the action with
  // `code` and the result error `error`.
  virtual void report(std::string_view code, std::string_view param, std::string message,
                      std::string hint, std::string error) = 0;
  // Replaces the file's content (an effect of the action).
  virtual void write_file(const std::string& path, const FileState& before, std::string after) = 0;
  // The result's `data` (kept on failure too: clada returns partial reads).
  virtual void set_data(nlohmann::json data) = 0;
};

// Runs host.planned() when it is a line-number action; false (nothing done) for other actions.
bool run_line_action(ActionHost& host);

} // namespace blockls::apply
