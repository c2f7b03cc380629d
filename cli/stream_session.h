// The engine of `blockls stream`: a transcript fed in chunks as it arrives, reported as JSON
// events (docs/stream.md) the moment they are known — each block's `block_end` as soon as the
// line that closes it has been fed. The blocks and errors of all events, in order, are exactly
// those of `check --format json` on the whole input, for any chunking.
#pragma once

#include "diagnostics/check.h"
#include "grammar/router/document_parser.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace blockls::cli {

class StreamSession {
public:
  // `emit` receives each event as it is known.
  StreamSession(CheckOptions options, std::function<void(const nlohmann::json&)> emit);

  // Called right after each `block_end` event is emitted (before any later event): `block`
  // indexes `checked.parsed.blocks`, and the positions in `checked` are relative to `text`
  // (a prefix of the input that holds the whole block). `blockls stream --apply` hangs here.
  using BlockEndHook =
      std::function<void(std::string_view text, const CheckedDocument& checked, size_t block)>;
  void set_on_block_end(BlockEndHook hook) { on_block_end_ = std::move(hook); }

  // Appends `chunk` to the transcript and emits what the lines it completes settle.
  void feed(std::string_view chunk);
  // The input has ended: emits the blocks still open (as a whole check ends them), the errors
  // left, then `done` with the summary. Returns the number of error-severity diagnostics.
  size_t finish();

private:
  void emit_starts();
  // Checks the text up to `offset` (a resume point: every block before it is final) and emits
  // the blocks before `blocks` and the block-less errors before `offset`.
  void settle(size_t offset, size_t blocks);
  void emit_settled(const CheckedDocument& checked, std::string_view text, size_t blocks,
                    size_t offset);

  CheckOptions options_;
  std::function<void(const nlohmann::json&)> emit_;
  BlockEndHook on_block_end_;
  DocumentParser parser_;
  std::string prefix_;      // the text up to the last settled offset
  CheckedDocument checked_; // check of prefix_ (keeps the parser's list: incremental re-checks)
  size_t started_ = 0;      // blocks whose block_start was emitted
  size_t ended_ = 0;        // blocks whose block_end was emitted
  size_t loose_offset_ = 0; // block-less errors before it were emitted
};

} // namespace blockls::cli
