// The simulation of every catalog action over an overlay. Messages follow clada's wording
// where it is clear (`file_replace_text: old_text not found in file`) and add what clada
// leaves out (the lines of ambiguous matches, the closest region as a fix).
#include "apply/simulate.h"

#include "apply/line_actions.h"
#include "apply/multi_file_actions.h"
#include "apply/patch_action.h"
#include "apply/path_policy.h"
#include "apply/search_repair.h"
#include "apply/text_match.h"
#include "diagnostics/codes.h"
#include "grammar/dialects.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace blockls::apply {
namespace {

using Kind = FileState::Kind;

// Records what a block reads of the state before it (the first read of each key: a block's
// own writes are in the overlay above this source). Contents are shared, not hashed: an apply
// compares them only for the blocks it runs.
class RecordingSource final : public FileSource {
public:
  RecordingSource(const FileSource& inner, std::map<std::string, Observation>* seen)
      : inner_(&inner), seen_(seen) {}
  FileState read(const std::string& path) const override {
    FileState s = inner_->read(path);
    seen_->try_emplace(path, Observation{s, {}});
    return s;
  }
  std::vector<std::string> list_tree(const std::string& dir) const override {
    std::vector<std::string> entries = inner_->list_tree(dir);
    seen_->try_emplace("tree:" + dir, Observation{{}, entries});
    return entries;
  }

private:
  const FileSource* inner_;
  std::map<std::string, Observation>* seen_;
};

// The check of a whole plan writes nothing, so a path resolves the same way every time it is
// asked: simulate_plan remembers the answers (without it, every edit of a file lstat()s every
// component of its path again). Not used when blocks run on disk one after the other.
using PathMemo = std::unordered_map<std::string, ResolvedPath>;

// The files under the state of a plan, each read once for the same reason (simulate_plan).
class MemoSource final : public FileSource {
public:
  explicit MemoSource(const FileSource& inner) : inner_(&inner) {}
  FileState read(const std::string& path) const override {
    auto it = reads_.find(path);
    if (it == reads_.end()) it = reads_.emplace(path, inner_->read(path)).first;
    return it->second;
  }
  std::vector<std::string> list_tree(const std::string& dir) const override {
    return inner_->list_tree(dir);
  }

private:
  const FileSource* inner_;
  mutable std::unordered_map<std::string, FileState> reads_;
};

class ActionRunner final : public ActionHost {
public:
  ActionRunner(const SimulationInput& in, const PlannedAction& a, Overlay* files,
               std::vector<Diagnostic>* diags, ActionOutcome* out, PathMemo* memo)
      : in_(in), a_(a), files_(files), diags_(diags), out_(out), memo_(memo) {}

  void run();

  // ActionHost (apply/action_host.h): what the runners of other files may use.
  const PlannedAction& planned() const override { return a_; }
  std::string value(std::string_view param) const override { return raw(param); }
  std::string shown_path(std::string_view param) const override { return shown(param); }
  std::optional<std::string> resolve_param_path(std::string_view param) override {
    return path_of(param, raw(param));
  }
  std::optional<std::string> resolve_listed_path(std::string_view param, std::string_view value,
                                                 std::optional<ByteRange> range) override {
    return path_of(param, value, range);
  }
  std::optional<ByteRange> value_range(std::string_view param, size_t begin,
                                       size_t end) const override {
    const auto src = a_.sources.find(std::string(param));
    if (src == a_.sources.end() || !src->second.param || !src->second.param->value_is_slice)
      return std::nullopt;
    return ByteRange{src->second.value_range.begin + begin, src->second.value_range.begin + end};
  }
  FileState read_path(const std::string& path) override { return files_->read(path); }
  std::optional<FileState> existing_file(std::string_view param, const std::string& path) override {
    FileState s = files_->read(path);
    if (!require_file(param, path, s, "file")) return std::nullopt;
    return s;
  }
  void report(std::string_view code, std::string_view param, std::string message, std::string hint,
              std::string error, std::optional<ByteRange> range) override {
    diag(code, param, std::move(message), std::move(hint), range);
    fail(code, std::move(error));
  }
  void write_file(const std::string& path, const FileState& before, std::string after) override {
    write_effect(path, before, FileContent(after));
  }
  void remove_file(const std::string& path, const FileState& before) override {
    FileEffect e;
    e.kind = FileEffect::Kind::remove;
    e.seq = a_.seq;
    e.path = path;
    e.before = before.content;
    e.mode = before.mode;
    out_->effects.push_back(std::move(e));
    files_->set(path, {});
  }
  void set_data(nlohmann::json data) override { out_->data = std::move(data); }
  void add_fix(Fix fix) override {
    if (!diags_->empty()) diags_->back().fixes.push_back(std::move(fix));
  }

private:
  // A workspace diagnostic on parameter `param` ("" = the command).
  Diagnostic& diag(std::string_view code, std::string_view param, std::string message,
                   std::string hint, std::optional<ByteRange> range = std::nullopt) {
    Diagnostic d;
    const CodeInfo* info = find_code(code);
    d.code = info ? info->name : std::string_view("IO_ERROR");
    d.severity = info ? info->severity : Severity::command_error;
    d.dialect = a_.dialect;
    d.block = a_.block;
    const auto src = a_.sources.find(std::string(param));
    if (range)
      d.range = *range;
    else if (src != a_.sources.end())
      d.range = src->second.value_range;
    else
      d.range = a_.name_range;
    const LineIndex& lines = in_.checked->parsed.lines;
    d.line = d.range.size() > 0 || d.range.begin > 0 ? lines.line_of(d.range.begin) : a_.line;
    if (d.range.size() == 0 && d.line < lines.line_count())
      d.range = {lines.line_start(d.line), lines.line_end(in_.text, d.line)};
    d.message = std::move(message);
    d.fix_hint = std::move(hint);
    diags_->push_back(std::move(d));
    return diags_->back();
  }

