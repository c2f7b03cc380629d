// The engine of `blockls stream` (see stream_session.h). The text is checked in parts, each
// from one settled resume point to the next: a part's blocks and syntax diagnostics are those
// the streaming parse found there (final, as no block is open at a resume point), so each byte
// is parsed once and checked once, and a block's block_end costs the check of its own part.
#include "cli/stream_session.h"

#include "cli/feedback_report.h"
#include "fixits/verify_fixes.h"
#include "grammar/line_breaks.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace blockls::cli {

namespace {

// Appends to `*out` what a value's source lines hold of it: "\r\n" read as "\n" (unless raw),
// and each line's leading marker (an Add File's '+'), when it has one, dropped. `lines` may
// begin with the line break that ended the previous chunk's last line: the empty "line" before
// it has no marker. (Into a buffer the session reuses: a value_chunk allocates nothing.)
void value_text(std::string* out, std::string_view lines, bool raw, char marker) {
  if (!marker) {
    if (raw)
      out->append(lines);
    else
      append_crlf_to_lf(out, lines);
    return;
  }
  for (size_t pos = 0;;) {
    const size_t nl = lines.find('\n', pos);
    std::string_view line =
        lines.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!line.empty() && line.front() == marker) line.remove_prefix(1);
    if (nl == std::string_view::npos) {
      out->append(line);
      return;
    }
    if (!raw && line.ends_with('\r')) line.remove_suffix(1);
    out->append(line);
    *out += '\n';
    pos = nl + 1;
  }
}

// True when the value text of `lines` (see value_text) is `lines` itself: no line marker to
// drop and no "\r\n" to read as "\n" (most values). Their chunks are then taken from the text as
// it is, without a copy.
bool value_text_is_source(std::string_view lines, bool raw, char marker) {
  return !marker && (raw || lines.find('\r') == std::string_view::npos);
}

// `n` in decimal, as JsonWriter::number writes it.
void append_number(std::string* out, uint64_t n) {
  char digits[24];
  out->append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// Each dialect's name as a JSON string, escaped once (every block_start carries one).
std::string_view quoted_dialect_name(Dialect dialect) {
  static const std::array<std::string, kDialectCount + 1> quoted = [] {
    std::array<std::string, kDialectCount + 1> q;
    for (size_t d = 0; d <= kDialectCount; ++d)
      append_json_string(&q[d], dialect_name(static_cast<Dialect>(d)));
    return q;
  }();
  return quoted[static_cast<size_t>(dialect)];
}

} // namespace

StreamSession::StreamSession(CheckOptions options, Emit emit)
    : options_(std::move(options)), emit_(std::move(emit)), parser_(options_.parse) {
  options_.keep_parser_diagnostics = false;
  if (options_.parse.wide_line_index) lines_.widen();
}

// A chunk that completes no line (a quarter of the 64-byte reads of a transcript) leaves
// everything the parse has found as it was, and so every event: it is only stored.
void StreamSession::feed(std::string_view chunk) {
  const uint32_t lines_before = parser_.complete_lines();
  parser_.feed(chunk);
  if (parser_.complete_lines() == lines_before) return;
  const std::optional<OpenValue> open = parser_.open_value();
  const std::vector<Block>& blocks = parser_.blocks_so_far();
  // (Each step is skipped where it has nothing to do: at 64-byte reads this runs for three
  // reads in four, mostly with no value streaming and no block starting.)
  if (value_ || !closed_.empty()) close_value(open, blocks);
  const std::vector<ResumePoint>& points = parser_.resume_points_so_far();
  if (!points.empty() && points.back().offset > settled_.offset) settle_passed(points);
  if (started_ < blocks.size() || !held_.empty()) start_blocks(blocks.size());
  // (The open value is in the last block, after every resume point: its chunks follow the
  // block_end of every block before it.)
  if (open) stream_value(open, blocks);
}

// Settles each resume point the feed passed, in order, after the block_starts of the blocks
// before it: the events come in the order a feed per line gives (block_start 1, block_end 1,
// block_start 2...; with --apply a block is applied before the next one starts), whatever the
// chunking. A read of many lines checks a part per block, as reads of a line each do.
void StreamSession::settle_passed(const std::vector<ResumePoint>& points) {
  size_t first = points.size() - 1; // the first point not settled (usually the last one)
  while (first > 0 && points[first - 1].offset > settled_.offset)
    --first;
  for (size_t i = first; i < points.size(); ++i) {
    if (started_ < points[i].blocks || !held_.empty()) start_blocks(points[i].blocks);
    settle(points[i]);
  }
}

