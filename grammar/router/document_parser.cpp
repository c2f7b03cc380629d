// Routes each complete line to the dialect that owns it: the open block's dialect, or,
// outside blocks, whichever registered dialect recognises a start line (grammar/dialects.h).
// Also tracks Markdown fences in prose so end-marker fixes can be placed before a fence's
// closing line.
#include "grammar/router/document_parser.h"

#include "grammar/byte_search.h"
#include "grammar/bytes.h"
#include "grammar/dialects.h"
#include "grammar/markdown_fence.h"
#include "grammar/router/element_ranges.h"
#include "grammar/shell_heredoc.h"
#include "grammar/text_buffer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>

namespace blockls {
namespace {

// The table of ProseFilter for lines at column 0 (or, `indented`, after blanks): per first
// byte, 0 when it begins no start prefix and no fence, 1 when it always may, else the second
// byte that a prefix needs.
constexpr std::array<uint8_t, 256> prose_table(bool indented) {
  std::array<uint8_t, 256> t{};
  const auto mark = [&](unsigned c, uint8_t need) {
    // Two prefixes on one first byte with different second bytes: never plain.
    t[c] = t[c] == 0 ? need : t[c] == need ? need : 1;
  };
  for (unsigned c = 0; c < 256; ++c)
    if (c == '`' || c == '~' || c == ' ' || c == '\t') t[c] = 1; // fences (maybe indented)
  for (const DialectInfo* info : kDialectInfos) {
    if (info->starts_after_whitespace)
      for (unsigned c = 0; c < 256; ++c)
        if (c <= ' ' || c >= 0x80) t[c] = 1;
    for (const StartPrefix& p : info->starts) {
      if (indented && !p.may_be_indented) continue;
      if (p.tail != LineTail::any) continue; // see tail_table()
      mark(static_cast<unsigned char>(p.first),
           p.second == '\0' ? uint8_t{1} : static_cast<uint8_t>(p.second));
    }
  }
  return t;
}

// The table of ProseFilter's second stage: per first byte (at column 0, or after blanks), true
// when a prefix begins with it that a start line has only with a heredoc operator at its end.
constexpr std::array<bool, 256> tail_table(bool indented) {
  std::array<bool, 256> t{};
  for (const DialectInfo* info : kDialectInfos)
    for (const StartPrefix& p : info->starts)
      if (p.tail == LineTail::heredoc_operator && (!indented || p.may_be_indented))
        t[static_cast<unsigned char>(p.first)] = true;
  return t;
}

// The table of ProseFilter's last stage: per last byte of a line, true when a dialect's start
// may follow text on a line that ends with it (DialectInfo::mid_line_end), and, when any may,
// for the trailing blanks such a line may end with.
constexpr std::array<bool, 256> line_end_table() {
  std::array<bool, 256> t{};
  for (const DialectInfo* info : kDialectInfos)
    if (info->mid_line_end != '\0') {
      t[static_cast<unsigned char>(info->mid_line_end)] = true;
      t[' '] = t['\t'] = t['\r'] = true;
    }
  return t;
}

// The prose filter, built from every registered dialect's start prefixes (see StartPrefix)
// and the Markdown fence's own (`` ` ``, `~`, and the blanks of an indented fence).
class ProseFilter {
public:
  // True when a line outside blocks that starts with `first`, `second` (`second` is neither
  // a prefix's second byte nor anything else meaningful when the line has one byte) can be
  // nothing but prose: no dialect's start line, no fence. By table and without a branch.
  static bool plain_start(char first, char second) {
    const uint8_t need = kColumn0[static_cast<unsigned char>(first)];
    // 0: plain; 1: never plain; else plain unless `second` is that byte.
    return (need == 0) | ((need > 1) & (static_cast<uint8_t>(second) != need));
  }
  // The same for the first byte after `lead` > 0 blanks (prefixes that may be indented).
  static bool plain_after_blanks(char first, char second) {
    const uint8_t need = kIndented[static_cast<unsigned char>(first)];
    return (need == 0) | ((need > 1) & (static_cast<uint8_t>(second) != need));
  }
  // The second stage, for a line the first stage found plain: false when its first byte (at
  // column 0 unless `indented`) begins a prefix with a LineTail and the line of `n` bytes at
  // `p` may end so. Only the line's last word is read: prose stays cheap.
  static bool plain_tail(char first, bool indented, const char* p, size_t n) {
    const bool tail = (indented ? kTailIndented : kTailColumn0)[static_cast<unsigned char>(first)];
    return !tail || !shell::may_end_with_operator(p, n);
  }
  // The last stage, for any line the others found plain: false when its last byte (`last`) may
  // end a line on which a start follows other text (see line_end_table()).
  static bool plain_end(char last) { return !kLineEnd[static_cast<unsigned char>(last)]; }

private:
  static constexpr std::array<bool, 256> kLineEnd = line_end_table();
  static constexpr std::array<bool, 256> kTailColumn0 = tail_table(false);
  static constexpr std::array<bool, 256> kTailIndented = tail_table(true);
  static constexpr std::array<uint8_t, 256> kColumn0 = prose_table(false);
  static constexpr std::array<uint8_t, 256> kIndented = prose_table(true);
};

// The line-routing core shared by the streaming and the one-shot entry points. It knows no
// dialect: it asks the registered grammars (grammar/dialects.h) about each line.
class LineRouter {
public:
  explicit LineRouter(ParseOptions options) : options_(options) {
    doc_.arena = std::make_unique<Arena>();
  }

