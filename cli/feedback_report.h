// `check --format feedback` and the `feedback` of a stream's block_end: the text an agent sends
// back to the model — which blocks are valid (and must not be sent again), which are not and
// why (line, message, hint), and for each broken block the corrected block itself, built from
// the engine's verified fixes, so the model can resend exactly that.
#pragma once

#include "diagnostics/check.h"

#include <optional>
#include <string>
#include <string_view>

namespace blockls::cli {

// The whole document's feedback.
std::string feedback_text(std::string_view text, const CheckedDocument& checked);

// The feedback on one block that has errors (empty when it has none). `number`: the "block N"
// the model is told, the block's 1-based number in the whole document — not block + 1 when
// `checked` is a part of it (the stream checks a part at a time).
std::string block_feedback(std::string_view text, const CheckedDocument& checked, size_t block,
                           size_t number);

// The block's lines with the preferred fix of each of its diagnostics applied (non-overlapping,
// inside the block's lines), or nullopt when an error of the block has no such fix.
std::optional<std::string> corrected_block(std::string_view text, const CheckedDocument& checked,
                                           size_t block);

// The whole text with the block's lines replaced by corrected_block (the text unchanged when
// there is none): what the model's corrected answer amounts to.
std::string corrected_document(std::string_view text, const CheckedDocument& checked, size_t block);

} // namespace blockls::cli
