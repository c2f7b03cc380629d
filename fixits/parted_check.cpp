// Checking a text in parts (see parted_check.h).
#include "fixits/parted_check.h"

#include "fixits/verify_fixes.h"
#include "grammar/router/document_parser.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace blockls {

namespace {

// One part as the parse found it, between two resume points.
struct ParsedPart {
  ParsedDocument part;
  size_t begin = 0, end = 0;
};

// Where the parts come from: a PartParser on the calling thread, or one on a thread of its
// own that parses ahead (at most kAhead parts) while the calling thread checks, verifies and
// hands over the parts before. The parse is the larger half of the work and, carrying state
// from part to part, cannot itself be split; running it beside the rest is what a second core
// can do for one large input.
class PartSource {
public:
  PartSource(std::string_view text, const LineIndex& lines, const CheckOptions& options,
             size_t part_bytes, bool own_thread)
      : text_(text), options_(options), part_bytes_(std::max<size_t>(part_bytes, 1)) {
    if (!own_thread) {
      parser_.emplace(text, lines, options.parse);
      return;
    }
    // The parser's own copy of the index: the calling thread lends `lines` to each part.
    thread_lines_ = lines;
    thread_ = std::thread([this] { parse_ahead(); });
  }
  ~PartSource() {
    if (thread_.joinable()) {
      {
        const std::lock_guard lock(mutex_);
        stop_ = true;
      }
      changed_.notify_all();
      thread_.join();
    }
  }
  PartSource(const PartSource&) = delete;
  PartSource& operator=(const PartSource&) = delete;

  // The next part, nullopt after the last. Rethrows what the parsing thread threw.
  std::optional<ParsedPart> next() {
    if (parser_) {
      if (parser_->done()) return std::nullopt;
      return parse_one(*parser_);
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !ready_.empty() || finished_; });
    if (ready_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return std::nullopt;
    }
    ParsedPart p = std::move(ready_.front());
    ready_.pop_front();
    lock.unlock();
    changed_.notify_all();
    return p;
  }

private:
  static constexpr size_t kAhead = 4;

  ParsedPart parse_one(PartParser& parser) const {
    ParsedPart p;
    p.begin = parser.offset();
    p.part = parser.next(p.begin + part_bytes_);
    p.end = parser.offset();
    return p;
  }

  void parse_ahead() {
    try {
      PartParser parser(text_, thread_lines_, options_.parse);
      while (!parser.done()) {
        ParsedPart p = parse_one(parser);
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || ready_.size() < kAhead; });
        if (stop_) break;
        ready_.push_back(std::move(p));
        lock.unlock();
        changed_.notify_all();
      }
    } catch (...) {
      const std::lock_guard lock(mutex_);
      error_ = std::current_exception();
    }
    {
      const std::lock_guard lock(mutex_);
      finished_ = true;
    }
    changed_.notify_all();
  }

  std::string_view text_;
  const CheckOptions& options_;
  size_t part_bytes_;
  std::optional<PartParser> parser_; // when parsing on the calling thread
  LineIndex thread_lines_;
  std::thread thread_;
  std::mutex mutex_; // guards what follows
  std::condition_variable changed_;
  std::deque<ParsedPart> ready_;
  bool stop_ = false, finished_ = false;
  std::exception_ptr error_;
};

} // namespace

// A part is checked as soon as it is parsed, but its fixes can only be verified once the start
// of the next block is known: the fix of a diagnostic outside every block is verified on the
// text from its line to the start of the next block (fixits/verify_fixes.h, loose_fix_window),
// and after a part's last block that block is in a later part. So each part waits, checked,
// until a later part with a block has been parsed — usually the next one — and is then
// verified on the text up to that block's start, which gives every window of the part exactly
// the bounds the whole check gives it. (A block's own window ends with the block.)
size_t check_in_parts(std::string_view text, LineIndex& lines, const CheckOptions& options,
                      size_t part_bytes,
                      const std::function<bool(const CheckedDocument& part)>& on_part,
                      unsigned threads) {
  // A parse observer is the caller's, told of blocks on the caller's thread; and a text of
  // one part has nothing to run beside its parse.
  const bool parse_ahead =
      threads > 1 && !options.parse.observer && text.size() > std::max<size_t>(part_bytes, 1);
  PartSource source(text, lines, options, part_bytes, parse_ahead);
  std::deque<CheckedDocument> waiting; // checked, fixes not verified yet
  bool utf8_found = false;             // the document's INVALID_UTF8 was reported
  bool stopped = false;
  size_t handed = 0;
  // Verifies and hands over the waiting parts; `window_end`: the start of the first block
  // after them (the text's end when there is none).
  const auto hand_over = [&](size_t window_end) {
    while (!waiting.empty() && !stopped) {
      CheckedDocument& part = waiting.front();
      part.parsed.lines = std::move(lines);
      verify_fixes(text.substr(0, window_end), part, options);
      stopped = !on_part(part);
      ++handed;
      lines = std::move(part.parsed.lines);
      waiting.pop_front(); // its model is let go here
    }
  };
  while (!stopped) {
    std::optional<ParsedPart> next = source.next();
    if (!next) break;
    ParsedDocument part = std::move(next->part);
    part.lines = std::move(lines);
    // (On the text up to the part's end: INVALID_UTF8 is looked for in the part alone.)
    CheckedDocument checked =
        check_part(text.substr(0, next->end), std::move(part), next->begin, !utf8_found, options);
    lines = std::move(checked.parsed.lines);
    utf8_found =
        utf8_found || std::any_of(checked.diagnostics.begin(), checked.diagnostics.end(),
                                  [](const Diagnostic& d) { return d.dialect == Dialect::none; });
    if (!checked.parsed.blocks.empty()) hand_over(checked.parsed.blocks.front().range.begin);
    waiting.push_back(std::move(checked));
  }
  hand_over(text.size());
  return handed;
}

} // namespace blockls
