// The seam between the simulation of one action (apply/simulate.cpp's ActionRunner) and the
// runners that live in their own files (apply/line_actions.cpp, apply/multi_file_actions.cpp):
// parameters, path checks, the files as earlier actions left them, diagnostics and effects.
#pragma once

#include "apply/plan.h"
#include "apply/simulate.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::apply {

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
  // The same for one path of a list (`value` is that path, `range` where it is written).
  virtual std::optional<std::string> resolve_listed_path(std::string_view param,
                                                         std::string_view value,
                                                         std::optional<ByteRange> range) = 0;
  // Where bytes [begin, end) of the parameter's value are in the transcript, when the value is
  // written there verbatim (a heredoc or TELT body; not a JSON-escaped string).
  virtual std::optional<ByteRange> value_range(std::string_view param, size_t begin,
                                               size_t end) const = 0;
  // The file at `path` as the earlier actions left it, when it is a regular file; reports
  // FILE_NOT_FOUND or NOT_A_FILE on `param` and fails the action otherwise.
  virtual std::optional<FileState> existing_file(std::string_view param,
                                                 const std::string& path) = 0;
  // What is at `path` as the earlier actions left it (nothing reported).
  virtual FileState read_path(const std::string& path) = 0;
  // Reports a workspace diagnostic (`message`, `hint`) on `param` (or on `range` of the
  // transcript) and fails the action with `code` and the result error `error`.
  virtual void report(std::string_view code, std::string_view param, std::string message,
                      std::string hint, std::string error,
                      std::optional<ByteRange> range = std::nullopt) = 0;
  // Replaces the file's content (an effect of the action).
  virtual void write_file(const std::string& path, const FileState& before, std::string after) = 0;
  // Removes the file at `path` (`before`: what is there), an effect of the action.
  virtual void remove_file(const std::string& path, const FileState& before) = 0;
  // The result's `data` (kept on failure too: clada returns partial reads).
  virtual void set_data(nlohmann::json data) = 0;
  // Adds a fix of the transcript to the diagnostic report() made last.
  virtual void add_fix(Fix fix) = 0;
};

} // namespace blockls::apply
