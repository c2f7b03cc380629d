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
#include <system_error>
#include <thread>

namespace blockls {
namespace {

// A parsed part, as PartParser::next gives it, with where it began and ended.
struct ParsedPart {
  ParsedDocument parsed;
  size_t begin = 0, end = 0;
};

// Where the parts come from: the parser itself on the calling thread, or (pipelined) a thread
// of its own that parses ahead while the caller checks, verifies and reports the parts before.
// Either way the parts carry `lines` (check_part and the reports read a part's own index)
// while the parser reads the index's storage, which moving the index object leaves in place
// (PartParser). Only an observer, told of each block with the index object on the parser
// thread, needs an object of its own there: a copy.
class PartSource {
public:
  PartSource(std::string_view text, LineIndex& lines, const ParseOptions& options,
             size_t part_bytes, bool pipelined)
      : part_bytes_(std::max<size_t>(part_bytes, 1)),
        observed_(pipelined && options.observer ? lines : LineIndex()),
        parser_(text, pipelined && options.observer ? observed_ : lines, options) {
    if (!pipelined) return;
    try {
      thread_ = std::thread([this] { parse_ahead(); });
    } catch (const std::system_error&) {
      // No thread to be had (a limit on threads): the parts are parsed here, as without one.
    }
  }
  ~PartSource() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  PartSource(const PartSource&) = delete;
  PartSource& operator=(const PartSource&) = delete;

  // The next part, nullopt after the last. Rethrows what the parser thread threw.
  std::optional<ParsedPart> next() {
    if (!thread_.joinable()) {
      if (parser_.done()) return std::nullopt;
      return parse_one();
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !ready_.empty() || finished_; });
    if (ready_.empty()) {
      if (failure_) std::rethrow_exception(failure_);
      return std::nullopt;
    }
    std::optional<ParsedPart> part = std::move(ready_.front());
    ready_.pop_front();
    changed_.notify_all();
    return part;
  }

private:
  // Parsed parts that may wait for the caller: with the one being parsed, enough to keep the
  // parser busy while a part is reported (two were no faster), and memory still follows a
  // few parts, not the document (peak RSS of a 40 MB check: +1 MB over the serial check).
  static constexpr size_t kAhead = 1;

  ParsedPart parse_one() {
    ParsedPart part;
    part.begin = parser_.offset();
    part.parsed = parser_.next(part.begin + part_bytes_);
    part.end = parser_.offset();
    return part;
  }

  void parse_ahead() {
    try {
      for (;;) {
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return ready_.size() < kAhead || stopped_; });
          if (stopped_ || parser_.done()) break;
        }
        ParsedPart part = parse_one(); // (outside the lock: the checker goes on meanwhile)
        std::lock_guard lock(mutex_);
        ready_.push_back(std::move(part));
        changed_.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      failure_ = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    finished_ = true;
    changed_.notify_all();
  }

  size_t part_bytes_;
  LineIndex observed_; // the parser's own index, for an observer on its thread
  PartParser parser_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ParsedPart> ready_;
  bool stopped_ = false, finished_ = false;
  std::exception_ptr failure_;
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
                      bool pipelined) {
  PartSource source(text, lines, options.parse, part_bytes, pipelined);
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
    std::optional<ParsedPart> part = source.next();
    if (!part) break;
    part->parsed.lines = std::move(lines);
    // (On the text up to the part's end: INVALID_UTF8 is looked for in the part alone.)
    CheckedDocument checked = check_part(text.substr(0, part->end), std::move(part->parsed),
                                         part->begin, !utf8_found, options);
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