// block_starts up to block `end` (exclusive); the held errors follow the first block after
// the settled text (their verification windows end at its start).
void StreamSession::start_blocks(size_t end) {
  const std::vector<Block>& blocks = parser_.blocks_so_far();
  emit_starts(blocks, end);
  if (!held_.empty() && end > settled_.blocks) emit_held_early();
}

// Events are written as text, keys in sorted order (as dump_json wrote the nlohmann objects
// they were before): an event costs its bytes, not a tree of allocations. A block_start is put
// together by hand, as the JsonWriter writes an object on one line (no spaces): it is small
// and comes once per block, and the writer's calls cost more than its bytes.
void StreamSession::emit_starts(const std::vector<Block>& blocks, size_t end) {
  for (; started_ < end; ++started_) {
    const Block& block = blocks[started_];
    event_head_ = 0;
    event_.assign("{\"block_id\":");
    if (block.id.empty())
      event_.append("null");
    else
      append_json_string(&event_, block.id);
    event_.append(",\"dialect\":");
    event_.append(quoted_dialect_name(block.dialect));
    event_.append(",\"event\":\"block_start\",\"line\":");
    append_number(&event_, block.start_line + 1);
    event_.append(",\"partial\":true}");
    emit_({"block_start", event_});
  }
}

// A value's chunks differ only in their text, the last key: the event up to it (its head) is
// written into event_ once, and while the events that follow are chunks of the same value (most
// are: a value's lines arrive feed after feed), each is event_ cut back to the head, its text
// and the closing brace (no copy of the head, no allocation per value). Another event between
// them has the head written again. The head is put together by hand, as emit_starts() puts a
// block_start (a writer's calls cost more than its bytes).
void StreamSession::emit_value_chunk(const StreamedValue& v, std::string_view text) {
  if (text.empty()) return;
  if (event_head_ == v.serial) {
    event_.resize(event_head_size_);
  } else {
    event_.assign("{\"command\":");
    append_number(&event_, v.command);
    event_.append(",\"event\":\"value_chunk\",\"line\":");
    append_number(&event_, v.line + 1);
    event_.append(",\"param\":");
    append_json_string(&event_, v.param);
    event_.append(",\"partial\":true,\"text\":");
    event_head_ = v.serial;
    event_head_size_ = event_.size();
  }
  append_json_string(&event_, text);
  event_ += '}';
  emit_({"value_chunk", event_});
}

void StreamSession::close_value(const std::optional<OpenValue>& open,
                                const std::vector<Block>& blocks, bool at_end) {
  // Values closed earlier whose parameter did not exist yet (an XML directive builds its
  // parameters when it closes): their remainder goes out once it does.
  std::erase_if(closed_, [&](const StreamedValue& v) { return finish_value(v, blocks, at_end); });
  if (!value_) return;
  if (open && open->lines.begin == value_->begin && blocks.size() == value_->block + 1) return;
  if (!finish_value(*value_, blocks, at_end)) closed_.push_back(std::move(*value_));
  value_.reset();
}

// A closed value's last chunk: its parameter holds the final value, which begins with what was
// reported. False while the parameter does not exist yet and its block is still open (the
// parse may yet build it); true once done with it.
bool StreamSession::finish_value(const StreamedValue& v, const std::vector<Block>& blocks,
                                 bool at_end) {
  if (!v.reported) return true;
  const std::string_view text = parser_.text();
  const Block& block = blocks[v.block];
  if (v.command < block.commands.size()) {
    for (const Parameter& p : block.commands[v.command].params) {
      // (By where its value begins: a key given twice keeps its first line.)
      if (p.name != v.param || p.value_range.begin != v.begin) continue;
      const std::string_view lines = text.substr(v.begin, v.end - v.begin);
      const std::string_view final_value = p.value(text);
      if (v.source) {
        // (A parameter whose value is a view of the text at its lines begins with them when it is
        // as long: most values, whose lines are not compared again.)
        const bool begins = final_value.data() == lines.data() ? final_value.size() >= lines.size()
                                                               : final_value.starts_with(lines);
        if (begins) emit_value_chunk(v, final_value.substr(lines.size()));
        return true;
      }
      std::string& reported = value_text_;
      reported.clear();
      value_text(&reported, lines, v.raw, v.line_marker);
      if (v.final_break) reported += '\n';
      if (final_value.starts_with(reported))
        emit_value_chunk(v, final_value.substr(reported.size()));
      return true;
    }
  }
  const bool block_open = !at_end && blocks.size() == v.block + 1 && !block.end_line;
  return !block_open;
}

