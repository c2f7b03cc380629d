// ActionHost (see action_host.h). Messages follow clada's wording where it is clear and add
// what clada leaves out (the closest region as a fix).
#include "apply/actions/action_host.h"

#include "apply/actions/runners.h"
#include "apply/text_match.h"
#include "diagnostics/codes.h"
#include "grammar/dialects.h"
#include "grammar/line_breaks.h"

#include <fmt/format.h>

namespace blockls::apply {

using Kind = FileState::Kind;

void ActionHost::run() {
  out_->action = &a_;
  out_->success = true;
  if (const ActionRunner runner = find_runner(a_.action))
    runner(*this);
  else
    fail("UNSUPPORTED_ACTION", fmt::format("{}: blockls cannot run this action", a_.action));
  if (!out_->success) out_->effects = {};
}

std::string ActionHost::value(std::string_view param) const {
  const std::string_view* v = a_.param(param);
  return v ? std::string(*v) : std::string();
}

std::string ActionHost::shown_path(std::string_view param) const {
  return std::string(trim_path(value(param)));
}

std::optional<ByteRange> ActionHost::value_range(std::string_view param, size_t begin,
                                                 size_t end) const {
  const auto src = a_.params.find(param);
  if (src == a_.params.end() || !src->second.param || !src->second.param->value_is_slice)
    return std::nullopt;
  return ByteRange{src->second.value_range().begin + begin, src->second.value_range().begin + end};
}

std::optional<TextEdit> ActionHost::encoded_edit(std::string_view param,
                                                 std::string_view value) const {
  const auto src = a_.params.find(param);
  if (src == a_.params.end() || !src->second.param) return std::nullopt;
  const Parameter& p = *src->second.param;
  const Block& block = in_.checked->parsed.blocks[static_cast<size_t>(a_.block)];
  std::optional<std::string> encoded = encode_value(in_.text, block, p, value);
  if (!encoded) return std::nullopt;
  // (The whole value, a TELT value's final "\r" included: a CRLF transcript's value ends with
  // it, and only without it does the value match a file with LF breaks.)
  return TextEdit{p.value_range, std::move(*encoded)};
}

std::string_view ActionHost::search_word() const {
  const std::optional<FileEditWords> words = file_edit_words(a_.dialect);
  return words ? words->search : std::string_view("old_text");
}

std::optional<std::string> ActionHost::resolve_param_path(std::string_view param) {
  return path_of(param, value(param));
}

std::optional<std::string> ActionHost::resolve_listed_path(std::string_view param,
                                                           std::string_view value,
                                                           std::optional<ByteRange> range) {
  return path_of(param, value, range);
}

std::optional<std::string> ActionHost::path_of(std::string_view param, std::string_view value,
                                               std::optional<ByteRange> range) {
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
    diag("INVALID_PATH", param, r.reason, "Write the path with printable characters in valid UTF-8",
         range);
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

ResolvedPath ActionHost::resolve(std::string_view value) {
  if (!memo_) return resolve_path(*in_.config, value);
  return memo_->resolve(*in_.config, value);
}

bool ActionHost::parents_writable(std::string_view param, const std::string& path) {
  for (std::string dir = parent_of(path); dir != "/"; dir = parent_of(dir)) {
    const FileState s = files_->read(dir);
    if (s.kind == Kind::directory) return true;
    if (s.kind != Kind::missing) {
      const std::string msg = fmt::format("{}: '{}' cannot be created: {} is a file", a_.action,
                                          shown_path(param), dir);
      diag("NOT_A_FILE", param, msg, "A parent of the path is a file");
      fail("NOT_A_FILE", msg);
      return false;
    }
  }
  return true;
}

std::optional<FileState> ActionHost::existing_file(std::string_view param,
                                                   const std::string& path) {
  FileState s = files_->read(path);
  if (!require_file(param, s, "file")) return std::nullopt;
  return s;
}

std::string not_a_file_text(const FileState& s, uint64_t max_file_bytes) {
  if (s.kind == FileState::Kind::directory) return "is a directory, not a file";
  if (s.too_large)
    return fmt::format("is {} bytes, more than the {} bytes blockls reads of a file", s.too_large,
                       max_file_bytes);
  return "is not a regular file blockls can read (a symbolic link, pipe, socket or device, or a "
         "file it may not open)";
}

std::string_view not_a_file_hint(const FileState& s, std::string_view otherwise) {
  return s.too_large ? "Leave the file out of the block, or raise the limit: --max-file-size "
                       "BYTES (apply, stream, check --root)"
                     : otherwise;
}

bool ActionHost::require_file(std::string_view param, const FileState& s, std::string_view what) {
  if (s.kind == Kind::file) return true;
  if (s.kind == Kind::missing) {
    const std::string msg =
        fmt::format("{}: {} not found '{}'", a_.action, what, shown_path(param));
    diag("FILE_NOT_FOUND", param, msg + " (nor created by an earlier action)",
         "Check the path; earlier actions of this transcript are taken into account");
    fail("FILE_NOT_FOUND", msg);
  } else {
    const std::string msg = fmt::format("{}: '{}' {}", a_.action, shown_path(param),
                                        not_a_file_text(s, max_file_bytes()));
    diag(not_a_file_code(s), param, msg, std::string(not_a_file_hint(s, "Name a file")));
    fail(not_a_file_code(s), msg);
  }
  return false;
}

bool ActionHost::require_writable(std::string_view param, const FileState& s,
                                  std::string_view shown, std::optional<ByteRange> range) {
  if (!is_read_only(s)) return true;
  const std::string msg =
      fmt::format("{}: '{}' is read-only (mode {:04o})", a_.action, shown, s.mode & 07777);
  report(
      "FILE_READ_ONLY", param, msg + "; blockls does not change a file its owner may not write",
      fmt::format("Make it writable first (chmod u+w '{}'), or leave it out of the block", shown),
      msg, range);
  return false;
}

std::optional<FileState> ActionHost::writable_file(std::string_view param,
                                                   const std::string& path) {
  std::optional<FileState> s = existing_file(param, path);
  if (s && !require_writable(param, *s, shown_path(param))) return std::nullopt;
  return s;
}

Diagnostic& ActionHost::diag(std::string_view code, std::string_view param, std::string message,
                             std::string hint, std::optional<ByteRange> range) {
  Diagnostic d(a_.dialect);
  const CodeInfo* info = find_code(code);
  d.code = info ? info->name : std::string_view("IO_ERROR");
  d.severity = info ? info->severity : Severity::command_error;
  d.block = a_.block;
  const auto src = a_.params.find(param);
  if (range)
    d.range = *range;
  else if (src != a_.params.end())
    d.range = without_break_cr(in_.text, src->second.value_range());
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

void ActionHost::fail(std::string_view code, std::string message) {
  if (!out_->success && !out_->code.empty()) return; // keep the first failure
  out_->success = false;
  out_->code = std::string(code);
  out_->error = std::move(message);
}

void ActionHost::report(std::string_view code, std::string_view param, std::string message,
                        std::string hint, std::string error, std::optional<ByteRange> range) {
  diag(code, param, std::move(message), std::move(hint), range);
  fail(code, std::move(error));
}

void ActionHost::add_fix(Fix fix) {
  if (!diags_->empty()) diags_->back().fixes.push_back(std::move(fix));
}

void ActionHost::offer_closest(Diagnostic& d, std::string_view param, const FileContent& content,
                               std::string_view needle) {
  const std::optional<ClosestRegion> region = closest_region(content.str(), needle);
  if (!region) return;
  d.fix_hint = fmt::format("The closest text is at lines {}-{} of the file ({})",
                           region->first_line, region->last_line, region->how);
  std::optional<TextEdit> edit = encoded_edit(param, region->text);
  if (!edit) return;
  d.fixes.push_back({fmt::format("Use the text of lines {}-{} of the file ({})", region->first_line,
                                 region->last_line, region->how),
                     true,
                     {std::move(*edit)}});
}

void ActionHost::write_file(const std::string& path, const FileState& before, FileContent after) {
  FileEffect e;
  e.kind = FileEffect::Kind::write;
  e.seq = a_.seq;
  e.path = path;
  if (before.kind == Kind::file) e.before = before.content;
  e.mode = before.kind == Kind::file ? before.mode : 0;
  e.after = after;
  out_->effects.edit().push_back(std::move(e));
  create_parents(path);
  files_->set(path, {Kind::file, std::move(after), before.kind == Kind::file ? before.mode : 0});
}

void ActionHost::remove_file(const std::string& path, const FileState& before) {
  FileEffect e;
  e.kind = FileEffect::Kind::remove;
  e.seq = a_.seq;
  e.path = path;
  e.before = before.content;
  e.mode = before.mode;
  out_->effects.edit().push_back(std::move(e));
  files_->set(path, {});
}

void ActionHost::create_parents(const std::string& path) {
  std::vector<std::string> missing;
  for (std::string dir = parent_of(path); dir != "/"; dir = parent_of(dir)) {
    if (files_->read(dir).kind == Kind::directory) break;
    missing.push_back(dir);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it)
    files_->set(*it, {Kind::directory, {}, 0});
}

} // namespace blockls::apply