  // The lines that need no general routing, from the cursor's current line on, for as long
  // as there are such lines: the runs and fast lines of prose (take_prose_run(),
  // prose_fast_line()) and of the open block's dialect (dialect_lines()). Each taken line has
  // exactly the effect on_line() would have. Returns false when the cursor ran out of lines
  // (or its caller ended the loop), true when it stopped at a line none of them takes (then
  // on_line() must route it). A cursor hands out complete lines, so a line's break may be
  // read.
  template <typename Cursor> bool take_lines(std::string_view text, Cursor& lines) {
    for (;;) {
      switch (mode_) {
      case Mode::dialect: {
        // One dispatch on the dialect for all the lines its fast path takes in a row.
        const RunEnd stop =
            with_grammar(grammars_, open_, [&](auto& g) { return dialect_lines(g, text, lines); });
        if (stop != RunEnd::mode_changed) return stop == RunEnd::general_line;
        break; // the block closed: go on in the new mode
      }
      case Mode::prose:
        if (!take_prose_run(text, lines)) return false;
        if (!prose_fast_line(text, lines.begin(), lines.end())) return true;
        if (!lines.advance()) return false;
        break;
      case Mode::general:
        return true;
      }
    }
  }

  // Any line, by the full rules.
  void on_line(std::string_view text, const LineRef& line) {
    route(text, without_bom(line));
    update_mode();
    // (Only general lines make diagnostics: the runs and fast paths take what is no syntax.)
    if (doc_.diagnostics.size() > options_.max_diagnostics) [[unlikely]]
      throw DiagnosticLimitReached{line.next};
  }

  // A UTF-8 byte order mark (EF BB BF) at the start of the text belongs to no dialect: the
  // first line is routed from the byte after it, so that a block can start on it. Offsets stay
  // those of the text (such a block's range begins at byte 3, its start column counts the mark
  // as one UTF-16 unit). Only on_line() needs this: the first line always comes here (the mode
  // starts as general, which no run or fast path takes).
  static LineRef without_bom(const LineRef& line) {
    if (line.begin != 0 || !line.text.starts_with("\xEF\xBB\xBF")) return line;
    LineRef rest = line;
    rest.begin += 3;
    rest.text.remove_prefix(3);
    return rest;
  }

  // Continues a parse at `point` (see ResumePoint), given the blocks before it. The document
  // built from here on numbers its blocks from 0; resume points keep absolute counts.
  void resume(std::string_view text, const ResumePoint& point, const std::vector<Block>& earlier) {
    fence_.restore(point.fence_open, point.fence_marker, point.fence_length);
    for_each_grammar(grammars_, [&](auto& g) {
      g.restore(point.dialect_state[static_cast<size_t>(g.info.id)], text, earlier, point.blocks);
    });
    base_blocks_ = point.blocks;
    base_diagnostics_ = point.diagnostics;
    point_blocks_ = point.blocks;
    earlier_blocks_end_ = point.blocks > 0 ? earlier[point.blocks - 1].range.end : 0;
  }

  ParsedDocument finish(std::string_view text, uint32_t line_count) {
    ParseContext ctx{text, &doc_, fence_.open(), earlier_blocks_end_};
    for_each_grammar(grammars_, [&](auto& g) { g.finish(ctx, line_count); });
    if (track_closed_) notify_closed(text, doc_.blocks.size());
    return std::move(doc_);
  }

  // Seals each block as it closes (see seal_block) and tells options.observer of it (see
  // BlockObserver); `lines` must index the text as far as it has been routed.
  void observe_with(const LineIndex& lines) {
    track_closed_ = true;
    observer_ = options_.observer;
    observed_lines_ = &lines;
  }
  // Seals each block as it closes, without an observer.
  void seal_closed_blocks() { track_closed_ = true; }
  // After a line that may have closed a block (not needed after a run, which closes none,
  // nor after a fast line that did not end one).
  void after_routed_line(std::string_view text) {
    if (!track_closed_) return;
    // Only the last block can still be open (block_open_: update_mode() ran after the line).
    const size_t closed = doc_.blocks.size() - (block_open_ && !doc_.blocks.empty() ? 1 : 0);
    if (closed > notified_) notify_closed(text, closed);
  }

  ParsedDocument& doc() { return doc_; }
  const ParsedDocument& doc() const { return doc_; }

