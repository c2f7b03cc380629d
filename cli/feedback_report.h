// `check --format feedback` and the `feedback` of a stream's block_end: the text an agent sends
// back to the model — which blocks are valid (and must not be sent again), which are not and
// why (line, message, hint), and for each broken block the corrected block itself, built from
// the engine's verified fixes, so the model can resend exactly that.
#pragma once

#include "diagnostics/check.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::cli {

// The diagnostics of each block of a check (Diagnostic::block), in check's order: built once
// for feedback on many blocks, each of which would otherwise read every diagnostic again (a
// document of thousands of unclosed blocks took seconds).
class DiagnosticsByBlock {
public:
  explicit DiagnosticsByBlock(const CheckedDocument& checked);
  const std::vector<const Diagnostic*>& of(size_t block) const { return lists_[block]; }

private:
  std::vector<std::vector<const Diagnostic*>> lists_;
};

// The whole document's feedback.
// `options`: the check's (a correction is re-checked with them before it is proposed).
std::string feedback_text(std::string_view text, const CheckedDocument& checked,
                          const CheckOptions& options = {});

// The feedback on a diagnostic outside every block (a malformed header: the lines after it
// were not read as a block) when it is an error, empty otherwise: its line, message, hint and,
// when its preferred fix makes lines that re-check valid, those lines to send instead. `text`
// holds at least the lines its fix edits.
std::string loose_feedback(std::string_view text, const Diagnostic& d,
                           const CheckOptions& options = {});

// The feedback on one block that has errors (empty when it has none). `number`: the "block N"
// the model is told, the block's 1-based number in the whole document — not block + 1 when
// `checked` is a part of it (the stream checks a part at a time).
std::string block_feedback(std::string_view text, const CheckedDocument& checked, size_t block,
                           size_t number, const CheckOptions& options = {});
// The same, given the check's diagnostics by block (for many blocks of one check).
std::string block_feedback(std::string_view text, const CheckedDocument& checked, size_t block,
                           size_t number, const DiagnosticsByBlock& by_block,
                           const CheckOptions& options = {});

// Why a valid block could not be applied to the files (`stream --apply`'s failed blocks).
struct ApplyFailure {
  // The workspace diagnostics its simulation found (those of `check --root`; any block's: only
  // the block's own are used). Empty when the failure came later (a file changed meanwhile,
  // an I/O error, an exec): then `code` and `message` say it.
  const std::vector<Diagnostic>* diagnostics = nullptr;
  std::string_view code, message;
  uint32_t line = 0;     // 0-based: the failing action's
  bool exec_ran = false; // a command of it ran: what it did is not undone
  // What a failed command wrote ("its stderr:\n...\n", the tails of its stderr and stdout),
  // quoted in the feedback; empty when none.
  std::string_view output;
};

// The feedback on such a block: that nothing of it was written, why (in the dialect's terms,
// as check's feedback), and the corrected block when the fixes of its failures make one.
std::string failed_block_feedback(std::string_view text, const CheckedDocument& checked,
                                  size_t block, size_t number, const ApplyFailure& failure,
                                  const CheckOptions& options = {});

// The block's lines with the preferred fix of each of its diagnostics applied (non-overlapping,
// inside the block's lines), or nullopt when an error of the block has no such fix or the
// result, checked on its own with `options`, still has an error.
std::optional<std::string> corrected_block(std::string_view text, const CheckedDocument& checked,
                                           size_t block, const CheckOptions& options = {});

// The whole text with the block's lines replaced by corrected_block (the text unchanged when
// there is none): what the model's corrected answer amounts to.
std::string corrected_document(std::string_view text, const CheckedDocument& checked, size_t block,
                               const CheckOptions& options = {});

} // namespace blockls::cli