void StreamSession::stream_value(const std::optional<OpenValue>& open,
                                 const std::vector<Block>& blocks) {
  if (!open) return;
  if (!value_)
    value_ = StreamedValue{blocks.size() - 1,
                           open->command,
                           std::string(open->param),
                           open->line,
                           open->lines.begin,
                           open->lines.begin,
                           open->final_break,
                           open->raw,
                           open->line_marker,
                           false,
                           ++values_};
  if (value_->reported && open->lines.end <= value_->end) return;
  const std::string_view text = parser_.text();
  // The value so far is its lines' text ("\r\n" read as "\n") and, with final_break, a "\n":
  // what the new lines add starts after the line break that ended the last line reported.
  const size_t from = value_->reported ? value_->end : value_->begin;
  const std::string_view lines = text.substr(from, open->lines.end - from);
  const bool was_reported = value_->reported;
  value_->end = open->lines.end;
  value_->reported = true;
  value_->source = value_->source && !value_->final_break &&
                   value_text_is_source(lines, value_->raw, value_->line_marker);
  if (value_->source) {
    emit_value_chunk(*value_, lines);
    return;
  }
  std::string& added = value_text_;
  added.clear();
  value_text(&added, lines, value_->raw, value_->line_marker);
  if (value_->final_break) {
    if (was_reported) added.erase(0, 1); // the break reported as the final one
    added += '\n';
  }
  emit_value_chunk(*value_, added);
}

void StreamSession::settle(const ResumePoint& point) {
  const std::string_view text = std::string_view(parser_.text()).substr(0, point.offset);
  lines_.append_lines(parser_.lines_so_far(), settled_.line + 1, point.line + 1);
  // What the parse has seen to be ASCII: the part's check looks for invalid UTF-8 after it only.
  lines_.set_ascii_prefix(parser_.lines_so_far().ascii_prefix());
  // (Move-constructed from a document already moved from, whose lists hold no buffer: a
  // ParsedDocument() would allocate its line index's first start, freed again at once here.)
  ParsedDocument part(std::move(moved_from_));
  part.lines = std::move(lines_);
  // The part's blocks are final: moved out of the parse, not copied (and the vector's buffer is
  // the previous part's).
  part.blocks = std::move(spare_blocks_);
  parser_.take_blocks(settled_.blocks, point.blocks, &part.blocks);
  part.diagnostics.clear();
  parser_.take_diagnostics(settled_.diagnostics, point.diagnostics, &part.diagnostics);
  for (Diagnostic& d : part.diagnostics)
    if (d.block >= 0) d.block -= static_cast<int32_t>(settled_.blocks);
  const size_t begin = settled_.offset, first_block = settled_.blocks;
  settled_ = point;
  check_and_emit(text, std::move(part), begin, first_block);
}

// The line a loose diagnostic's verification window starts on (loose_fix_window).
static uint32_t loose_line(const CheckedDocument& checked, const Diagnostic& d) {
  return std::min(d.line, checked.parsed.lines.line_count() - 1);
}

// True when `d` (of the part `checked`) is a loose diagnostic whose fixes cannot be verified yet:
// no block of the part starts after its line, so its window (loose_fix_window) ends at the next
// block, which the stream has not read.
static bool awaits_next_block(const CheckedDocument& checked, const Diagnostic& d) {
  const std::vector<Block>& blocks = checked.parsed.blocks;
  return d.block < 0 && fix_needs_verifying(d) &&
         (blocks.empty() || blocks.back().start_line <= loose_line(checked, d));
}

// Where the held errors start among `tail` (the part's error events after its last block_end):
// all of them while earlier ones are held and the part has no block (check lists them after
// those), else from the first one that awaits the next block; none at the end of the input.
size_t StreamSession::held_from(const CheckedDocument& checked, const std::vector<size_t>& tail,
                                bool at_end) const {
  if (at_end) return tail.size();
  if (!held_.empty() && checked.parsed.blocks.empty()) return 0;
  for (size_t k = 0; k < tail.size(); ++k)
    if (awaits_next_block(checked, checked.diagnostics[tail[k]])) return k;
  return tail.size();
}