  // At a resume point (no block open, nothing pending: every block found so far is final),
  // hands over what the parse found since the last hand-over — blocks, syntax diagnostics and
  // the arena they use — and goes on with an empty document whose blocks are numbered from 0
  // again (resume points keep absolute counts, as after resume()). The dialects' cross-block
  // state (ids seen, paths written) stays: it holds no reference into the blocks.
  ParsedDocument take_settled() {
    ParsedDocument part;
    // (A start line after them still looks back no further than their end.)
    if (!doc_.blocks.empty()) earlier_blocks_end_ = doc_.blocks.back().range.end;
    part.arena = std::move(doc_.arena);
    part.blocks = std::move(doc_.blocks);
    part.diagnostics = std::move(doc_.diagnostics);
    base_blocks_ += static_cast<uint32_t>(part.blocks.size());
    base_diagnostics_ += static_cast<uint32_t>(part.diagnostics.size());
    doc_ = ParsedDocument();
    doc_.arena = std::make_unique<Arena>();
    notified_ = 0;
    return part;
  }
  // Room in the document for a part of about `bytes` bytes (see expect_text_bytes).
  void expect_part_bytes(size_t bytes) {
    doc_.blocks.reserve(bytes / 640);
    doc_.diagnostics.reserve(bytes / 2048);
  }
  // The dialects' hint alone (the cross-block state of a text of `bytes` bytes).
  void expect_dialect_bytes(size_t bytes) {
    for_each_grammar(grammars_, [&](auto& g) { g.expect_text_bytes(bytes); });
  }
  // The open block's value whose lines are arriving, when its grammar knows value lines (an
  // optional `open_value(doc)`, see OpenValue).
  std::optional<OpenValue> open_value() const {
    // A streaming session asks after every line-completing read (at 64-byte reads, most of
    // them in prose): the routing mode already says when no block is open.
    if (mode_ == Mode::prose) return std::nullopt;
    std::optional<OpenValue> value;
    if (mode_ == Mode::dialect) { // the open block's grammar is known: no grammar asked in turn
      for_each_grammar(grammars_, [&](const auto& g) {
        using G = std::remove_cvref_t<decltype(g)>;
        if constexpr (requires { g.open_value(doc_); })
          if (G::info.id == open_) value = g.open_value(doc_);
      });
      return value;
    }
    for_each_grammar(grammars_, [&](const auto& g) {
      if constexpr (requires { g.open_value(doc_); })
        if (!value && g.in_block()) value = g.open_value(doc_);
    });
    return value;
  }
  // A hint for a one-shot parse: the text has `bytes` bytes. Blocks and resume points get
  // room for one block per 640 bytes (a transcript dense with blocks has about one per 700),
  // so that their vectors are not moved as they grow.
  void expect_text_bytes(size_t bytes) {
    for_each_grammar(grammars_, [&](auto& g) { g.expect_text_bytes(bytes); });
    doc_.blocks.reserve(bytes / 640);
    doc_.resume_points.reserve(bytes / 640);
    // Diagnostics: room for one per 2 KiB (a transcript has about one per 4 KiB), so that
    // they are not moved as the list grows.
    doc_.diagnostics.reserve(bytes / 2048);
  }

private:
  static constexpr size_t npos = std::string_view::npos;

  // Why dialect_lines() ended its loop.
  enum class RunEnd : uint8_t {
    no_more_lines, // the cursor ran out of lines (or its caller ended the loop)
    general_line,  // at a line the fast path does not take: on_line() must route it
    mode_changed,  // after a line that closed the block (the cursor is on the next line)
  };

  // The lines the open block's grammar `g` takes without the general routing, from the
  // cursor's current line on: its runs (value lines, heredoc bodies: take_run), then, at the
  // line a run stops at, its fast path (exact delimiters, plain assignments, end markers:
  // fast_line), and so on while it takes lines. The grammar is known here, so the loop holds
  // no dispatch on the mode or the dialect per line.
  template <typename G, typename Cursor>
  RunEnd dialect_lines(G& g, std::string_view text, Cursor& lines) {
    const FenceWatch fences{&fence_, fence_watch_}; // fixed until the block closes
    // Fixed as well: the fence is observed in prose only, and no line moves the earlier end.
    ParseContext ctx{text, &doc_, fence_.open(), earlier_blocks_end_};
    for (;;) {
      if (!g.take_run(text, lines, fences)) return RunEnd::no_more_lines;
      const LineRef line = lines.line();
      const FastLine r = g.fast_line(text, line, ctx, fences);
      if (r == FastLine::not_taken) return RunEnd::general_line;
      if (r == FastLine::closed) {
        after_line(line);
        update_mode();
        after_routed_line(text); // the block closed
        return lines.advance() ? RunEnd::mode_changed : RunEnd::no_more_lines;
      }
      if (!lines.advance()) return RunEnd::no_more_lines;
    }
  }