  void fail(std::string_view code, std::string message) {
    if (!out_->success && !out_->code.empty()) return; // keep the first failure
    out_->success = false;
    out_->code = std::string(code);
    out_->error = std::move(message);
  }

  std::string raw(std::string_view name) const {
    const std::string* v = a_.param(name);
    return v ? *v : std::string();
  }
  std::string shown(std::string_view name) const { return std::string(trim_path(raw(name))); }

  // Resolves a path parameter; reports and fails when it may not be used.
  std::optional<std::string> path_of(std::string_view param, std::string_view value,
                                     std::optional<ByteRange> range = std::nullopt) {
    const ResolvedPath r = resolve(value);
    switch (r.verdict) {
    case PathVerdict::ok:
      return r.absolute;
    case PathVerdict::empty:
      diag("EMPTY_PATH", param, fmt::format("{}: {} is empty", a_.action, param),
           "Give the path of a file inside the root", range);
      fail("EMPTY_PATH", fmt::format("{}: {} is empty", a_.action, param));
      return std::nullopt;
    case PathVerdict::invalid:
      diag("INVALID_PATH", param, r.reason,
           "Write the path with printable characters in valid UTF-8", range);
      fail("INVALID_PATH", fmt::format("{}: {}", a_.action, r.reason));
      return std::nullopt;
    case PathVerdict::outside_root:
      diag("PATH_OUTSIDE_ROOT", param, r.reason,
           "Use a path inside the root, or allow its directory with --allow-root", range);
      fail("PATH_OUTSIDE_ROOT", fmt::format("{}: {}", a_.action, r.reason));
      return std::nullopt;
    case PathVerdict::denied:
      diag("PATH_DENIED", param, r.reason, "The path is protected; choose another one", range);
      fail("PATH_DENIED", fmt::format("{}: {}", a_.action, r.reason));
      return std::nullopt;
    }
    return std::nullopt;
  }

  ResolvedPath resolve(std::string_view value) {
    if (!memo_) return resolve_path(*in_.config, value);
    auto it = memo_->find(std::string(value));
    if (it == memo_->end())
      it = memo_->emplace(std::string(value), resolve_path(*in_.config, value)).first;
    return it->second;
  }

  // A file that must exist (delete, move source, read, replace).
  bool require_file(std::string_view param, const std::string& path, const FileState& s,
                    std::string_view what) {
    if (s.kind == Kind::file) return true;
    if (s.kind == Kind::missing) {
      const std::string msg = fmt::format("{}: {} not found '{}'", a_.action, what, shown(param));
      diag("FILE_NOT_FOUND", param, msg + " (nor created by an earlier action)",
           "Check the path; earlier actions of this transcript are taken into account");
      fail("FILE_NOT_FOUND", msg);
    } else {
      const std::string msg =
          fmt::format("{}: '{}' is a directory, not a file", a_.action, shown(param));
      diag("NOT_A_FILE", param, msg, "Name a file");
      fail("NOT_A_FILE", msg);
    }
    (void)path;
    return false;
  }

