// The engine of `blockls stream`: a transcript fed in chunks as it arrives, reported as JSON
// events (docs/stream.md) the moment they are known — each block's `block_end` as soon as the
// line that closes it has been fed. The blocks and errors of all events, in order, are exactly
// those of `check --format json` on the whole input, for any chunking.
#pragma once

#include "diagnostics/check.h"
#include "diagnostics/json_report.h"
#include "fixits/verify_fixes.h"
#include "grammar/router/document_parser.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::cli {

// One event: its type ("block_start", "value_chunk", "block_end", "error", "done") and the event
// as one line of JSON (no line break). Both are valid during the emit call only.
struct StreamEvent {
  std::string_view type;
  std::string_view json;
};

class StreamSession {
public:
  using Emit = std::function<void(const StreamEvent& event)>;

  // Called right after each block_end is emitted: `block` indexes `checked.parsed.blocks`, and
  // the positions in `checked` are those of `text` (the transcript from its start up to the
  // end of the part that was checked). Both are valid during the call only.
  using BlockEndHook =
      std::function<void(std::string_view text, const CheckedDocument& checked, size_t block)>;

  // `emit` receives each event as it is known.
  StreamSession(CheckOptions options, Emit emit);

  void set_on_block_end(BlockEndHook hook) { on_block_end_ = std::move(hook); }

  // Appends `chunk` to the transcript and emits what the lines it completes settle.
  void feed(std::string_view chunk);
  // The input has ended: emits the blocks still open (as a whole check ends them), the errors
  // left, then `done` with the summary. Returns the number of error-severity diagnostics.
  size_t finish();

private:
  // A value whose lines arrive over several feeds, reported in value_chunk events.
  struct StreamedValue {
    size_t block = 0; // index of its block
    uint32_t command = 0;
    std::string param;
    uint32_t line = 0;        // 0-based
    size_t begin = 0;         // its first line's start (which value it is)
    size_t end = 0;           // the end of the last line reported
    bool final_break = false; // see OpenValue
    bool raw = false;         // see OpenValue
    char line_marker = 0;     // see OpenValue
    bool reported = false;    // a chunk up to `end` was emitted
    uint64_t serial = 0;      // which value it is, from 1 (see event_head_)
    // Every chunk so far was the source text itself (not final_break, value_text_is_source):
    // then so are its lines together, which finish_value() need not scan again.
    bool source = true;
  };

  // Clears event_ and returns the writer of its next event.
  JsonWriter& start_event() {
    event_.clear();
    event_head_ = 0;
    return writer_;
  }
  void emit_starts(const std::vector<Block>& blocks, size_t end);
  void start_blocks(size_t end);
  void settle_passed(const std::vector<ResumePoint>& points);
  // value_chunk events: the streamed value, if `open` is no longer it, has closed — its
  // remainder (the part of its value in `blocks` not reported yet) goes out; then what `open`
  // has added.
  // `at_end`: the input has ended (every block is final).
  void close_value(const std::optional<OpenValue>& open, const std::vector<Block>& blocks,
                   bool at_end = false);
  bool finish_value(const StreamedValue& value, const std::vector<Block>& blocks, bool at_end);
  void stream_value(const std::optional<OpenValue>& open, const std::vector<Block>& blocks);
  void emit_value_chunk(const StreamedValue& value, std::string_view text);
  // Checks the part of the text between the last settled resume point and `point` (every
  // block before it is final) and emits its blocks and errors.
  void settle(const ResumePoint& point);
  // Checks `part` (see check_part: what the parse found from `begin` on, up to the end of
  // `text`) and emits its blocks and errors, in check order — but for the errors after its
  // last block whose fixes' verification needs the next block (held_). `first_block`: the
  // blocks before the part (its blocks' feedback is numbered after them). `at_end`: the input
  // has ended (nothing is held any longer).
  void check_and_emit(std::string_view text, ParsedDocument part, size_t begin, size_t first_block,
                      bool at_end = false);
  size_t held_from(const CheckedDocument& checked, const std::vector<size_t>& tail,
                   bool at_end) const;
  void emit_held(std::string_view text, std::string_view written, const CheckedDocument& with_lines,
                 size_t window_end);
  void emit_held_early();

  CheckOptions options_;
  Emit emit_;
  std::string event_; // the text of the event being written (its buffer reused)
  // The serial of the value whose value_chunk head event_ begins with (0: none), so that its
  // next chunk writes only its text (see emit_value_chunk). Every other event resets it.
  uint64_t event_head_ = 0;
  size_t event_head_size_ = 0; // the length of that head
  uint64_t values_ = 0;        // values streamed so far (their serials)
  // Writes each event into event_: one writer for all of them (each event is one complete
  // value, after which the writer is back at the top level), so that an event does not
  // allocate the writer's list of open containers anew.
  JsonWriter writer_{&event_};
  std::string value_text_; // a value's text being reported (its buffer reused)
  BlockEndHook on_block_end_;
  DocumentParser parser_;
  // The line starts of the settled text (up to settled_.offset): lent to each part's check.
  LineIndex lines_;
  ResumePoint settled_;        // blocks and syntax diagnostics before it were emitted
  size_t started_ = 0;         // blocks whose block_start was emitted
  bool utf8_reported_ = false; // the document's one INVALID_UTF8 was emitted
  Summary summary_;            // of everything emitted
  // check_and_emit's lists (see there), kept for their buffers.
  std::vector<std::vector<size_t>> errors_of_, loose_before_;
  std::vector<int32_t> next_block_;
  // Loose errors (a malformed header) not emitted yet: the fix of one is verified on the text
  // up to the next block (fixits/verify_fixes.h, loose_fix_window), so it waits for that
  // block's start (or the end of the input), and the error events after it wait with it.
  struct Held {
    LooseDiagnostic loose;
    bool unverified = false; // its fixes wait for their window's end
  };
  std::vector<Held> held_;
  std::vector<bool> newly_unverified_; // check_and_emit's list (see there)
  std::vector<Block> spare_blocks_;    // the last part's block vector, empty (its buffer reused)
  ParsedDocument moved_from_;          // see settle(): only ever moved from
  std::optional<StreamedValue> value_;
  std::vector<StreamedValue> closed_; // closed values waiting for their parameter
};

} // namespace blockls::cli
