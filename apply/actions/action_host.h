// The simulation of one planned action, as its runner (apply/actions/<action>.cpp) sees it:
// the parameters, the path checks, the files as the earlier actions of the document left them,
// and what the action reports (workspace diagnostics, the result's error and data) and does
// (file effects). apply/simulate.cpp makes one per planned action and calls run().
#pragma once

#include "apply/path_memo.h"
#include "apply/path_policy.h"
#include "apply/plan.h"
#include "apply/simulate.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

// Why a path that is there is no file an action can use, after its quoted path: a directory,
// a file larger than blockls reads, or anything else (a symbolic link, a pipe, a socket, a
// device, a file that cannot be opened).
// `max_file_bytes`: the limit the file was read under (ApplyConfig::max_file_bytes).
std::string not_a_file_text(const FileState& s, uint64_t max_file_bytes);
// Its code: FILE_TOO_LARGE for a file past the size limit, else NOT_A_FILE.
inline std::string_view not_a_file_code(const FileState& s) {
  return s.too_large ? "FILE_TOO_LARGE" : "NOT_A_FILE";
}
// Its hint: how to lift the size limit for a file past it, else `otherwise`.
std::string_view not_a_file_hint(const FileState& s, std::string_view otherwise);

class ActionHost {
public:
  // `files`: the state the action reads and changes; `diags`: where its workspace diagnostics
  // go; `out`: its outcome; `memo`: null to resolve every path every time.
  ActionHost(const SimulationInput& in, const PlannedAction& action, Overlay* files,
             std::vector<Diagnostic>* diags, ActionOutcome* out, PathMemo* memo)
      : in_(in), a_(action), files_(files), diags_(diags), out_(out), memo_(memo) {}

  // Runs the action's runner (apply/actions/runners.h); an action without one fails with
  // UNSUPPORTED_ACTION. A failed action keeps no effects.
  void run();

  // --- The action and its document.
  const PlannedAction& planned() const { return a_; }
  const SimulationInput& input() const { return in_; }
  const ApplyConfig& config() const { return *in_.config; }
  // The size past which a file is not read (FILE_TOO_LARGE), for messages.
  uint64_t max_file_bytes() const { return in_.config->max_file_bytes; }

  // --- Parameters.
  // The parameter's value ("" when absent) and the path as shown in results (trimmed).
  std::string value(std::string_view param) const;
  std::string shown_path(std::string_view param) const;
  // Where bytes [begin, end) of the parameter's value are in the transcript, when the value is
  // written there verbatim (a heredoc or TELT body; not a JSON-escaped string).
  std::optional<ByteRange> value_range(std::string_view param, size_t begin, size_t end) const;
  // The edit that writes `value` as parameter `param` in the transcript. The block's dialect
  // encodes it so that its parser reads it back (a quoted string escaped, a heredoc body
  // without its own delimiter, ...), or declines.
  std::optional<TextEdit> encoded_edit(std::string_view param, std::string_view value) const;
  // What the messages call the text the edit searches for, in the words of its dialect.
  std::string_view search_word() const;

  // --- Paths.
  // The absolute path of a path parameter; reports and fails the action when it may not be used.
  std::optional<std::string> resolve_param_path(std::string_view param);
  // The same for one path of a list (`value` is that path, `range` where it is written).
  std::optional<std::string> resolve_listed_path(std::string_view param, std::string_view value,
                                                 std::optional<ByteRange> range);
  // Parents of a path to write: none may be a file (else reported on `param`, and false);
  // missing ones are created by the write.
  bool parents_writable(std::string_view param, const std::string& path);

  // --- The files as the earlier actions left them.
  // What is at `path` (nothing reported).
  FileState read_path(const std::string& path) { return files_->read(path); }
  // Every entry strictly below `dir`, recursively, sorted.
  std::vector<std::string> list_tree(const std::string& dir) { return files_->list_tree(dir); }
  // The file at `path` when it is a regular file; reports FILE_NOT_FOUND or NOT_A_FILE on
  // `param` and fails the action otherwise.
  std::optional<FileState> existing_file(std::string_view param, const std::string& path);
  // The same check of a state already read; `what` names the file in the message ("file",
  // "source file").
  bool require_file(std::string_view param, const FileState& s, std::string_view what);
  // Every action that changes, replaces, moves or removes a file asks this of each file it
  // would touch, before its other checks: a read-only file (is_read_only) is reported as
  // FILE_READ_ONLY on `param` (or `range` of it), naming it as `shown`, and fails the action.
  bool require_writable(std::string_view param, const FileState& s, std::string_view shown,
                        std::optional<ByteRange> range = std::nullopt);
  // existing_file() and require_writable() in one, for the actions that edit or delete `path`.
  std::optional<FileState> writable_file(std::string_view param, const std::string& path);

  // --- Reports.
  // A workspace diagnostic on parameter `param` ("" = the command), or on `range` of the
  // transcript; returned so that the caller can add fixes.
  Diagnostic& diag(std::string_view code, std::string_view param, std::string message,
                   std::string hint, std::optional<ByteRange> range = std::nullopt);
  // Fails the action with `code` and the result error `message` (the first failure stays).
  void fail(std::string_view code, std::string message);
  // diag() and fail() in one: the diagnostic says `message`, the result error `error`.
  void report(std::string_view code, std::string_view param, std::string message, std::string hint,
              std::string error, std::optional<ByteRange> range = std::nullopt);
  // Adds a fix of the transcript to the diagnostic reported last.
  void add_fix(Fix fix);
  // The closest region of the file to `needle` as the hint of `d`, and as a fix that rewrites
  // parameter `param` with that region's text.
  void offer_closest(Diagnostic& d, std::string_view param, const FileContent& content,
                     std::string_view needle);

  // --- Effects and the result.
  // Writes the file (creating its missing parents); a replaced file keeps its mode.
  void write_file(const std::string& path, const FileState& before, FileContent after);
  // Removes the file at `path` (`before`: what is there).
  void remove_file(const std::string& path, const FileState& before);
  // An effect the runner built itself (move, directories, exec); its state changes are the
  // runner's to make with set_state() and create_parents().
  void add_effect(FileEffect effect) { out_->effects.edit().push_back(std::move(effect)); }
  void set_state(const std::string& path, FileState state) { files_->set(path, std::move(state)); }
  // Makes the missing parent directories of `path` exist in the state.
  void create_parents(const std::string& path);
  // The result's `data` (kept on failure too: clada returns partial reads).
  void set_data(nlohmann::json data) { out_->data = std::move(data); }
  nlohmann::json& data() { return out_->data.edit(); }

private:
  std::optional<std::string> path_of(std::string_view param, std::string_view value,
                                     std::optional<ByteRange> range = std::nullopt);
  ResolvedPath resolve(std::string_view value);

  const SimulationInput& in_;
  const PlannedAction& a_;
  Overlay* files_;
  std::vector<Diagnostic>* diags_;
  ActionOutcome* out_;
  PathMemo* memo_; // null: resolve every time
};

} // namespace blockls::apply
