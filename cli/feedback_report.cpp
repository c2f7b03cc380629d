// Feedback for the model (see feedback_report.h).
#include "cli/feedback_report.h"

#include "apply/path_policy.h"
#include "grammar/dialects.h"
#include "grammar/text_edit.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <vector>

namespace blockls::cli {
namespace {

// The end of the line holding `offset` (after its line break).
size_t end_of_line(std::string_view text, size_t offset) {
  const size_t nl = text.find('\n', offset);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

// The start of the first line that holds any of block `b` (an Aider edit's file name precedes
// its SEARCH marker).
size_t first_line_start(const CheckedDocument& checked, size_t b) {
  const Block& block = checked.parsed.blocks[b];
  const LineIndex& lines = checked.parsed.lines;
  size_t begin = std::min(block.range.begin, lines.line_start(block.start_line));
  for (const Command& c : block.commands)
    for (const Parameter& p : c.params)
      if (p.value_range.size() > 0) begin = std::min(begin, p.value_range.begin);
  return lines.line_start(lines.line_of(begin));
}

// Whether `offset` is the first byte of a line of `text` (or its end after a line break).
bool at_line_start(std::string_view text, size_t offset) {
  return offset == 0 || (offset <= text.size() && text[offset - 1] == '\n');
}

// The line starting at `offset` when it is a Markdown fence line (up to three spaces, then
// three or more backticks or tildes), else empty.
std::string_view fence_line(std::string_view text, size_t offset) {
  if (offset >= text.size()) return {};
  const std::string_view line = text.substr(offset, end_of_line(text, offset) - offset);
  const size_t mark = line.find_first_not_of(' ');
  if (mark == std::string_view::npos || mark > 3 || line.size() < mark + 3) return {};
  const char c = line[mark];
  if ((c != '`' && c != '~') || line[mark + 1] != c || line[mark + 2] != c) return {};
  return line;
}

// The bytes of the block's whole lines, what a model must send again: from the first line
// that holds any of it (an Aider edit's file name precedes its SEARCH marker) to the end of its
// last line. A block left unclosed runs to the end of the input; it ends here at the line of
// its last fix instead (the missing end goes there: a fix inserting it at the start of a line
// ends before that line), or at its start line. Never past the start of the next block's first
// line: a block closed by the next one's start line does not hold that line.
// `own`: the check's diagnostics of the block (DiagnosticsByBlock).
ByteRange block_lines(std::string_view text, const CheckedDocument& checked, size_t b,
                      const std::vector<const Diagnostic*>& own) {
  const Block& block = checked.parsed.blocks[b];
  const LineIndex& lines = checked.parsed.lines;
  const size_t begin = first_line_start(checked, b);
  size_t end;
  if (block.end_line) {
    end = end_of_line(text, std::max(block.range.end, begin + 1) - 1);
  } else {
    end = end_of_line(text, lines.line_start(block.start_line));
    for (const Diagnostic* d : own)
      if (!d->fixes.empty())
        for (const TextEdit& e : d->fixes.front().edits)
          end = std::max(end, e.range.end > begin && at_line_start(text, e.range.end)
                                  ? e.range.end
                                  : end_of_line(text, e.range.end));
  }
  // An Aider edit opens a Markdown fence after its file name: its closing fence line is the
  // model's too (a corrected block that opens a fence must close it).
  if (const std::string_view closing = fence_line(text, end);
      !closing.empty() && closing.find_first_not_of("`~ \t\r\n", closing.find_first_not_of(" ")) ==
                              std::string_view::npos) {
    size_t fences = 0;
    for (size_t at = begin; at < end; at = end_of_line(text, at))
      if (!fence_line(text, at).empty()) ++fences;
    if (fences % 2 == 1) end = end_of_line(text, end);
  }
  if (b + 1 < checked.parsed.blocks.size()) {
    const size_t next = first_line_start(checked, b + 1);
    if (next > begin) end = std::min(end, next);
  }
  return {begin, end};
}

// The first path a block's commands name (the file a model knows its block by), trimmed as
// apply reads a path: a TELT value keeps its CRLF break, whose "\r" must not reach the text.
std::string_view path_of(std::string_view text, const Block& block) {
  for (const Command& c : block.commands)
    for (const Parameter& p : c.params)
      if (p.name == "path" || p.name == "PATH" || p.name == "FILE" || p.name == "file")
        return apply::trim_path(p.value(text));
  return {};
}

// "block 2 (nesl, config.toml, lines 8-14)": the words a model can find its block by; `number`
// is the block's in the whole document.
// `own`: the check's diagnostics of the block.
std::string describe(std::string_view text, const CheckedDocument& checked, size_t b, size_t number,
                     const std::vector<const Diagnostic*>& own) {
  const Block& block = checked.parsed.blocks[b];
  const ByteRange span = block_lines(text, checked, b, own);
  const uint32_t first = checked.parsed.lines.line_of(span.begin) + 1;
  const uint32_t last =
      checked.parsed.lines.line_of(span.end > span.begin ? span.end - 1 : span.begin) + 1;
  std::string what(dialect_name(block.dialect));
  if (const std::string_view path = path_of(text, block);
      !path.empty() && path.find('\n') == std::string_view::npos)
    what += ", " + std::string(path);
  return fmt::format("block {} ({}, line{} {})", number, what, first == last ? "" : "s",
                     first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last));
}

// A Markdown fence longer than any backtick run in `body`, so the corrected block quotes safely.
std::string fence_for(std::string_view body) {
  size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

} // namespace

namespace {

// The diagnostics of `all` on block `b`, in order.
void add_diagnostics_of(const std::vector<Diagnostic>& all, size_t b,
                        std::vector<const Diagnostic*>* out) {
  for (const Diagnostic& d : all)
    if (d.block == static_cast<int32_t>(b)) out->push_back(&d);
}

// A corrected block, or why there is none.
struct Correction {
  std::optional<std::string> block;
  std::string why; // when there is none and its fixes were there but leave it invalid
};

// Whether `fixed`, checked on its own, is free of errors and holds a block: a correction that
// re-checks invalid is not proposed (the model would send it and be told off again). Its first
// error, when there is one, goes to `why`.
bool rechecks_valid(std::string_view fixed, const CheckOptions& options, std::string* why) {
  const CheckedDocument again = check_document(fixed, options);
  for (const Diagnostic& d : again.diagnostics)
    if (is_error(d.severity)) {
      *why = fmt::format("line {} of it: {} [{}]", d.line + 1, d.message, d.code);
      return false;
    }
  if (again.parsed.blocks.empty()) {
    *why = "it holds no block";
    return false;
  }
  return true;
}

// corrected_block, with the block's diagnostics given (a failed apply adds the workspace's;
// `own` are the check's alone).
Correction correct(std::string_view text, const CheckedDocument& checked, size_t b,
                   const std::vector<const Diagnostic*>& own,
                   const std::vector<const Diagnostic*>& diagnostics, const CheckOptions& options) {
  const ByteRange span = block_lines(text, checked, b, own);
  std::vector<TextEdit> edits;
  // An error of the check without a fix of its own may still be corrected by another's (a
  // missing `path` by the fix renaming a misspelt `pth`, a heredoc's missing value by the fix
  // closing it): the re-check below says. A workspace error (a failed apply's) is not
  // re-checked here, so it must have its fix.
  bool unfixed = false;
  const auto give_up = [&](const Diagnostic* d) {
    if (!is_error(d->severity)) return false;
    unfixed = true;
    return std::find(own.begin(), own.end(), d) == own.end();
  };
  for (const Diagnostic* d : diagnostics) {
    const bool fixable =
        !d->fixes.empty() && std::all_of(d->fixes.front().edits.begin(),
                                         d->fixes.front().edits.end(), [&](const TextEdit& e) {
                                           return e.range.begin >= span.begin &&
                                                  e.range.end <= span.end;
                                         });
    if (!fixable) {
      if (give_up(d)) return {}; // an error nothing here corrects
      continue;
    }
    // Keep the fix only if none of its edits touches an edit already taken.
    const auto overlaps = [&](const TextEdit& e) {
      return std::any_of(edits.begin(), edits.end(), [&](const TextEdit& o) {
        return (e.range.begin < o.range.end && o.range.begin < e.range.end) ||
               e.range.begin == o.range.begin;
      });
    };
    const std::vector<TextEdit>& fix = d->fixes.front().edits;
    if (std::any_of(fix.begin(), fix.end(), overlaps)) {
      if (give_up(d)) return {};
      continue;
    }
    edits.insert(edits.end(), fix.begin(), fix.end());
  }
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.range.begin < b.range.begin; });
  if (edits.empty()) return {}; // nothing to correct with
  std::string out;
  if (!apply_edits(slice(text, span), edits, &out, span.begin)) return {};
  Correction c;
  if (rechecks_valid(out, options, &c.why))
    c.block = std::move(out);
  else if (unfixed) // the errors without a fix say why
    c.why.clear();
  return c;
}

// `intro`, then `body` in a fence.
void append_fenced(std::string* out, std::string_view intro, std::string_view body) {
  // The feedback's lines end in "\n": so do the quoted block's (CRLF input's "\r" would be
  // sent back inside them).
  std::string lf;
  lf.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i)
    if (!(body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n')) lf += body[i];
  body = lf;
  const std::string fence = fence_for(body);
  *out += std::string(intro) + "\n" + fence + "\n" + std::string(body);
  if (!body.empty() && body.back() != '\n') *out += "\n";
  *out += fence + "\n";
}

// "- line N: message [CODE]" and its hint, per error of `diagnostics`; how many. With
// `warnings`, also each warning that has a fix or is an unknown parameter ("(warning)", its hint
// and the fix's title): in a broken block it may be the cause of an error (a misspelt parameter
// is ignored, so the required one is missing), and its fix is in the corrected block. A line past
// `last_line` (1-based; an end-of-input error's) is given as `last_line`.
size_t append_errors(std::string* out, const std::vector<const Diagnostic*>& diagnostics,
                     bool warnings = false, uint32_t last_line = UINT32_MAX) {
  size_t errors = 0;
  for (const Diagnostic* d : diagnostics) {
    const bool error = is_error(d->severity);
    if (!error && !(warnings && (!d->fixes.empty() || d->code == "UNKNOWN_PARAM"))) continue;
    *out += fmt::format("- line {}: {} [{}]{}\n", std::min(d->line + 1, last_line), d->message,
                        d->code, error ? "" : " (warning)");
    if (!d->fix_hint.empty()) *out += "  " + d->fix_hint + "\n";
    if (!error && !d->fixes.empty() && !d->fixes.front().title.empty())
      *out += "  Fix: " + d->fixes.front().title + "\n";
    if (error) ++errors;
  }
  return errors;
}

// The diagnostic saying an edit's new text is in the file already (check --root, a failed
// apply), or null: then the model is told the edit looks done, and no "correction" (its old
// text set to the new one) is proposed.
const Diagnostic* already_applied(const std::vector<const Diagnostic*>& diagnostics) {
  for (const Diagnostic* d : diagnostics)
    if (d->code == "REPLACE_ALREADY_PRESENT") return d;
  return nullptr;
}

void append_already_applied(std::string* out, const Diagnostic& d) {
  *out += fmt::format("- line {}: {} [{}] (warning)\n", d.line + 1, d.message, d.code);
  *out += "The edit appears to be applied already (its new text is in the file): do not send it "
          "again. If it is not done, send it again with the old text as the file has it now.\n";
}

// The corrected block in a fence, or that there is none.
void append_correction(std::string* out, std::string_view text, const CheckedDocument& checked,
                       size_t b, const std::vector<const Diagnostic*>& own,
                       const std::vector<const Diagnostic*>& diagnostics,
                       const CheckOptions& options) {
  const Correction c = correct(text, checked, b, own, diagnostics, options);
  if (c.block) {
    append_fenced(out, "Send this corrected block instead:", *c.block);
  } else if (!c.why.empty()) {
    *out += "No automatic correction (the engine's fixes leave the block invalid: " + c.why +
            "): rewrite the block following the hints above.\n";
  } else {
    *out += "No automatic correction: rewrite the block following the hints above.\n";
  }
}

// Whether `d` is a NESL block's "Missing required parameter: K" while K's heredoc is left
// unclosed in the block: K is there, only unfinished (UNCLOSED_HEREDOC says so), and a model
// told it is missing would add a second one.
bool missing_in_open_heredoc(std::string_view text, ByteRange span, const Diagnostic& d,
                             const std::vector<const Diagnostic*>& own) {
  constexpr std::string_view kMissing = "Missing required parameter: ";
  if (d.dialect != Dialect::nesl || d.code != "MISSING_PARAM" || !d.message.starts_with(kMissing) ||
      std::none_of(own.begin(), own.end(),
                   [](const Diagnostic* o) { return o->code == "UNCLOSED_HEREDOC"; }))
    return false;
  const std::string_view name = std::string_view(d.message).substr(kMissing.size());
  const std::string_view lines = slice(text, span);
  for (size_t at = 0; at < lines.size(); at = end_of_line(lines, at)) {
    std::string_view line = lines.substr(at, end_of_line(lines, at) - at);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (!line.starts_with(name)) continue;
    line.remove_prefix(name.size());
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (!line.starts_with("=")) continue;
    line.remove_prefix(1);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (line.starts_with("<<")) return true;
  }
  return false;
}

// block_feedback, given the check's diagnostics of the block.
std::string feedback_on(std::string_view text, const CheckedDocument& checked, size_t b,
                        size_t number, const std::vector<const Diagnostic*>& own,
                        const CheckOptions& options) {
  const ByteRange span = block_lines(text, checked, b, own);
  const uint32_t last_line =
      checked.parsed.lines.line_of(span.end > span.begin ? span.end - 1 : span.begin) + 1;
  std::vector<const Diagnostic*> shown; // without a heredoc's phantom "missing" value
  for (const Diagnostic* d : own)
    if (!missing_in_open_heredoc(text, span, *d, own)) shown.push_back(d);
  std::string errors;
  const size_t count = append_errors(&errors, shown, true, last_line);
  if (count == 0) return "";
  std::string out =
      fmt::format("{} has {} error{} and was not run:\n", describe(text, checked, b, number, own),
                  count, count == 1 ? "" : "s");
  out += errors;
  if (const Diagnostic* done = already_applied(own))
    append_already_applied(&out, *done);
  else
    append_correction(&out, text, checked, b, own, own, options);
  return out;
}

// The start of the line holding `offset`.
size_t start_of_line(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  const size_t nl = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

} // namespace

DiagnosticsByBlock::DiagnosticsByBlock(const CheckedDocument& checked)
    : lists_(checked.parsed.blocks.size()) {
  for (const Diagnostic& d : checked.diagnostics)
    if (d.block >= 0 && static_cast<size_t>(d.block) < lists_.size())
      lists_[static_cast<size_t>(d.block)].push_back(&d);
}

// The most bytes of lines a loose diagnostic's correction quotes.
constexpr size_t kMaxLooseLines = 64 * 1024;

std::string loose_feedback(std::string_view text, const Diagnostic& d,
                           const CheckOptions& options) {
  if (!is_error(d.severity)) return "";
  std::string out = fmt::format("line {}: {} [{}]\n", d.line + 1, d.message, d.code);
  if (!d.fix_hint.empty()) out += "  " + d.fix_hint + "\n";
  if (d.fixes.empty()) return out;
  // The lines its preferred fix changes, from the diagnostic's line on (a malformed header's
  // fix rewrites the header and the end marker of the block it was meant to open).
  const std::vector<TextEdit>& fix = d.fixes.front().edits;
  size_t begin = start_of_line(text, std::min(d.range.begin, text.size()));
  size_t end = end_of_line(text, begin);
  for (const TextEdit& e : fix) {
    if (e.range.end > text.size()) return out;
    begin = std::min(begin, start_of_line(text, e.range.begin));
    end = std::max(end, e.range.end > begin && at_line_start(text, e.range.end)
                            ? e.range.end
                            : end_of_line(text, e.range.end));
  }
  std::vector<TextEdit> edits(fix.begin(), fix.end());
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& x, const TextEdit& y) { return x.range.begin < y.range.begin; });
  std::string fixed;
  std::string why;
  if (end - begin > kMaxLooseLines) { // (a header before pages of prose): not quoted
    out += "No automatic correction: rewrite the lines following the hint above.\n";
    return out;
  }
  // Line numbers counted from the diagnostic's own (a count from the start of the text, per
  // error, would be quadratic in a document of many malformed headers).
  const auto breaks = [&](size_t from, size_t to) {
    return static_cast<long>(std::count(text.begin() + static_cast<std::ptrdiff_t>(from),
                                        text.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
  };
  const size_t own_line = start_of_line(text, std::min(d.range.begin, text.size()));
  const long first = static_cast<long>(d.line) + 1 - breaks(begin, own_line);
  const long last = first + breaks(begin, end > begin ? end - 1 : begin);
  const std::string lines = first == last ? fmt::format("Line {} was", first)
                                          : fmt::format("Lines {}-{} were", first, last);
  if (!apply_edits(slice(text, {begin, end}), edits, &fixed, begin)) return out;
  if (!rechecks_valid(fixed, options, &why)) {
    out += "No automatic correction (the engine's fix leaves the lines invalid: " + why +
           "): rewrite them following the hint above.\n";
    return out;
  }
  append_fenced(&out,
                lines + " not read as a block, so nothing of them was run. Send these corrected "
                        "lines instead:",
                fixed);
  return out;
}

std::optional<std::string> corrected_block(std::string_view text, const CheckedDocument& checked,
                                           size_t b, const CheckOptions& options) {
  std::vector<const Diagnostic*> own;
  add_diagnostics_of(checked.diagnostics, b, &own);
  return correct(text, checked, b, own, own, options).block;
}

std::string corrected_document(std::string_view text, const CheckedDocument& checked, size_t b,
                               const CheckOptions& options) {
  const std::optional<std::string> fixed = corrected_block(text, checked, b, options);
  if (!fixed) return std::string(text);
  std::vector<const Diagnostic*> own;
  add_diagnostics_of(checked.diagnostics, b, &own);
  const ByteRange span = block_lines(text, checked, b, own);
  std::string out(text.substr(0, span.begin));
  out += *fixed;
  out += text.substr(span.end);
  return out;
}

std::string block_feedback(std::string_view text, const CheckedDocument& checked, size_t b,
                           size_t number, const CheckOptions& options) {
  std::vector<const Diagnostic*> own;
  add_diagnostics_of(checked.diagnostics, b, &own);
  return feedback_on(text, checked, b, number, own, options);
}

std::string block_feedback(std::string_view text, const CheckedDocument& checked, size_t b,
                           size_t number, const DiagnosticsByBlock& by_block,
                           const CheckOptions& options) {
  return feedback_on(text, checked, b, number, by_block.of(b), options);
}

std::string failed_block_feedback(std::string_view text, const CheckedDocument& checked, size_t b,
                                  size_t number, const ApplyFailure& failure,
                                  const CheckOptions& options) {
  // Its own diagnostics (warnings: it is valid) with the workspace's, so that their fixes
  // together can make the corrected block, as in check --root's feedback.
  std::vector<const Diagnostic*> own;
  add_diagnostics_of(checked.diagnostics, b, &own);
  std::vector<const Diagnostic*> diagnostics = own;
  if (failure.diagnostics) add_diagnostics_of(*failure.diagnostics, b, &diagnostics);
  std::string errors;
  size_t count = append_errors(&errors, diagnostics);
  const bool explained = count > 0;
  if (!explained) { // failed after its simulation: only the failure itself says why
    errors = fmt::format("- line {}: {} [{}]\n", failure.line + 1, failure.message, failure.code);
    if (!failure.output.empty()) { // what the command said (a missing file, a typo)
      const std::string fence = fence_for(failure.output);
      errors +=
          "  What the command wrote:\n" + fence + "\n" + std::string(failure.output) + fence + "\n";
    }
    count = 1;
  }
  std::string out = fmt::format(
      "{} is valid but could not be applied to the files ({} error{}); {}:\n",
      describe(text, checked, b, number, own), count, count == 1 ? "" : "s",
      failure.exec_ran ? "none of its file changes were written, but a command of it ran and "
                         "what that command did stays"
                       : "nothing was changed for it");
  out += errors;
  if (const Diagnostic* done = already_applied(diagnostics))
    append_already_applied(&out, *done);
  else if (explained)
    append_correction(&out, text, checked, b, own, diagnostics, options);
  else
    out += "No automatic correction: rewrite or resend the block once the cause above is fixed.\n";
  return out;
}

std::string feedback_text(std::string_view text, const CheckedDocument& checked,
                          const CheckOptions& options) {
  const std::vector<Block>& blocks = checked.parsed.blocks;
  std::vector<size_t> valid, broken;
  for (size_t b = 0; b < blocks.size(); ++b)
    (checked.verdicts[b].valid ? valid : broken).push_back(b);
  size_t loose = 0; // errors outside every block (a malformed header, invalid UTF-8 in prose)
  for (const Diagnostic& d : checked.diagnostics)
    if (d.block < 0 && is_error(d.severity)) ++loose;
  const DiagnosticsByBlock by_block(checked);
  std::string out;
  if (blocks.empty())
    out += loose == 0 ? std::string("No blocks found.\n")
                      : fmt::format("No block was read, and nothing was run: {} error{} below.\n",
                                    loose, loose == 1 ? "" : "s");
  else if (broken.empty() && loose == 0)
    out += blocks.size() == 1
               ? std::string("The block is valid; nothing to correct.\n")
               : fmt::format("All {} blocks are valid; nothing to correct.\n", blocks.size());
  else if (broken.empty())
    out += fmt::format("{} valid, but {} error{} outside them (below).\n",
                       blocks.size() == 1 ? std::string("The block is")
                                          : fmt::format("All {} blocks are", blocks.size()),
                       loose, loose == 1 ? "" : "s");
  else
    out += fmt::format("{} of {} block{} {} errors and {} not run.\n", broken.size(), blocks.size(),
                       blocks.size() == 1 ? "" : "s", broken.size() == 1 ? "has" : "have",
                       broken.size() == 1 ? "was" : "were");
  if (!valid.empty() && (!broken.empty() || loose > 0)) {
    out += "Valid, do not send again:";
    for (size_t b : valid)
      out += (b == valid.front() ? " " : ", ") + describe(text, checked, b, b + 1, by_block.of(b));
    out += ".\n";
  }
  for (size_t b : broken)
    out += "\n" + block_feedback(text, checked, b, b + 1, by_block, options);
  // Errors outside every block (a malformed header, invalid UTF-8 in prose).
  for (const Diagnostic& d : checked.diagnostics)
    if (d.block < 0 && is_error(d.severity)) out += "\n" + loose_feedback(text, d, options);
  return out;
}

} // namespace blockls::cli