// Verifies the held errors' fixes now that their windows are known to end at `window_end` (the
// start of the next block, or the end of the input) and emits them, in order: check lists them
// before that block's diagnostics. `text`: the text read, at least up to `window_end`;
// `with_lines`: a check whose line index covers their lines and its text, `written`.
void StreamSession::emit_held(std::string_view text, std::string_view written,
                              const CheckedDocument& with_lines, size_t window_end) {
  if (held_.empty()) return;
  std::vector<LooseDiagnostic> waiting; // only those not verified yet, in order
  for (Held& h : held_)
    if (h.unverified) waiting.push_back(std::move(h.loose));
  verify_loose_fixes(text.substr(0, window_end), waiting, window_end, options_);
  for (size_t i = 0, w = 0; i < held_.size(); ++i) {
    const Diagnostic& d = held_[i].unverified ? waiting[w++].diagnostic : held_[i].loose.diagnostic;
    JsonWriter& writer = start_event();
    writer.begin_object();
    writer.key("error");
    write_diagnostic(writer, written, with_lines, d);
    writer.field("event", "error");
    // What to tell the model (a malformed header: the corrected lines; `text` holds them).
    if (std::string feedback = loose_feedback(text, d, options_); !feedback.empty())
      writer.field("feedback", feedback);
    writer.end_object();
    emit_({"error", event_});
  }
  held_.clear();
}

// The first block after the settled text has started: the held errors' windows end at its start,
// so they are verified and emitted now, before that block's own check (the work of a long
// window not added to its block_end's latency). They are written with the settled text's lines.
void StreamSession::emit_held_early() {
  const std::string_view text = parser_.text();
  CheckedDocument lines_only;
  lines_only.parsed.lines = std::move(lines_);
  emit_held(text, text.substr(0, settled_.offset), lines_only,
            parser_.blocks_so_far()[settled_.blocks].range.begin);
  lines_ = std::move(lines_only.parsed.lines);
}