  // Prose no dialect can claim, taken in a run that keeps its state in registers. Returns
  // false when the cursor ran out of lines, true when it stopped at a line the run did not
  // take (then prose_fast_line() and, failing that, on_line() must route it).
  template <typename Cursor> bool take_prose_run(std::string_view text, Cursor& lines) {
    size_t last = npos;
    bool more = true;
    while (is_plain_line_before_break(text.data() + lines.begin(), lines.end() - lines.begin())) {
      last = lines.begin();
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (last != npos) note_prose_line(last);
    return more;
  }

  // A prose line the run did not take that still needs no general routing: a fence line no
  // dialect claims, or a line whose first non-blank byte begins nothing. Returns false, having
  // done nothing, for every other line (then on_line() must run). The line [begin, end) has
  // its break. Out of line, so that the hot loop stays small.
  [[gnu::noinline]] bool prose_fast_line(std::string_view text, size_t begin, size_t end) {
    const std::string_view t(text.data() + begin, end - begin);
    // (Most such lines begin with a fence's backtick: no blanks to count.)
    const size_t lead =
        !t.empty() && t[0] != ' ' && t[0] != '\t' ? 0 : blank_run(t.data(), t.data() + t.size());
    if (lead < t.size()) {
      const unsigned char c = static_cast<unsigned char>(t[lead]);
      if ((c == '`' || c == '~') && ProseFilter::plain_end(t.back())) {
        // A fence line no dialect claims (nor, indented, a TELT delimiter; nor a line on
        // which a start may follow text, such as inline code and then a directive).
        fence_.observe(t);
      } else if (!is_plain_after_blanks(t, lead)) {
        return false;
      }
    }
    note_prose_line(begin);
    return true;
  }

  // What take_lines() may take on: set after every on_line() (the lines it takes change
  // nothing it depends on, or they set it themselves). `dialect`: the open
  // block's grammar (open_) has a fast path for its state.
  enum class Mode : uint8_t { general, prose, dialect };

  bool enabled(Dialect d) const { return options_.dialects.contains(d); }

  // A block of some dialect is open (no branch: every test is cheap).
  bool in_block() const {
    bool open = false;
    for_each_grammar(grammars_, [&](const auto& g) { open = open | g.in_block(); });
    return open;
  }

  // Every dialect's note_prose_line() (see DialectGrammar).
  void note_prose_line(size_t begin) {
    for_each_grammar(grammars_, [&](auto& g) { g.note_prose_line(begin); });
  }

  void update_mode() {
    fence_watch_ = open_block_fenced_ && !doc_.blocks.empty() &&
                   !doc_.blocks.back().fence_close_line && fence_.open();
    bool open = false, fast = false;
    for_each_grammar(grammars_, [&](auto& g) {
      if (open || !g.in_block()) return;
      open = true;
      open_ = g.info.id;
      fast = g.enter_fast_mode(doc_);
    });
    block_open_ = open;
    if (open) {
      mode_ = fast ? Mode::dialect : Mode::general;
      return;
    }
    bool quiet = true;
    for_each_grammar(grammars_, [&](const auto& g) {
      quiet = quiet && (!enabled(g.info.id) || g.quiet_outside());
    });
    mode_ = quiet ? Mode::prose : Mode::general;
  }

  // Outside blocks, a line whose first non-blank byte (at `lead`) begins no dialect's start
  // line (at column 0, or indented for the prefixes that may be) nor a Markdown fence: prose
  // for every dialect.
  static bool is_plain_after_blanks(std::string_view t, size_t lead) {
    const char second = lead + 1 < t.size() ? t[lead + 1] : '\0';
    return (lead == 0 ? ProseFilter::plain_start(t[0], second)
                      : ProseFilter::plain_after_blanks(t[lead], second)) &&
           ProseFilter::plain_tail(t[lead], lead > 0, t.data(), t.size()) &&
           ProseFilter::plain_end(t.back());
  }

  void route(std::string_view text, const LineRef& line) {
    ParseContext ctx{text, &doc_, fence_.open(), earlier_blocks_end_};
    if (!in_block() && is_plain_line(line.text)) {
      // Prose that no dialect can claim and that cannot open or close a fence.
      for_each_grammar(grammars_, [&](auto& g) {
        if (enabled(g.info.id)) g.on_prose_line(line, ctx);
      });
      open_block_fenced_ = false;
      if (busy_) note_busy(line); // a pending header may have been resolved
      return;
    }
    if (open_block_fenced_ && doc_.blocks.size() > 0 && !doc_.blocks.back().fence_close_line &&
        fence_.closes(line.text)) {
      doc_.blocks.back().fence_close_line = line.number;
    }
    // The open block's dialect takes the line, unless it can yield and another enabled
    // dialect's start line interrupts it: then the block is left unclosed and the line is
    // offered as a start line below.
    bool seen_open = false, taken = false;
    for_each_grammar(grammars_, [&](auto& g) {
      if (seen_open || !g.in_block()) return;
      seen_open = true;
      if (g.can_yield() && interrupted_by_other(g.info.id, line.text)) {
        g.yield_to_foreign_start(line, ctx);
        return;
      }
      g.on_line(line, ctx);
      taken = true;
      // A dialect whose block ended at a line it does not own (xml: prose or another
      // dialect's start line after an unclosed directive) hands the line back.
      if constexpr (requires { g.take_declined_line(); }) taken = !g.take_declined_line();
    });
    if (taken) {
      after_line(line);
      return;
    }
    if (seen_open) note_boundary(line); // the open block ended before this line
    const size_t blocks_before = doc_.blocks.size();
    bool claimed = false;
    for_each_grammar(grammars_, [&](auto& g) {
      if (!claimed && enabled(g.info.id)) claimed = g.try_start(line, ctx);
    });
    if (claimed && doc_.blocks.size() > blocks_before) {
      open_block_fenced_ = fence_.open();
    } else if (!claimed) {
      fence_.observe(line.text);
    }
    after_line(line);
  }

  // True when an enabled dialect other than `open` has `line` as a start line that
  // interrupts a foreign block.
  bool interrupted_by_other(Dialect open, std::string_view line) const {
    bool yes = false;
    for_each_grammar(grammars_, [&](const auto& g) {
      using G = std::remove_cvref_t<decltype(g)>;
      yes = yes || (g.info.id != open && enabled(g.info.id) && G::interrupts(line));
    });
    return yes;
  }

  // True when the line is empty or starts with bytes that begin no dialect's start line and
  // no Markdown fence (see ProseFilter). Outside blocks such a line is plain prose for every
  // dialect (Markdown headings and bullet lists included).
  static bool is_plain_line(std::string_view line) {
    return line.empty() || (ProseFilter::plain_start(line[0], line.size() > 1 ? line[1] : '\0') &&
                            ProseFilter::plain_tail(line[0], false, line.data(), line.size()) &&
                            ProseFilter::plain_end(line.back()));
  }

  // is_plain_line() for a line of `n` bytes at `p` that is followed by its line break (so
  // p[n] may be read), without a branch: which prose line is plain is unpredictable.
  static bool is_plain_line_before_break(const char* p, size_t n) {
    // p[1]: the break of a 1-byte line. The tail is read only for a line the table finds
    // plain (a branch: most prose lines begin with a letter, few end with `<< MARK`).
    if (n == 0) return true;
    return ProseFilter::plain_start(p[0], p[1]) && ProseFilter::plain_tail(p[0], false, p, n) &&
           ProseFilter::plain_end(p[n - 1]);
  }

  void after_line(const LineRef& line) {
    if (!note_busy(line)) open_block_fenced_ = false;
  }

  // Records a resume point at the start of `line` when the open block ended before it (the
  // line is offered as a start line next) and nothing else is open or pending. Without it, a
  // chain of blocks each ended by the next one's start line had no resume point at all: the
  // stream reported none of them before the input ended and an edit re-parsed the whole chain.
  void note_boundary(const LineRef& line) {
    unsigned busy_bits = 0;
    for_each_grammar(grammars_, [&](const auto& g) {
      busy_bits |= static_cast<unsigned>(g.in_block()) | static_cast<unsigned>(g.pending());
    });
    if (busy_bits != 0) return;
    const auto& points = doc_.resume_points;
    if (!points.empty() && points.back().offset >= line.begin) return;
    // Only when what the parse found so far lies before the line: a grammar that ended its
    // block at a line it had begun to read (an XML directive that took a parameter from it)
    // leaves no point there (a part ending at it would cut that parameter off).
    if (!doc_.blocks.empty() && !refers_within(doc_.blocks.back(), 0, line.begin)) return;
    const size_t first_diagnostic =
        points.empty()
            ? 0
            : std::max<size_t>(points.back().diagnostics, base_diagnostics_) - base_diagnostics_;
    for (size_t d = first_diagnostic; d < doc_.diagnostics.size(); ++d)
      if (!refers_within(doc_.diagnostics[d], 0, line.begin)) return;
    record_point(line.begin, line.number).before_start = true;
    // As a parse resumed here begins: nothing open before this line (else the line after it
    // would record a second point that such a parse does not).
    busy_ = false;
  }

  ResumePoint& record_point(size_t offset, uint32_t line_number) {
    ResumePoint p;
    p.offset = offset;
    p.line = line_number;
    p.blocks = base_blocks_ + static_cast<uint32_t>(doc_.blocks.size());
    p.diagnostics = base_diagnostics_ + static_cast<uint32_t>(doc_.diagnostics.size());
    p.fence_open = fence_.open();
    if (p.fence_open) { // a closed fence's last marker is irrelevant
      p.fence_marker = fence_.marker();
      p.fence_length = static_cast<uint32_t>(fence_.length());
    }
    for_each_grammar(grammars_, [&](const auto& g) {
      p.dialect_state[static_cast<size_t>(g.info.id)] = g.snapshot();
    });
    point_blocks_ = p.blocks;
    return doc_.resume_points.emplace_back(p);
  }

  // Records a resume point at the line after `line` when a block or a pending header has
  // just ended there (about one point per block, and none inside blocks). Returns in_block().
  bool note_busy(const LineRef& line) {
    // Branch-free over the grammars: ints, since clang rejects `|` on bools.
    unsigned open_bits = 0, pending_bits = 0;
    for_each_grammar(grammars_, [&](const auto& g) {
      open_bits |= static_cast<unsigned>(g.in_block());
      pending_bits |= static_cast<unsigned>(g.pending());
    });
    const bool busy = (open_bits | pending_bits) != 0;
    // (Or a block opened and closed on this line: a one-line XML directive is final at once.)
    const uint32_t blocks = base_blocks_ + static_cast<uint32_t>(doc_.blocks.size());
    if ((busy_ || blocks > point_blocks_) && !busy && line.has_newline)
      record_point(line.next, line.number + 1);
    busy_ = busy;
    return open_bits != 0;
  }

  void notify_closed(std::string_view text, size_t closed) {
    for (; notified_ < closed; ++notified_) {
      seal_block(doc_.blocks[notified_], doc_.arena.get());
      if (observer_) observer_->block_closed(text, doc_, *observed_lines_, notified_);
    }
  }

  ParseOptions options_;
  ParsedDocument doc_;
  bool track_closed_ = false;         // see observe_with(), seal_closed_blocks()
  BlockObserver* observer_ = nullptr; // see observe_with()
  const LineIndex* observed_lines_ = nullptr;
  size_t notified_ = 0; // blocks the observer has been told of
  MarkdownFence fence_;
  DialectGrammars grammars_;
  bool open_block_fenced_ = false;
  bool busy_ = false;         // after the last line: a block open or a header pending
  uint32_t point_blocks_ = 0; // blocks before the last resume point (or where the parse began)
  uint32_t base_blocks_ = 0, base_diagnostics_ = 0; // counts before a resume point
  size_t earlier_blocks_end_ = 0;                   // ParseContext::earlier_blocks_end
  // take_lines() state, from update_mode().
  Mode mode_ = Mode::general;
  bool block_open_ = false;      // in_block() after the last line (see after_routed_line())
  Dialect open_ = Dialect::none; // the open block's dialect (in Mode::dialect)
  bool fence_watch_ = false;     // the open block's fence is open and its closer not yet seen
};

// Finds the line breaks of a buffer 64 bytes at a time: each block becomes a bit mask of its
// "\n" bytes (newline_mask), and next() pops the lowest set bit.
class NewlineScanner {
public:
  NewlineScanner(std::string_view text, size_t from)
      : data_(text.data()), size_(text.size()), base_(from) {
    load();
  }