  // Parents of a path to write: none may be a file; missing ones are created.
  bool parents_writable(std::string_view param, const std::string& path) {
    for (std::string dir = parent_of(path); dir != "/"; dir = parent_of(dir)) {
      const FileState s = files_->read(dir);
      if (s.kind == Kind::directory) return true;
      if (s.kind != Kind::missing) {
        const std::string msg =
            fmt::format("{}: '{}' cannot be created: {} is a file", a_.action, shown(param), dir);
        diag("NOT_A_FILE", param, msg, "A parent of the path is a file");
        fail("NOT_A_FILE", msg);
        return false;
      }
    }
    return true;
  }

  void create_parents(const std::string& path) {
    std::vector<std::string> missing;
    for (std::string dir = parent_of(path); dir != "/"; dir = parent_of(dir)) {
      if (files_->read(dir).kind == Kind::directory) break;
      missing.push_back(dir);
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it)
      files_->set(*it, {Kind::directory, {}, 0});
  }

  void write_effect(const std::string& path, const FileState& before, FileContent after) {
    FileEffect e;
    e.kind = FileEffect::Kind::write;
    e.seq = a_.seq;
    e.path = path;
    if (before.kind == Kind::file) e.before = before.content;
    e.mode = before.kind == Kind::file ? before.mode : 0;
    e.after = after;
    out_->effects.push_back(std::move(e));
    create_parents(path);
    files_->set(path, {Kind::file, std::move(after), before.kind == Kind::file ? before.mode : 0});
  }

  // The closest region of the file as a fix that rewrites the old text in the transcript.
  void offer_closest(Diagnostic& d, std::string_view param, const FileContent& content,
                     std::string_view needle) {
    const std::optional<ClosestRegion> region = closest_region(content.str(), needle);
    if (!region) return;
    d.fix_hint = fmt::format("The closest text is at lines {}-{} of the file ({})",
                             region->first_line, region->last_line, region->how);
    std::optional<TextEdit> edit = encoded_edit(param, region->text);
    if (!edit) return;
    d.fixes.push_back({fmt::format("Use the text of lines {}-{} of the file ({})",
                                   region->first_line, region->last_line, region->how),
                       true,
                       {std::move(*edit)}});
  }

  // What the messages call the text the edit searches for, in the words of its dialect.
  std::string_view search_word() const {
    const std::optional<FileEditWords> words = file_edit_words(a_.dialect);
    return words ? words->search : std::string_view("old_text");
  }

  // The edit that writes `value` as parameter `param` in the transcript. The block's dialect
  // encodes it so that its parser reads it back (a quoted string escaped, a heredoc body
  // without its own delimiter, ...), or declines.
  std::optional<TextEdit> encoded_edit(std::string_view param, std::string_view value) const {
    const auto src = a_.sources.find(std::string(param));
    if (src == a_.sources.end() || !src->second.param) return std::nullopt;
    const Parameter& p = *src->second.param;
    const Block& block = in_.checked->parsed.blocks[static_cast<size_t>(a_.block)];
    std::optional<std::string> encoded = encode_value(in_.text, block, p, value);
    if (!encoded) return std::nullopt;
    return TextEdit{p.value_range, std::move(*encoded)};
  }

  bool apply_repaired(const std::string& path, const FileState& before,
                      const std::string& old_text);
  bool report_overlap(const std::string& path, const FileState& before,
                      const std::string& old_text);

  void run_write(bool append);
  void run_replace(bool all);
  void run_replace_range();
  void run_delete();
  void run_move();
  void run_read();
  void run_read_many();
  void run_dir_create();
  void run_dir_delete();
  void run_exec();