void StreamSession::check_and_emit(std::string_view text, ParsedDocument part, size_t begin,
                                   size_t first_block, bool at_end) {
  CheckedDocument checked = check_part(text, std::move(part), begin, !utf8_reported_, options_);
  const ActionCatalog& catalog = options_.catalog ? *options_.catalog : ActionCatalog::builtin();
  const std::vector<Block>& blocks = checked.parsed.blocks;
  const std::vector<Diagnostic>& diagnostics = checked.diagnostics;
  // A block's errors go with its block_end, in check's order. A diagnostic outside every
  // block (invalid UTF-8) goes in an `error` event between the block_ends of the blocks whose
  // errors check lists around it — before the first of them that starts after its line — or,
  // when check lists it among one block's errors (invalid UTF-8 inside the block), with them.
  // So the errors of all events, in order, are check's.
  // (The lists are members whose buffers are reused: at small chunks a part is one block, and
  // allocating them per part cost more than filling them. Entries past `count` are stale.)
  const size_t count = blocks.size();
  const auto reset = [](std::vector<std::vector<size_t>>& lists, size_t n) {
    if (lists.size() < n) lists.resize(n);
    for (size_t i = 0; i < n; ++i)
      lists[i].clear();
  };
  std::vector<std::vector<size_t>>& errors_of = errors_of_;       // diagnostics, per block_end
  std::vector<std::vector<size_t>>& loose_before = loose_before_; // error events, per block_end
  reset(errors_of, count);
  reset(loose_before, count + 1);
  // The block of the next diagnostic that has one, from each index on (-1: none).
  std::vector<int32_t>& next_block = next_block_;
  next_block.assign(diagnostics.size() + 1, -1);
  for (size_t i = diagnostics.size(); i-- > 0;)
    next_block[i] = diagnostics[i].block >= 0 ? diagnostics[i].block : next_block[i + 1];
  int32_t previous = -1; // the block of the last diagnostic that had one
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = diagnostics[i];
    if (d.dialect == Dialect::none) utf8_reported_ = true;
    if (d.block >= 0) {
      errors_of[static_cast<size_t>(d.block)].push_back(i);
      previous = d.block;
      continue;
    }
    const int32_t next = next_block[i + 1];
    if (previous >= 0 && previous == next) {
      errors_of[static_cast<size_t>(previous)].push_back(i);
      continue;
    }
    size_t slot = static_cast<size_t>(previous + 1);
    const size_t limit = next >= 0 ? static_cast<size_t>(next) : count;
    while (slot < limit && blocks[slot].start_line <= d.line)
      ++slot;
    loose_before[slot].push_back(i);
  }
  // The error events after the part's last block_end, from the first one whose fix needs the
  // next block's start to be verified (loose_fix_window), are held until that start is known;
  // their fixes are taken out while the part's are verified.
  std::vector<size_t>& tail = loose_before[count];
  const size_t hold_from = held_from(checked, tail, at_end);
  std::vector<bool>& unverified = newly_unverified_;
  std::vector<std::vector<Fix>> taken; // the fixes of the unverified ones, in order
  unverified.assign(tail.size() - hold_from, false);
  for (size_t k = hold_from; k < tail.size(); ++k) {
    Diagnostic& d = checked.diagnostics[tail[k]];
    unverified[k - hold_from] = awaits_next_block(checked, d);
    if (unverified[k - hold_from]) taken.push_back(std::exchange(d.fixes, {}));
  }
  verify_fixes(text, checked, options_);
  if (count > 0 || at_end) // (feed emits them as soon as the block starts: rarely left here)
    emit_held(text, text, checked, count > 0 ? blocks.front().range.begin : text.size());
  for (size_t k = hold_from, t = 0; k < tail.size(); ++k) {
    const Diagnostic& d = checked.diagnostics[tail[k]];
    Held& h = held_.emplace_back(Held{{d, checked.parsed.lines.line_start(loose_line(checked, d))},
                                      unverified[k - hold_from]});
    if (h.unverified) h.loose.diagnostic.fixes = std::move(taken[t++]);
  }
  tail.resize(hold_from);
  std::optional<DiagnosticsByBlock> by_block; // for the feedback of the part's broken blocks
  for (size_t b = 0; b <= count; ++b) {
    for (size_t i : loose_before[b]) {
      JsonWriter& w = start_event();
      w.begin_object();
      w.key("error");
      write_diagnostic(w, text, checked, diagnostics[i]);
      w.field("event", "error");
      if (std::string feedback = loose_feedback(text, diagnostics[i], options_); !feedback.empty())
        w.field("feedback", feedback);
      w.end_object();
      emit_({"error", event_});
    }
    if (b == count) break;
    JsonWriter& w = start_event();
    w.begin_object();
    w.key("block");
    write_block(w, text, checked, b, catalog);
    w.key("errors");
    w.begin_array();
    for (size_t i : errors_of[b])
      write_diagnostic(w, text, checked, diagnostics[i]);
    w.end_array();
    w.field("event", "block_end");
    // What to tell the model about a broken block (the corrected block, when the fixes make one).
    if (!checked.verdicts[b].valid) {
      if (!by_block) by_block.emplace(checked); // once per part: it may hold many blocks
      if (std::string feedback =
              block_feedback(text, checked, b, first_block + b + 1, *by_block, options_);
          !feedback.empty())
        w.field("feedback", feedback);
    }
    w.end_object();
    emit_({"block_end", event_});
    if (on_block_end_) on_block_end_(text, checked, b);
  }
  summary_ += summarize(checked);
  lines_ = std::move(checked.parsed.lines); // back for the next part
  spare_blocks_ = std::move(checked.parsed.blocks);
  spare_blocks_.clear();
}

size_t StreamSession::finish() {
  ParsedDocument rest = parser_.finish();
  const std::string_view text = parser_.text();
  close_value(std::nullopt, rest.blocks, true);
  // Blocks the streaming parse had not seen start (the last line had no newline) start now.
  emit_starts(rest.blocks, rest.blocks.size());
  // What is left after the last settled point: its blocks and the syntax diagnostics found
  // after it, with block indices counted from its first block.
  rest.blocks.erase(rest.blocks.begin(), rest.blocks.begin() + settled_.blocks);
  rest.diagnostics.erase(rest.diagnostics.begin(), rest.diagnostics.begin() + settled_.diagnostics);
  for (Diagnostic& d : rest.diagnostics)
    if (d.block >= 0) d.block -= static_cast<int32_t>(settled_.blocks);
  rest.resume_points.clear();
  check_and_emit(text, std::move(rest), settled_.offset, settled_.blocks, true);
  JsonWriter& w = start_event();
  w.begin_object();
  w.field("event", "done");
  w.key("summary");
  write_summary(w, summary_);
  w.end_object();
  emit_({"done", event_});
  return summary_.errors;
}

} // namespace blockls::cli
