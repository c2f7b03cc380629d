// Feedback for the model (see feedback_report.h).
#include "cli/feedback_report.h"

#include "apply/path_policy.h"
#include "grammar/dialects.h"
#include "grammar/text_edit.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace blockls::cli {
namespace {

// The end of the line holding `offset` (after its line break).
size_t end_of_line(std::string_view text, size_t offset) {
  const size_t nl = text.find('\n', offset);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

// The bytes of the block's whole lines, what a model must send again: from the first line
// that holds any of it (an Aider edit's file name precedes its SEARCH marker) to the end of its
// last line. A block left unclosed runs to the end of the input; it ends here at the line of
// its last fix instead (the missing end goes there), or at its start line.
// `own`: the check's diagnostics of the block (DiagnosticsByBlock).
ByteRange block_lines(std::string_view text, const CheckedDocument& checked, size_t b,
                      const std::vector<const Diagnostic*>& own) {
  const Block& block = checked.parsed.blocks[b];
  const LineIndex& lines = checked.parsed.lines;
  size_t begin = std::min(block.range.begin, lines.line_start(block.start_line));
  for (const Command& c : block.commands)
    for (const Parameter& p : c.params)
      if (p.value_range.size() > 0) begin = std::min(begin, p.value_range.begin);
  begin = lines.line_start(lines.line_of(begin));
  if (block.end_line) return {begin, end_of_line(text, std::max(block.range.end, begin + 1) - 1)};
  size_t last = lines.line_start(block.start_line);
  for (const Diagnostic* d : own)
    if (!d->fixes.empty())
      for (const TextEdit& e : d->fixes.front().edits)
        last = std::max(last, e.range.end);
  return {begin, end_of_line(text, last)};
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

// corrected_block, with the block's diagnostics given (a failed apply adds the workspace's;
// `own` are the check's alone).
std::optional<std::string> correct(std::string_view text, const CheckedDocument& checked, size_t b,
                                   const std::vector<const Diagnostic*>& own,
                                   const std::vector<const Diagnostic*>& diagnostics) {
  const ByteRange span = block_lines(text, checked, b, own);
  std::vector<TextEdit> edits;
  for (const Diagnostic* d : diagnostics) {
    const bool fixable =
        !d->fixes.empty() && std::all_of(d->fixes.front().edits.begin(),
                                         d->fixes.front().edits.end(), [&](const TextEdit& e) {
                                           return e.range.begin >= span.begin &&
                                                  e.range.end <= span.end;
                                         });
    if (!fixable) {
      if (is_error(d->severity)) return std::nullopt; // an error nothing here corrects
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
      if (is_error(d->severity)) return std::nullopt;
      continue;
    }
    edits.insert(edits.end(), fix.begin(), fix.end());
  }
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.range.begin < b.range.begin; });
  std::string out;
  if (!apply_edits(slice(text, span), edits, &out, span.begin)) return std::nullopt;
  return out;
}

// "- line N: message [CODE]" and its hint, per error of `diagnostics`; how many.
size_t append_errors(std::string* out, const std::vector<const Diagnostic*>& diagnostics) {
  size_t errors = 0;
  for (const Diagnostic* d : diagnostics) {
    if (!is_error(d->severity)) continue;
    *out += fmt::format("- line {}: {} [{}]\n", d->line + 1, d->message, d->code);
    if (!d->fix_hint.empty()) *out += "  " + d->fix_hint + "\n";
    ++errors;
  }
  return errors;
}

// The corrected block in a fence, or that there is none.
void append_correction(std::string* out, std::string_view text, const CheckedDocument& checked,
                       size_t b, const std::vector<const Diagnostic*>& own,
                       const std::vector<const Diagnostic*>& diagnostics) {
  if (const std::optional<std::string> fixed = correct(text, checked, b, own, diagnostics)) {
    const std::string fence = fence_for(*fixed);
    *out += "Send this corrected block instead:\n" + fence + "\n" + *fixed;
    if (!fixed->empty() && fixed->back() != '\n') *out += "\n";
    *out += fence + "\n";
  } else {
    *out += "No automatic correction: rewrite the block following the hints above.\n";
  }
}

// block_feedback, given the check's diagnostics of the block.
std::string feedback_on(std::string_view text, const CheckedDocument& checked, size_t b,
                        size_t number, const std::vector<const Diagnostic*>& own) {
  std::string errors;
  const size_t count = append_errors(&errors, own);
  if (count == 0) return "";
  std::string out =
      fmt::format("{} has {} error{} and was not run:\n", describe(text, checked, b, number, own),
                  count, count == 1 ? "" : "s");
  out += errors;
  append_correction(&out, text, checked, b, own, own);
  return out;
}

} // namespace