  const SimulationInput& in_;
  const PlannedAction& a_;
  Overlay* files_;
  std::vector<Diagnostic>* diags_;
  ActionOutcome* out_;
  PathMemo* memo_; // null: resolve every time
};

void ActionRunner::run() {
  out_->action = &a_;
  out_->success = true;
  const std::string& name = a_.action;
  if (name == "file_write")
    run_write(false);
  else if (name == "file_append")
    run_write(true);
  else if (name == "file_replace_text")
    run_replace(false);
  else if (name == "file_replace_all_text")
    run_replace(true);
  else if (name == "file_replace_text_range")
    run_replace_range();
  else if (name == "file_delete")
    run_delete();
  else if (name == "file_move")
    run_move();
  else if (name == "file_read")
    run_read();
  else if (name == "files_read")
    run_read_many();
  else if (name == "dir_create")
    run_dir_create();
  else if (name == "dir_delete")
    run_dir_delete();
  else if (name == "exec")
    run_exec();
  else if (run_line_action(*this) || run_multi_file_action(*this) || run_patch_action(*this)) {
  } else
    fail("UNSUPPORTED_ACTION", fmt::format("{}: blockls cannot run this action", name));
  if (!out_->success) out_->effects.clear();
}

void ActionRunner::run_write(bool append) {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  const FileState before = files_->read(*path);
  if (before.kind == Kind::directory || before.kind == Kind::other) {
    const std::string msg =
        fmt::format("{}: '{}' is a directory, not a file", a_.action, shown("path"));
    diag("NOT_A_FILE", "path", msg, "Name a file");
    return fail("NOT_A_FILE", msg);
  }
  if (!parents_writable("path", *path)) return;
  std::string text = raw("content");
  // A replaced file keeps its line endings.
  if (before.kind == Kind::file && uses_crlf(before.content)) text = to_crlf(text);
  const size_t bytes = text.size();
  write_effect(*path, before,
               append && before.kind == Kind::file
                   ? before.content.splice(before.content.size(), before.content.size(), text)
                   : FileContent(text));
  out_->data = {{"path", shown("path")}, {"bytesWritten", bytes}};
}

void ActionRunner::run_replace(bool all) {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  const FileState before = files_->read(*path);
  if (!require_file("path", *path, before, "file")) return;
  const std::string old_text = raw("old_text");
  if (old_text.empty()) {
    const std::string msg = fmt::format("{}: old_text cannot be empty", a_.action);
    diag("EMPTY_SEARCH", "old_text", msg, "Give the exact text to replace");
    return fail("EMPTY_SEARCH", msg);
  }
  const Occurrences occ = find_occurrences(before.content, old_text);
  const size_t found = occ.offsets.size();
  std::optional<long long> count;
  if (const std::string* c = a_.param("count")) count = std::stoll(std::string(trim_path(*c)));
  if (all && count && static_cast<long long>(found) != *count) {
    const std::string msg =
        fmt::format("{}: expected {} occurrences but found {}", a_.action, *count, found);
    std::string lines;
    if (found > 0)
      lines = fmt::format(" (at lines {})",
                          fmt::join(line_numbers(before.content.str(), occ.offsets), ", "));
    diag("COUNT_MISMATCH", "count", msg + lines,
         found > 0 ? fmt::format("Set count to {}", found) : "old_text does not occur in the file");
    if (found > 0) {
      const auto src = a_.sources.find("count");
      if (src != a_.sources.end() && src->second.param && src->second.param->value_is_slice &&
          trim_path(slice(in_.text, src->second.value_range)) == trim_path(*a_.param("count"))) {
        // TELT: the value lines are the number itself.
        diags_->back().fixes.push_back({fmt::format("Set count to {}", found),
                                        true,
                                        {{src->second.value_range, std::to_string(found)}}});
      } else if (src != a_.sources.end() && src->second.param) {
        const std::string_view token = slice(in_.text, src->second.value_range);
        if (token.size() >= 2 && token.front() == '"')
          diags_->back().fixes.push_back(
              {fmt::format("Set count to {}", found),
               true,
               {{src->second.value_range, fmt::format("\"{}\"", found)}}});
      }
    }
    return fail("COUNT_MISMATCH", msg);
  }
  if (found == 0 && !all) {
    if (repairs_search(a_.dialect) && apply_repaired(*path, before, old_text)) return;
    if (report_overlap(*path, before, old_text)) return;
    const std::string msg = fmt::format("{}: old_text not found in file", a_.action);
    Diagnostic& d = diag("SEARCH_NOT_FOUND", "old_text",
                         fmt::format("{} not found in {}", search_word(), shown("path")),
                         "The old text must match the file exactly (line endings aside)");
    offer_closest(d, "old_text", before.content, old_text);
    // Aider's most useful hint: an edit that was already applied (or pasted twice).
    const std::string new_text = raw("new_text");
    if (!new_text.empty() && !find_occurrences(before.content, new_text).offsets.empty())
      diag("REPLACE_ALREADY_PRESENT", "new_text",
           fmt::format("The new text is already in {}: the edit may have been applied already",
                       shown("path")),
           "Remove the edit if it is done, or make the old text match the file");
    return fail("SEARCH_NOT_FOUND", msg);
  }
  if (found > 1 && !all) {
    const std::string lines =
        fmt::format("{}", fmt::join(line_numbers(before.content.str(), occ.offsets), ", "));
    diag("SEARCH_AMBIGUOUS", "old_text",
         fmt::format("{} appears {} times in {}, at lines {}; it must appear exactly once",
                     search_word(), found, shown("path"), lines),
         "Add surrounding lines to the old text so that it matches once, or use "
         "file_replace_all_text");
    return fail("SEARCH_AMBIGUOUS",
                fmt::format("{}: old_text appears {} times, must appear exactly once (lines {})",
                            a_.action, found, lines));
  }
  std::string new_text = raw("new_text");
  if (occ.crlf_converted || uses_crlf(before.content)) new_text = to_crlf(new_text);
  if (found == 1) {
    const size_t off = occ.offsets[0];
    write_effect(*path, before, before.content.splice(off, off + occ.length, new_text));
  } else if (found > 1) { // replace_all: one pass over the text
    const std::string& content = before.content.str();
    std::string after;
    size_t pos = 0;
    for (size_t off : occ.offsets) {
      after.append(content, pos, off - pos);
      after += new_text;
      pos = off + occ.length;
    }
    after.append(content, pos, std::string::npos);
    write_effect(*path, before, FileContent(after));
  }
  out_->data = {{"path", shown("path")}, {"replacements", found}};
}

// Aider's repairs (apply/search_repair.h): the edit applies to the one region its SEARCH text
// matches re-indented or without a leading blank line, with a warning whose fix writes the
// exact text (and the REPLACE text indented alike) into the transcript.
bool ActionRunner::apply_repaired(const std::string& path, const FileState& before,
                                  const std::string& old_text) {
  const std::string new_text = raw("new_text");
  std::optional<RepairedSearch> r = repair_search(before.content.str(), old_text, new_text);
  if (!r) return false;
  Diagnostic& d = diag("SEARCH_NOT_EXACT", "old_text",
                       fmt::format("old_text matches lines {}-{} of {} only {}", r->first_line,
                                   r->last_line, shown("path"), r->how),
                       "Write the file's exact text in the edit");
  std::vector<TextEdit> edits;
  if (std::optional<TextEdit> e = encoded_edit("old_text", r->old_text)) edits.push_back(*e);
  if (!edits.empty() && r->new_text != new_text) {
    // Both texts or neither: a SEARCH fixed without its REPLACE would change the indentation.
    if (std::optional<TextEdit> e = encoded_edit("new_text", r->new_text))
      edits.push_back(*e);
    else
      edits.clear();
  }
  if (!edits.empty())
    d.fixes.push_back(
        {fmt::format("Use the exact text of lines {}-{}", r->first_line, r->last_line), true,
         std::move(edits)});
  const std::string replacement = uses_crlf(before.content) ? to_crlf(r->new_text) : r->new_text;
  write_effect(path, before, before.content.splice(r->begin, r->end, replacement));
  out_->data = {{"path", shown("path")}, {"replacements", 1}};
  return true;
}

// An old text that is in the file as the plan found it, but not after the earlier actions of
// this transcript: one of them changed those lines first. Said plainly instead of a puzzling
// SEARCH_NOT_FOUND for a text the reviewer can see in the file.
bool ActionRunner::report_overlap(const std::string& path, const FileState& before,
                                  const std::string& old_text) {
  if (!in_.original) return false;
  const FileState disk = in_.original->read(path);
  if (disk.kind != Kind::file) return false;
  const Occurrences occ = find_occurrences(disk.content, old_text);
  if (occ.offsets.empty()) return false;
  const PlannedAction* earlier = nullptr;
  for (const PlannedAction& other : in_.plan->actions) {
    if (other.seq >= a_.seq) break;
    const std::string* p = other.param("path");
    if (!p) continue;
    const ResolvedPath r = resolve_path(*in_.config, *p);
    if (r.verdict == PathVerdict::ok && r.absolute == path) earlier = &other;
  }
  if (!earlier) return false;
  const uint32_t disk_line = line_numbers(disk.content.str(), occ.offsets).front();
  const uint32_t earlier_line = earlier->line + 1;
  const std::string msg =
      fmt::format("old_text is in {} on disk (line {}), but the edit at line {} of this "
                  "transcript changes it first: the two edits overlap",
                  shown("path"), disk_line, earlier_line);
  Diagnostic& d = diag("EDIT_OVERLAP", "old_text", msg,
                       "Merge the two edits, or write this edit's old text as the file reads "
                       "after the earlier edit");
  offer_closest(d, "old_text", before.content, old_text);
  fail("EDIT_OVERLAP", fmt::format("{}: {}", a_.action, msg));
  return true;
}

void ActionRunner::run_replace_range() {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  const FileState before = files_->read(*path);
  if (!require_file("path", *path, before, "file")) return;
  const std::string begin_text = raw("old_text_beginning"), end_text = raw("old_text_end");
  for (const auto& [name, value] :
       {std::pair{"old_text_beginning", &begin_text}, std::pair{"old_text_end", &end_text}}) {
    if (!value->empty()) continue;
    const std::string msg = fmt::format("{}: {} cannot be empty", a_.action, name);
    diag("EMPTY_SEARCH", name, msg, "Give the exact text that starts / ends the range");
    return fail("EMPTY_SEARCH", msg);
  }
  const Occurrences start = find_occurrences(before.content, begin_text);
  if (start.offsets.empty()) {
    Diagnostic& d = diag("SEARCH_NOT_FOUND", "old_text_beginning",
                         fmt::format("old_text_beginning not found in {}", shown("path")),
                         "The marker must match the file exactly (line endings aside)");
    offer_closest(d, "old_text_beginning", before.content, begin_text);
    return fail("SEARCH_NOT_FOUND",
                fmt::format("{}: old_text_beginning not found in file", a_.action));
  }
  if (start.offsets.size() > 1) {
    const std::string lines =
        fmt::format("{}", fmt::join(line_numbers(before.content.str(), start.offsets), ", "));
    diag(
        "SEARCH_AMBIGUOUS", "old_text_beginning",
        fmt::format("old_text_beginning appears {} times, at lines {}; it must appear exactly once",
                    start.offsets.size(), lines),
        "Make the start marker longer so that it matches once");
    return fail(
        "SEARCH_AMBIGUOUS",
        fmt::format("{}: old_text_beginning appears {} times, must appear exactly once (lines {})",
                    a_.action, start.offsets.size(), lines));
  }
  const size_t after_start = start.offsets[0] + start.length;
  const Occurrences stop = find_occurrences(before.content, end_text, after_start);
  if (stop.offsets.empty()) {
    diag("SEARCH_NOT_FOUND", "old_text_end",
         fmt::format("old_text_end not found after old_text_beginning in {}", shown("path")),
         "The end marker must follow the start marker in the file");
    return fail("SEARCH_NOT_FOUND",
                fmt::format("{}: old_text_end not found after old_text_beginning", a_.action));
  }
  if (stop.offsets.size() > 1) {
    const std::string lines =
        fmt::format("{}", fmt::join(line_numbers(before.content.str(), stop.offsets), ", "));
    diag("SEARCH_AMBIGUOUS", "old_text_end",
         fmt::format("old_text_end appears {} times after old_text_beginning, at lines {}; it must "
                     "appear exactly once",
                     stop.offsets.size(), lines),
         "Make the end marker longer so that it matches once");
    return fail("SEARCH_AMBIGUOUS",
                fmt::format("{}: old_text_end appears {} times after old_text_beginning, must "
                            "appear exactly once (lines {})",
                            a_.action, stop.offsets.size(), lines));
  }
  std::string new_text = raw("new_text");
  if (start.crlf_converted || stop.crlf_converted || uses_crlf(before.content))
    new_text = to_crlf(new_text);
  write_effect(*path, before,
               before.content.splice(start.offsets[0], stop.offsets[0] + stop.length, new_text));
  out_->data = {{"path", shown("path")}, {"replacements", 1}};
}

void ActionRunner::run_delete() {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  const FileState before = files_->read(*path);
  if (!require_file("path", *path, before, "file")) return;
  FileEffect e;
  e.kind = FileEffect::Kind::remove;
  e.seq = a_.seq;
  e.path = *path;
  e.before = before.content;
  e.mode = before.mode;
  out_->effects.push_back(std::move(e));
  files_->set(*path, {});
  out_->data = {{"path", shown("path")}};
}

void ActionRunner::run_move() {
  const auto from = path_of("old_path", raw("old_path"));
  const auto to = path_of("new_path", raw("new_path"));
  if (!from || !to) return;
  const FileState source = files_->read(*from);
  if (source.kind == Kind::missing) {
    const std::string msg =
        fmt::format("{}: Source file not found '{}'", a_.action, shown("old_path"));
    diag("FILE_NOT_FOUND", "old_path", msg + " (nor created by an earlier action)",
         "Check the source path");
    return fail("FILE_NOT_FOUND", msg);
  }
  if (!require_file("old_path", *from, source, "source file")) return;
  const FileState dest = files_->read(*to);
  if (dest.kind == Kind::directory || dest.kind == Kind::other) {
    const std::string msg =
        fmt::format("{}: destination '{}' is a directory", a_.action, shown("new_path"));
    diag("NOT_A_FILE", "new_path", msg, "Give the full destination path including the file name");
    return fail("NOT_A_FILE", msg);
  }
  if (!parents_writable("new_path", *to)) return;
  out_->data = {{"old_path", shown("old_path")}, {"new_path", shown("new_path")}};
  if (*from == *to) return;
  FileEffect e;
  e.kind = FileEffect::Kind::move;
  e.seq = a_.seq;
  e.path = *from;
  e.new_path = *to;
  e.before = source.content;
  e.mode = source.mode;
  if (dest.kind == Kind::file) {
    e.dest_before = dest.content;
    out_->data["overwrote"] = true;
    diag("MOVE_OVERWRITES", "new_path",
         fmt::format("{} exists and will be overwritten by {}", shown("new_path"),
                     shown("old_path")),
         "Delete or move the destination first if its content matters");
  }
  out_->effects.push_back(std::move(e));
  create_parents(*to);
  files_->set(*to, source);
  files_->set(*from, {});
}

void ActionRunner::run_read() {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  const FileState s = files_->read(*path);
  if (!require_file("path", *path, s, "file")) return;
  out_->data = {{"path", shown("path")}, {"content", s.content.str()}};
}

void ActionRunner::run_read_many() {
  const std::string value = raw("paths");
  const auto src = a_.sources.find("paths");
  const bool slice_value =
      src != a_.sources.end() && src->second.param && src->second.param->value_is_slice;
  std::vector<std::string> shown_paths, contents, missing;
  bool failed_policy = false;
  for (size_t pos = 0; pos <= value.size();) {
    const size_t nl = value.find('\n', pos);
    const size_t end = nl == std::string::npos ? value.size() : nl;
    const std::string line = value.substr(pos, end - pos);
    std::optional<ByteRange> range;
    if (slice_value)
      range = ByteRange{src->second.value_range.begin + pos, src->second.value_range.begin + end};
    if (!trim_path(line).empty()) {
      const std::string p(trim_path(line));
      if (const auto abs = path_of("paths", p, range)) {
        const FileState s = files_->read(*abs);
        shown_paths.push_back(p);
        if (s.kind == Kind::file) {
          contents.push_back(s.content.str());
        } else {
          missing.push_back(p);
          diag(s.kind == Kind::missing ? "FILE_NOT_FOUND" : "NOT_A_FILE", "paths",
               s.kind == Kind::missing ? fmt::format("file not found '{}'", p)
                                       : fmt::format("'{}' is a directory", p),
               "Check the path; earlier actions of this transcript are taken into account", range);
        }
      } else {
        failed_policy = true;
      }
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  if (failed_policy) return;
  if (shown_paths.empty()) {
    const std::string msg = fmt::format("{}: No paths provided", a_.action);
    diag("EMPTY_PATH", "paths", msg, "List one path per line");
    return fail("EMPTY_PATH", msg);
  }
  if (!missing.empty()) {
    std::string msg = fmt::format("{}: Failed to read {} file(s):", a_.action, missing.size());
    for (const std::string& m : missing)
      msg += fmt::format("\n  {}: file not found", m);
    return fail("FILE_NOT_FOUND", msg);
  }
  out_->data = {{"paths", shown_paths}, {"content", contents}};
}

void ActionRunner::run_dir_create() {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  const FileState s = files_->read(*path);
  out_->data = {{"path", shown("path")}};
  if (s.kind == Kind::directory) return;
  if (s.kind != Kind::missing) {
    const std::string msg =
        fmt::format("{}: '{}' exists and is not a directory", a_.action, shown("path"));
    diag("NOT_A_FILE", "path", msg, "Choose another name or delete the file first");
    return fail("NOT_A_FILE", msg);
  }
  if (!parents_writable("path", *path)) return;
  FileEffect e;
  e.kind = FileEffect::Kind::make_dir;
  e.seq = a_.seq;
  e.path = *path;
  out_->effects.push_back(std::move(e));
  create_parents(*path);
  files_->set(*path, {Kind::directory, {}, 0});
}

void ActionRunner::run_dir_delete() {
  const auto path = path_of("path", raw("path"));
  if (!path) return;
  for (const std::string& root : in_.config->allowed_roots) {
    if (*path != root && *path != in_.config->root) continue;
    const std::string msg = fmt::format("{}: '{}' is the root itself", a_.action, shown("path"));
    diag("PATH_DENIED", "path", msg, "Delete the directories inside the root instead");
    return fail("PATH_DENIED", msg);
  }
  const FileState s = files_->read(*path);
  if (s.kind == Kind::missing) {
    const std::string msg = fmt::format("{}: directory not found '{}'", a_.action, shown("path"));
    diag("FILE_NOT_FOUND", "path", msg, "Check the path");
    return fail("FILE_NOT_FOUND", msg);
  }
  if (s.kind != Kind::directory) {
    const std::string msg = fmt::format("{}: '{}' is not a directory", a_.action, shown("path"));
    diag("NOT_A_FILE", "path", msg, "Use file_delete for files");
    return fail("NOT_A_FILE", msg);
  }
  FileEffect e;
  e.kind = FileEffect::Kind::remove_dir;
  e.seq = a_.seq;
  e.path = *path;
  e.mode = s.mode;
  for (const std::string& entry : files_->list_tree(*path)) {
    // Denied paths inside (e.g. a nested .git) make the whole delete denied.
    const ResolvedPath r = resolve_path(*in_.config, entry);
    if (r.verdict == PathVerdict::denied) {
      diag("PATH_DENIED", "path", fmt::format("{} contains {}: {}", shown("path"), entry, r.reason),
           "Delete the other entries one by one");
      return fail("PATH_DENIED", fmt::format("{}: {}", a_.action, r.reason));
    }
    e.tree.emplace_back(entry, files_->read(entry));
  }
  for (const auto& [entry, state] : e.tree)
    files_->set(entry, {});
  files_->set(*path, {});
  out_->effects.push_back(std::move(e));
  out_->data = {{"path", shown("path")}};
}

void ActionRunner::run_exec() {
  FileEffect e;
  e.kind = FileEffect::Kind::exec;
  e.seq = a_.seq;
  e.code = raw("code");
  e.lang = raw("lang");
  e.cwd = in_.config->root;
  if (a_.param("cwd")) {
    const auto cwd = path_of("cwd", raw("cwd"));
    if (!cwd) return;
    if (files_->read(*cwd).kind != Kind::directory) {
      const std::string msg =
          fmt::format("exec: Working directory does not exist '{}'", shown("cwd"));
      diag("FILE_NOT_FOUND", "cwd", msg, "Use an existing directory inside the root");
      return fail("FILE_NOT_FOUND", msg);
    }
    e.cwd = *cwd;
  }
  if (!in_.config->allow_exec) {
    diag("EXEC_DISABLED", "", "exec is disabled: the code is not run",
         "Run blockls apply with --allow-exec (LSP: blockls.allowExec) to allow it");
    return fail("EXEC_DISABLED", "exec: disabled (run with --allow-exec to allow it)");
  }
  out_->effects.push_back(std::move(e));
  out_->data = nullptr; // filled in when it runs
}

} // namespace

namespace {
BlockSimulation simulate_block_with(const SimulationInput& input, int block,
                                    const FileSource& before, std::vector<Diagnostic>* diagnostics,
                                    Overlay* after, PathMemo* memo) {
  BlockSimulation sim;
  sim.block = block;
  RecordingSource recording(before, &sim.observed);
  Overlay files(recording);
  // The plan's actions are sorted by block: the block's own are one run, found by bisection
  // (a simulation of every block is then linear, not quadratic, in the plan's size).
  const std::vector<PlannedAction>& actions = input.plan->actions;
  auto it = std::lower_bound(actions.begin(), actions.end(), block,
                             [](const PlannedAction& a, int b) { return a.block < b; });
  for (; it != actions.end() && it->block == block; ++it) {
    const PlannedAction& a = *it;
    sim.block_id = a.block_id;
    ActionOutcome out;
    ActionRunner(input, a, &files, diagnostics, &out, memo).run();
    if (!out.success && sim.ok) {
      sim.ok = false;
      sim.failed_seq = a.seq;
    }
    sim.actions.push_back(std::move(out));
  }
  if (!sim.ok) {
    for (ActionOutcome& o : sim.actions) {
      o.effects.clear();
      if (o.success) {
        o.success = false;
        o.code = "NOT_RUN";
        o.error = fmt::format("not run: action {} of block {} failed, so the block changed nothing",
                              sim.failed_seq, sim.block_id);
        o.data = nullptr;
      }
    }
  } else if (after) {
    after->merge_from(files);
  }
  return sim;
}
} // namespace

BlockSimulation simulate_block(const SimulationInput& input, int block, const FileSource& before,
                               std::vector<Diagnostic>* diagnostics, Overlay* after) {
  return simulate_block_with(input, block, before, diagnostics, after, nullptr);
}

Simulation simulate_plan(const SimulationInput& input, const FileSource& source) {
  Simulation sim;
  const MemoSource files(source);
  PathMemo paths;
  Overlay state(files);
  SimulationInput with_original = input;
  with_original.original = &files;
  for (int block : input.plan->planned_blocks)
    sim.blocks.push_back(
        simulate_block_with(with_original, block, state, &sim.diagnostics, &state, &paths));
  return sim;
}

Observation observe(const FileSource& source, const std::string& key) {
  if (key.starts_with("tree:")) return {{}, source.list_tree(key.substr(5))};
  return {source.read(key), {}};
}

bool Observation::operator==(const Observation& other) const {
  if (state.kind != other.state.kind || tree != other.tree) return false;
  return state.kind != Kind::file || state.content == other.state.content;
}

} // namespace blockls::apply
