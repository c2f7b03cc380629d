// The engine of `blockls stream` (see stream_session.h).
#include "cli/stream_session.h"

#include "cli/feedback_report.h"
#include "diagnostics/json_report.h"
#include "fixits/verify_fixes.h"

#include <utility>

namespace blockls::cli {
namespace {

// The options a stream checks with: the incremental re-check needs the parser's own list.
CheckOptions keeping(CheckOptions options) {
  options.keep_parser_diagnostics = true;
  return options;
}

nlohmann::json block_start_event(const Block& block) {
  return {{"event", "block_start"},
          {"dialect", dialect_name(block.dialect)},
          {"line", block.start_line + 1},
          {"block_id", block.id.empty() ? nlohmann::json(nullptr) : nlohmann::json(block.id)}};
}

} // namespace

StreamSession::StreamSession(CheckOptions options, std::function<void(const nlohmann::json&)> emit)
    : options_(keeping(std::move(options))), emit_(std::move(emit)), parser_(options_.parse) {}

void StreamSession::feed(std::string_view chunk) {
  parser_.feed(chunk);
  emit_starts();
  const std::vector<ResumePoint>& points = parser_.resume_points_so_far();
  if (!points.empty() && points.back().blocks > ended_)
    settle(points.back().offset, points.back().blocks);
}

void StreamSession::emit_starts() {
  const std::vector<Block>& blocks = parser_.blocks_so_far();
  for (; started_ < blocks.size(); ++started_)
    emit_(block_start_event(blocks[started_]));
}

// Each settle re-checks only from the last settled block on (recheck_with_verified_fixes reuses
// what comes before), so a stream costs about one check of the whole transcript.
void StreamSession::settle(size_t offset, size_t blocks) {
  const std::string_view text = parser_.text();
  const size_t old_size = prefix_.size();
  prefix_.append(text.substr(old_size, offset - old_size));
  checked_ = old_size == 0
                 ? check_with_verified_fixes(prefix_, options_)
                 : recheck_with_verified_fixes(std::string_view(prefix_).substr(0, old_size),
                                               checked_, prefix_, options_);
  emit_settled(checked_, prefix_, blocks, offset);
}

void StreamSession::emit_settled(const CheckedDocument& checked, std::string_view text,
                                 size_t blocks, size_t offset) {
  const ActionCatalog& catalog = options_.catalog ? *options_.catalog : ActionCatalog::builtin();
  // Diagnostics are in position order; a block's errors go with its block_end, the others
  // (outside any block) in an `error` event each, once.
  std::vector<nlohmann::json> errors_of(blocks > ended_ ? blocks - ended_ : 0,
                                        nlohmann::json::array());
  std::vector<nlohmann::json> loose;
  for (const Diagnostic& d : checked.diagnostics) {
    if (d.block >= 0) {
      const size_t b = static_cast<size_t>(d.block);
      if (b >= ended_ && b < blocks)
        errors_of[b - ended_].push_back(diagnostic_json(text, checked, d));
    } else if (d.range.begin >= loose_offset_ && d.range.begin < offset) {
      loose.push_back(diagnostic_json(text, checked, d));
    }
  }
  for (nlohmann::json& e : loose)
    emit_({{"event", "error"}, {"error", std::move(e)}});
  loose_offset_ = offset;
  for (size_t b = ended_; b < blocks && b < checked.parsed.blocks.size(); ++b) {
    nlohmann::json event = {{"event", "block_end"},
                            {"block", block_json(text, checked, b, catalog)},
                            {"errors", std::move(errors_of[b - ended_])}};
    // What to tell the model about a broken block (the corrected block, when the fixes make one).
    if (!checked.verdicts[b].valid)
      if (std::string feedback = block_feedback(text, checked, b); !feedback.empty())
        event["feedback"] = std::move(feedback);
    emit_(event);
    if (on_block_end_) on_block_end_(text, checked, b);
  }
  ended_ = std::max(ended_, blocks);
}

size_t StreamSession::finish() {
  const std::string_view text = parser_.text();
  CheckedDocument final_check =
      prefix_.empty() ? check_with_verified_fixes(text, options_)
                      : recheck_with_verified_fixes(prefix_, checked_, text, options_);
  // Blocks the streaming parse had not seen start (the last line had no newline) start now.
  for (; started_ < final_check.parsed.blocks.size(); ++started_)
    emit_(block_start_event(final_check.parsed.blocks[started_]));
  emit_settled(final_check, text, final_check.parsed.blocks.size(), text.size() + 1);
  const Summary summary = summarize(final_check);
  emit_({{"event", "done"}, {"summary", summary_json(summary)}});
  return summary.errors;
}

} // namespace blockls::cli