  // Offset of the next "\n" at or after the previous one, or npos.
  size_t next() {
    while (mask_ == 0) {
      if (base_ + 64 >= size_) return std::string_view::npos;
      base_ += 64;
      load();
    }
    const size_t at = base_ + static_cast<size_t>(__builtin_ctzll(mask_));
    mask_ &= mask_ - 1;
    return at;
  }

private:
  void load() {
    mask_ = 0;
    if (base_ >= size_) return;
    const char* p = data_ + base_;
    if (size_ - base_ >= 64) {
      unsigned high = 0; // not needed here
      mask_ = newline_mask(p, &high);
      return;
    }
    const size_t n = size_ - base_;
    for (size_t i = 0; i < n; ++i)
      if (p[i] == '\n') mask_ |= uint64_t{1} << i;
  }

  const char* data_;
  size_t size_;
  size_t base_;
  uint64_t mask_ = 0;
};

// A line cursor (what route_lines() and LineRouter::take_lines() move through the text): the
// complete line [begin(), end()) (its break excluded) whose "\n" is at next() - 1.
// advance() ends the current line and moves to the next complete line; it returns false when
// there is none, or when the loop must end (begin() is then the first byte not routed).
// Cursors are locals of the loop's caller, so the compiler keeps them in registers while the
// router's runs advance them line after line.

// The stop of a cursor that never ends its loop early (the compiler drops the test).
struct NeverStop {
  constexpr bool operator()() const { return false; }
};

// Over lines whose starts are already in a LineIndex (the one-shot and streaming parses find
// them all first, in one fast pass, and the loop then only reads them). `Stop`, asked after
// each line, ends the loop when it returns true (begin() is then the next line's start).
template <typename Start, typename Stop = NeverStop> class IndexCursor {
public:
  // The complete lines from line `first` on, of the `count` lines `starts` holds (the last of
  // which is the text's incomplete last line).
  IndexCursor(std::string_view text, const Start* starts, uint32_t first, uint32_t count,
              Stop stop = {})
      : data_(text.data()), starts_(starts), number_(first), last_(count - 1), stop_(stop) {}

  bool start() {
    begin_ = starts_[number_];
    return load();
  }
  // (The next line starts where this one's break ends: one load of the index per line.)
  // Always inlined: the runs of every grammar call it once per line.
  [[gnu::always_inline]] bool advance() {
    ++number_;
    begin_ = next_;
    if (stop_()) return false;
    return load();
  }

  uint32_t number() const { return number_; }
  size_t begin() const { return begin_; }
  size_t end() const { return end_; }
  size_t next() const { return next_; }
  std::string_view text() const { return std::string_view(data_ + begin_, end_ - begin_); }
  LineRef line() const { return {number_, begin_, end_, next_, text(), true}; }

private:
  // Line `number_`, whose start is in begin_ already.
  bool load() {
    if (number_ >= last_) return false;
    next_ = starts_[number_ + 1];
    // Before the "\n", and before a "\r" ahead of it. Branch-free: an empty line tests its own
    // "\n" (a "\r" would be one of the line's bytes), which is not "\r".
    const size_t nl = next_ - 1;
    end_ = nl - static_cast<size_t>(data_[nl - static_cast<size_t>(nl > begin_)] == '\r');
    return true;
  }

  const char* data_;
  const Start* starts_;
  uint32_t number_;
  uint32_t last_;
  [[no_unique_address]] Stop stop_;
  size_t begin_ = 0, end_ = 0, next_ = 0;
};

// Over lines found as the loop goes, with `after_line(start of the next line)` called after
// each line: true from it ends the loop (the incremental parse, which stops early, uses it).
template <typename AfterLine> class ScanningCursor {
public:
  ScanningCursor(std::string_view text, size_t from, uint32_t number, AfterLine& after_line)
      : scanner_(text, from), data_(text.data()), begin_(from), number_(number),
        after_line_(after_line) {}

  bool start() { return find_line(); }
  bool advance() {
    ++number_;
    begin_ = nl_ + 1;
    if (after_line_(begin_)) return false;
    return find_line();
  }

  uint32_t number() const { return number_; }
  size_t begin() const { return begin_; }
  size_t end() const { return end_; }
  size_t next() const { return nl_ + 1; }
  std::string_view text() const { return std::string_view(data_ + begin_, end_ - begin_); }
  LineRef line() const { return {number_, begin_, end_, nl_ + 1, text(), true}; }

private:
  bool find_line() {
    nl_ = scanner_.next();
    if (nl_ == std::string_view::npos) return false;
    end_ = nl_;
    if (end_ > begin_ && data_[end_ - 1] == '\r') --end_;
    return true;
  }

  NewlineScanner scanner_;
  const char* data_;
  size_t begin_;
  size_t end_ = 0;
  size_t nl_ = 0;
  uint32_t number_;
  AfterLine& after_line_;
};

// Hands each complete line of the cursor to the router: its runs, then its fast path, then
// the full rules. The one line loop of every parse, so all route lines alike.
template <typename Cursor>
void route_lines(std::string_view text, LineRouter& router, Cursor& lines) {
  if (!lines.start()) return;
  do {
    // (A fast line that ends a block tells the router so itself: no other can close one.)
    if (!router.take_lines(text, lines)) return;
    router.on_line(text, lines.line());
    router.after_routed_line(text);
  } while (lines.advance());
}

// Routes the complete lines of `text` from `from` (the start of line `*line_number`, the last
// line `lines` holds) on, 32 KiB at a time: records the line starts of a stretch in `lines`,
// then routes its lines while the stretch is still in the cache. `indexed` (>= `from`): the
// bytes before it are in `lines` already (a streaming parse has indexed its incomplete last
// line before: it is not scanned again). Lowers `*non_ascii` to the first byte >= 0x80 from
// `indexed` on; returns the start of the incomplete last line and sets `*line_number` to its
// number.
size_t route_complete_lines(std::string_view text, size_t from, size_t indexed,
                            uint32_t* line_number, LineRouter& router, LineIndex& lines,
                            size_t* non_ascii) {
  constexpr size_t kStretch = 32 * 1024; // fits the L1 data cache (48 KiB here), with its starts
  size_t routed = from;                  // the start of the first line not routed
  uint32_t number = *line_number;
  while (indexed < text.size()) {
    const size_t end = std::min(text.size(), indexed + kStretch);
    lines.append(text.substr(indexed, end - indexed), indexed, non_ascii);
    indexed = end;
    const auto route_stretch = [&](auto cursor) {
      route_lines(text, router, cursor);
      number = cursor.number();
      routed = cursor.begin();
    };
    if (lines.wide())
      route_stretch(IndexCursor<size_t>(text, lines.wide_starts(), number, lines.line_count()));
    else
      route_stretch(IndexCursor<uint32_t>(text, lines.narrow_starts(), number, lines.line_count()));
  }
  *line_number = number;
  return routed;
}

void route_last_line(std::string_view text, size_t from, uint32_t line_number, LineRouter& router) {
  LineRef line{line_number, from, text.size(), text.size(), text.substr(from), false};
  router.on_line(text, line);
}

} // namespace

struct DocumentParser::State {
  explicit State(ParseOptions options) : router(options) {}
  TextBuffer text;
  LineRouter router;
  LineIndex lines;
  size_t consumed = 0;
  size_t indexed = 0; // the bytes the line index has been given (see feed)
  uint32_t line_number = 0;
  size_t non_ascii = std::string_view::npos; // first byte >= 0x80 indexed so far
  bool finished = false;
};

DocumentParser::DocumentParser(ParseOptions options) : state_(std::make_unique<State>(options)) {
  state_->router.seal_closed_blocks();
  if (options.wide_line_index) state_->lines.widen();
}
DocumentParser::~DocumentParser() = default;
DocumentParser::DocumentParser(DocumentParser&&) noexcept = default;
DocumentParser& DocumentParser::operator=(DocumentParser&&) noexcept = default;

void DocumentParser::feed(std::string_view chunk) {
  State& s = *state_;
  if (s.finished || chunk.empty()) return;
  s.text.append(chunk);
  // A chunk without a line break completes no line: it is only stored, and indexed with the
  // chunk that ends its line (a quarter of a transcript's 64-byte reads; the index and the
  // routing each cost a call's setup, whatever the bytes).
  if (std::memchr(chunk.data(), '\n', chunk.size()) == nullptr) return;
  s.consumed = route_complete_lines(s.text.view(), s.consumed, s.indexed, &s.line_number, s.router,
                                    s.lines, &s.non_ascii);
  s.indexed = s.text.size();
  s.lines.set_ascii_prefix(std::min(s.non_ascii, s.indexed));
}

ParsedDocument DocumentParser::finish() {
  State& s = *state_;
  if (s.finished) return {};
  s.finished = true;
  if (s.indexed < s.text.size()) { // the last line's bytes fed since its start was indexed
    s.lines.append(s.text.view().substr(s.indexed), s.indexed, &s.non_ascii);
    s.indexed = s.text.size();
  }
  route_last_line(s.text.view(), s.consumed, s.line_number, s.router);
  ParsedDocument doc = s.router.finish(s.text.view(), s.lines.line_count());
  s.lines.set_ascii_prefix(std::min(s.non_ascii, s.text.size()));
  doc.lines = std::move(s.lines);
  return doc;
}

std::string_view DocumentParser::text() const {
  return state_->text.view();
}

const std::vector<Block>& DocumentParser::blocks_so_far() const {
  return state_->router.doc().blocks;
}

const std::vector<Diagnostic>& DocumentParser::diagnostics_so_far() const {
  return state_->router.doc().diagnostics;
}

std::optional<OpenValue> DocumentParser::open_value() const {
  if (state_->finished) return std::nullopt;
  return state_->router.open_value();
}

const std::vector<ResumePoint>& DocumentParser::resume_points_so_far() const {
  return state_->router.doc().resume_points;
}

void DocumentParser::take_blocks(size_t begin, size_t end, std::vector<Block>* out) {
  ParsedDocument& doc = state_->router.doc();
  const size_t final_blocks = doc.resume_points.empty() ? 0 : doc.resume_points.back().blocks;
  end = std::min(end, final_blocks); // (never the open block, nor one a grammar may still end)
  if (begin >= end) return;
  out->insert(out->end(),
              std::make_move_iterator(doc.blocks.begin() + static_cast<ptrdiff_t>(begin)),
              std::make_move_iterator(doc.blocks.begin() + static_cast<ptrdiff_t>(end)));
}

void DocumentParser::take_diagnostics(size_t begin, size_t end, std::vector<Diagnostic>* out) {
  ParsedDocument& doc = state_->router.doc();
  const size_t final_diagnostics =
      doc.resume_points.empty() ? 0 : doc.resume_points.back().diagnostics;
  end = std::min({end, final_diagnostics, doc.diagnostics.size()});
  if (begin >= end) return;
  out->insert(out->end(),
              std::make_move_iterator(doc.diagnostics.begin() + static_cast<ptrdiff_t>(begin)),
              std::make_move_iterator(doc.diagnostics.begin() + static_cast<ptrdiff_t>(end)));
}

uint32_t DocumentParser::complete_lines() const {
  return state_->line_number;
}

const LineIndex& DocumentParser::lines_so_far() const {
  return state_->lines;
}

ParsedDocument parse_from(std::string_view text, const ResumePoint& from,
                          const std::vector<Block>& earlier, ParseOptions options,
                          const std::function<bool(const ResumePoint&)>& stop,
                          std::optional<ResumePoint>* stopped_at) {
  stopped_at->reset();
  LineRouter router(options);
  router.resume(text, from, earlier);
  const std::vector<ResumePoint>& points = router.doc().resume_points;
  size_t points_seen = 0;
  // Stops after a line that recorded a resume point `stop` accepts.
  const auto after_line = [&](size_t) {
    if (points.size() == points_seen) return false;
    points_seen = points.size();
    if (!stop(points.back())) return false;
    *stopped_at = points.back();
    return true;
  };
  ScanningCursor<decltype(after_line)> cursor(text, from.offset, from.line, after_line);
  route_lines(text, router, cursor);
  if (*stopped_at) {
    ParsedDocument doc = std::move(router.doc());
    doc.resume_points.pop_back();
    if (const ResumePoint& p = **stopped_at; p.before_start) {
      // The parse stops before the line routed last: what that line began is dropped.
      doc.blocks.erase(doc.blocks.begin() + (p.blocks - from.blocks), doc.blocks.end());
      doc.diagnostics.erase(doc.diagnostics.begin() + (p.diagnostics - from.diagnostics),
                            doc.diagnostics.end());
    }
    return doc;
  }
  route_last_line(text, cursor.begin(), cursor.number(), router);
  return router.finish(text, cursor.number() + 1);
}

struct PartParser::State {
  State(std::string_view t, const LineIndex& l, ParseOptions options)
      : text(t), wide(l.wide()), narrow_starts(l.narrow_starts()), wide_starts(l.wide_starts()),
        line_count(l.line_count()), router(options) {}
  std::string_view text;
  // The index's storage, as it is now: the index object itself may be moved meanwhile (see
  // the constructor's comment in document_parser.h).
  bool wide;
  const uint32_t* narrow_starts;
  const size_t* wide_starts;
  uint32_t line_count;
  LineRouter router;
  uint32_t line_number = 0; // the first line not routed
  size_t offset = 0;        // its start
  bool done = false;
};

PartParser::PartParser(std::string_view text, const LineIndex& lines, ParseOptions options)
    : state_(std::make_unique<State>(text, lines, options)) {
  state_->router.expect_dialect_bytes(text.size());
  state_->router.observe_with(lines);
}
PartParser::~PartParser() = default;

bool PartParser::done() const {
  return state_->done;
}

size_t PartParser::offset() const {
  return state_->offset;
}

// The lines are routed over the caller's index with a cursor that ends the loop right after
// the line that recorded the first resume point at or past `min_end`: the part ends there, at
// a point where the router holds no open block, so its blocks can be handed over whole.
ParsedDocument PartParser::next(size_t min_end) {
  State& s = *state_;
  if (s.done) return {};
  LineRouter& router = s.router;
  const size_t part_bytes = min_end > s.offset ? min_end - s.offset : 0;
  router.expect_part_bytes(part_bytes);
  const std::vector<ResumePoint>& points = router.doc().resume_points;
  size_t seen = points.size();
  bool stopped = false;
  const auto stop = [&] {
    if (points.size() == seen) return false;
    seen = points.size();
    // (Not before a start line: that line is routed already, and its block is open.)
    stopped = points.back().offset >= min_end && !points.back().before_start;
    return stopped;
  };
  const auto route = [&](auto cursor) {
    route_lines(s.text, router, cursor);
    s.line_number = cursor.number();
    s.offset = cursor.begin();
  };
  using Stop = decltype(std::ref(stop));
  if (s.wide)
    route(IndexCursor<size_t, Stop>(s.text, s.wide_starts, s.line_number, s.line_count,
                                    std::ref(stop)));
  else
    route(IndexCursor<uint32_t, Stop>(s.text, s.narrow_starts, s.line_number, s.line_count,
                                      std::ref(stop)));
  if (stopped) return router.take_settled();
  // Out of complete lines: the last line, then what is still open closes as at any end.
  s.done = true;
  route_last_line(s.text, s.offset, s.line_number, router);
  s.offset = s.text.size();
  ParsedDocument rest = router.finish(s.text, s.line_count);
  rest.resume_points.clear();
  return rest;
}

namespace {

// An empty line index with room for the lines of a text of `bytes` bytes: transcripts average
// ~30 bytes a line (more lines grow the index).
LineIndex line_index_for(size_t bytes, const ParseOptions& options) {
  LineIndex lines;
  if (options.wide_line_index) lines.widen();
  lines.reserve(bytes / 24 + 2);
  return lines;
}

} // namespace

LineIndex index_document_lines(std::string_view text, const ParseOptions& options) {
  LineIndex lines = line_index_for(text.size(), options);
  size_t non_ascii = std::string_view::npos;
  lines.append(text, 0, &non_ascii);
  lines.set_ascii_prefix(std::min(non_ascii, text.size()));
  return lines;
}

ParsedDocument parse_document(std::string_view text, ParseOptions options) {
  LineRouter router(options);
  router.expect_text_bytes(text.size());
  uint32_t line_number = 0;
  LineIndex lines = line_index_for(text.size(), options);
  router.observe_with(lines);
  size_t non_ascii = std::string_view::npos;
  const size_t rest = route_complete_lines(text, 0, 0, &line_number, router, lines, &non_ascii);
  route_last_line(text, rest, line_number, router);
  ParsedDocument doc = router.finish(text, lines.line_count());
  lines.set_ascii_prefix(std::min(non_ascii, text.size()));
  doc.lines = std::move(lines);
  return doc;
}

} // namespace blockls