DiagnosticsByBlock::DiagnosticsByBlock(const CheckedDocument& checked)
    : lists_(checked.parsed.blocks.size()) {
  for (const Diagnostic& d : checked.diagnostics)
    if (d.block >= 0 && static_cast<size_t>(d.block) < lists_.size())
      lists_[static_cast<size_t>(d.block)].push_back(&d);
}

std::optional<std::string> corrected_block(std::string_view text, const CheckedDocument& checked,
                                           size_t b) {
  std::vector<const Diagnostic*> own;
  add_diagnostics_of(checked.diagnostics, b, &own);
  return correct(text, checked, b, own, own);
}

std::string corrected_document(std::string_view text, const CheckedDocument& checked, size_t b) {
  const std::optional<std::string> fixed = corrected_block(text, checked, b);
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
                           size_t number) {
  std::vector<const Diagnostic*> own;
  add_diagnostics_of(checked.diagnostics, b, &own);
  return feedback_on(text, checked, b, number, own);
}

std::string block_feedback(std::string_view text, const CheckedDocument& checked, size_t b,
                           size_t number, const DiagnosticsByBlock& by_block) {
  return feedback_on(text, checked, b, number, by_block.of(b));
}

std::string failed_block_feedback(std::string_view text, const CheckedDocument& checked, size_t b,
                                  size_t number, const ApplyFailure& failure) {
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
    count = 1;
  }
  std::string out = fmt::format(
      "{} is valid but could not be applied to the files ({} error{}); {}:\n",
      describe(text, checked, b, number, own), count, count == 1 ? "" : "s",
      failure.exec_ran ? "none of its file changes were written, but a command of it ran and "
                         "what that command did stays"
                       : "nothing was changed for it");
  out += errors;
  if (explained)
    append_correction(&out, text, checked, b, own, diagnostics);
  else
    out += "No automatic correction: rewrite or resend the block once the cause above is fixed.\n";
  return out;
}

std::string feedback_text(std::string_view text, const CheckedDocument& checked) {
  const std::vector<Block>& blocks = checked.parsed.blocks;
  std::vector<size_t> valid, broken;
  for (size_t b = 0; b < blocks.size(); ++b)
    (checked.verdicts[b].valid ? valid : broken).push_back(b);
  const DiagnosticsByBlock by_block(checked);
  std::string out;
  if (blocks.empty())
    out += "No blocks found.\n";
  else if (broken.empty())
    out += blocks.size() == 1
               ? std::string("The block is valid; nothing to correct.\n")
               : fmt::format("All {} blocks are valid; nothing to correct.\n", blocks.size());
  else
    out += fmt::format("{} of {} block{} {} errors and {} not run.\n", broken.size(), blocks.size(),
                       blocks.size() == 1 ? "" : "s", broken.size() == 1 ? "has" : "have",
                       broken.size() == 1 ? "was" : "were");
  if (!valid.empty() && !broken.empty()) {
    out += "Valid, do not send again:";
    for (size_t b : valid)
      out += (b == valid.front() ? " " : ", ") + describe(text, checked, b, b + 1, by_block.of(b));
    out += ".\n";
  }
  for (size_t b : broken)
    out += "\n" + block_feedback(text, checked, b, b + 1, by_block);
  // Errors outside every block (e.g. invalid UTF-8 in prose).
  for (const Diagnostic& d : checked.diagnostics)
    if (d.block < 0 && is_error(d.severity))
      out += fmt::format("\nline {}: {} [{}]\n", d.line + 1, d.message, d.code);
  return out;
}

} // namespace blockls::cli
