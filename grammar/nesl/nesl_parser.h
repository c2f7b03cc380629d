// SHAM / NESL state machine (spec: ../shared/spec/nesl.md; behaviour of nesl-js 0.1.12-beta.1
// for the current era, and its SHAM / upper-case NESL predecessors for theirs). Fed complete
// lines by DocumentParser; appends blocks and syntax diagnostics (with fixes).
#pragma once

#include "grammar/bytes.h"
#include "grammar/nesl/id_table.h"
#include "grammar/nesl/nesl_syntax.h"
#include "grammar/parse_context.h"
#include "grammar/syntax_code.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class NeslParser {
public:
  bool in_block() const { return state_ != State::seeking_header; }
  // Outside every block: true when the line is NESL's (a header that opens a block, or a
  // malformed header that is reported); false leaves it to other dialects / prose.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line outside every block that no dialect can claim and no fence can open or close (see
  // DocumentParser): try_start() without the parts that cannot apply. Returns false.
  bool on_plain_line(const LineRef& line, ParseContext& ctx) {
    if (!nl_known_ && line.has_newline) learn_newline(line, ctx);
    if (pending_header_.active) seeking_line(line, ctx);
    prev_line_begin_ = line.begin;
    return false;
  }
  // A line while this parser's block is open.
  void on_line(const LineRef& line, ParseContext& ctx);
  // For the line router's fast path (DocumentParser). Outside blocks: nothing but the line's
  // position is needed from a prose line (the line break is known, no rejected header waits
  // for its end marker).
  bool quiet_outside() const { return nl_known_ && !pending_header_.active; }
  // on_plain_line() when quiet_outside().
  void note_prose_line(size_t begin) { prev_line_begin_ = begin; }
  // A hint: the text to parse has about `bytes` bytes (the id table is sized for it).
  void expect_text_bytes(size_t bytes) { seen_ids_.reserve(bytes / 1024); }
  // Inside a heredoc of an open block, and where that block's range is.
  bool in_heredoc_body() const { return state_ == State::in_heredoc && nl_known_ && block_ >= 0; }
  // The heredoc value whose body lines are arriving, if any (one command per block: 0).
  std::optional<OpenValue> open_value() const {
    if (state_ != State::in_heredoc || block_ < 0 || body_begin_ == npos) return std::nullopt;
    return OpenValue{0, heredoc_key_, heredoc_line_, {body_begin_, body_end_}, false};
  }
  // In an open block, outside heredocs.
  bool in_assignments() const { return state_ == State::in_block && nl_known_ && block_ >= 0; }
  // on_line() for the block's exact end marker (its era, its id) when in_assignments() and
  // no quote or skipped heredoc is pending: it closes the block. False, having done nothing,
  // for any other line.
  bool on_exact_end(const LineRef& line, ParseContext& ctx);
  // on_line() for the heredoc's delimiter alone on its line: it ends the heredoc. False,
  // having done nothing, for any other line.
  bool on_exact_delim(const LineRef& line, ParseContext& ctx);
  // on_line() for a plain `key = "value"` line or heredoc opener with a new key (see
  // plain_assignment_line()) when in_assignments(). False, having done nothing, for any
  // other line.
  bool on_plain_assignment(const LineRef& line, ParseContext& ctx) {
    if (quote_.active || skip_.active || !plain_assignment_line(line, ctx)) return false;
    ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
    prev_line_begin_ = line.begin;
    return true;
  }
  // on_line() for a line of blanks (or an empty one) when in_assignments(): it only extends
  // the block (block_line() ignores it, even with a quote or a skipped heredoc pending). False,
  // having done nothing, for any other line. Blank lines after the header are common, and no
  // other dialect's start line is blank, so the line cannot interrupt the block either.
  bool on_blank_line(const LineRef& line, ParseContext& ctx) {
    const std::string_view t = line.text;
    if (!in_assignments() || blank_run(t.data(), t.data() + t.size()) != t.size()) return false;
    ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
    prev_line_begin_ = line.begin;
    return true;
  }
  // on_line() for a heredoc body line that on_body_line() and on_exact_delim() did not take
  // and that does not hold the delimiter (mostly a line that begins with `#`, which may be the
  // block's end marker: heredoc_line() notes it for the fix of an unclosed heredoc): it extends
  // the body and the block. False, having done nothing, for any other line.
  bool on_other_body_line(const LineRef& line, ParseContext& ctx) {
    if (!in_heredoc_body() || line.text.find(delim_) != npos) return false;
    note_body_line(line);
    ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
    prev_line_begin_ = line.begin;
    return true;
  }
  ByteRange& open_block_range(ParsedDocument& doc) const {
    return doc.blocks[static_cast<size_t>(block_)].range;
  }
  // on_line() for a heredoc body line [begin, end) that cannot end the heredoc (no delimiter
  // in it) nor anchor a fix (no `#` first): it extends the body and the block. False, having
  // done nothing, for any other line.
  bool on_body_line(size_t begin, size_t end, std::string_view text, ByteRange& block_range) {
    if ((end > begin && text[begin] == '#') || may_hold_delim(begin, end, text)) return false;
    if (body_begin_ == npos) body_begin_ = begin;
    body_end_ = end;
    note_break(end, text);
    block_range.end = end;
    prev_line_begin_ = begin;
    return true;
  }
  // on_body_line() for a run of lines: takes the lines of `lines` (the line router's cursor:
  // begin(), end(), advance()) from its current one on, as long as on_body_line() would take
  // them without searching the text again and `fence_closes(begin, end)` is false. Its state
  // stays in locals and is stored once, after the run (body lines are most of a transcript's
  // block lines). Returns false when the cursor ran out of lines, true when it stopped at a
  // line the run did not take.
  template <typename Cursor, typename FenceCloses>
  bool take_body_lines(Cursor& lines, std::string_view text, ByteRange& block_range,
                       FenceCloses&& fence_closes) {
    const size_t n = delim_.size();
    const size_t clear_from = delim_clear_from_, clear_until = delim_clear_until_;
    const size_t first = lines.begin();
    size_t last_begin = npos, last_end = 0, crlf_end = body_crlf_end_;
    bool more = true;
    for (;;) {
      const size_t b = lines.begin(), e = lines.end();
      // `#` first (an empty line has its line break there), or a line that on_body_line()
      // would search the text again for: one branch.
      const bool hash = text[b] == '#';
      if (hash | outside_delim_search(b, e, n, clear_from, clear_until)) break;
      if (fence_closes(b, e)) break;
      last_begin = b;
      last_end = e;
      if (crlf_end == npos && e < text.size() && text[e] == '\r') crlf_end = e;
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (last_begin != npos) {
      if (body_begin_ == npos) body_begin_ = first;
      body_end_ = last_end;
      body_crlf_end_ = crlf_end;
      block_range.end = last_end;
      prev_line_begin_ = last_begin;
    }
    return more;
  }
  // True (once) when the last on_line() ended the block at a header (of any era) that opens
  // the next one: the router offers that line again as a start line, after recording a
  // resume point before it (a chain of blocks each ended by the next header has no other).
  bool take_declined() {
    const bool d = declined_;
    declined_ = false;
    return d;
  }
  // True when the open block could be ended by another dialect's start line (not inside
  // a heredoc, where every line is content).
  bool can_yield() const { return state_ == State::in_block; }
  // Another dialect's start line arrived while the block is open: report the block as not
  // closed (like a new NESL header would) and go back to seeking a header.
  void yield_to_foreign_start(const LineRef& line, ParseContext& ctx);
  // End of input (`line_count` lines in all).
  void finish(ParseContext& ctx, uint32_t line_count);

  // A rejected header still waits for its end marker (lines outside blocks are not prose yet).
  bool pending() const { return pending_header_.active; }
  // The document's line break as learnt from its first line: 0 unknown, 1 "\n", 2 "\r\n".
  uint8_t newline_state() const { return !nl_known_ ? 0 : nl_ == "\n" ? 1 : 2; }
  // Puts a fresh parser in the state it had at a resume point (outside every block, nothing
  // pending): the line break learnt so far and the ids of the NESL blocks in `earlier`
  // (the blocks before that point, in order).
  void resume(uint8_t newline_state, const std::vector<Block>& earlier, size_t count);

private:
  enum class State { seeking_header, in_block, in_heredoc };
  static constexpr size_t npos = std::string_view::npos;
  static constexpr int kNone = -1;

  // A heredoc whose opener was rejected (invalid key, delimiter or opener): nesl-js parses
  // its body as block lines; we mark those errors as cascades and, once the closing line is
  // seen, attach the fix that makes the opener valid.
  struct Skip {
    bool active = false;
    int diag = kNone;            // diagnostic that gets the fix
    std::string written;         // the delimiter the model wrote
    std::vector<TextEdit> edits; // opener repair
  };
  // An UNCLOSED_QUOTE waiting for the line that closes the string.
  struct PendingQuote {
    bool active = false;
    int diag = kNone;
    size_t line_begin = 0;
    size_t open_quote = 0; // byte of the opening quote
    size_t line_end = 0;   // end of the opening line
    std::string key;
    bool continued = false; // lines were swallowed since
  };
  // A rejected header (MALFORMED_HEADER / INVALID_BLOCK_ID) waiting for its end marker.
  struct PendingHeader {
    bool active = false;
    int diag = kNone;
    Era era = Era::nesl;
    std::string old_id, new_id;
    TextEdit header_edit;
    std::vector<TextEdit> edits;
    size_t header_begin = 0;
  };

  // True unless the heredoc delimiter surely does not occur in the line. Searches the text
  // ahead once and remembers where the next occurrence starts, so body lines are not
  // searched one by one.
  bool may_hold_delim(size_t begin, size_t end, std::string_view text) {
    const size_t n = delim_.size();
    if (!outside_delim_search(begin, end, n, delim_clear_from_, delim_clear_until_)) return false;
    refresh_delim_search(begin, text);
    return end - n >= delim_clear_until_;
  }
  // True when the line [begin, end) is long enough to hold a delimiter of `n` bytes and
  // reaches outside [clear_from, clear_until), where the last search found none. Without a
  // branch (it is asked of every heredoc body line).
  static bool outside_delim_search(size_t begin, size_t end, size_t n, size_t clear_from,
                                   size_t clear_until) {
    return (end - begin >= n) & ((begin < clear_from) | (end - n >= clear_until));
  }
  void refresh_delim_search(size_t from, std::string_view text);
  // What heredoc_line() does for a body line without the delimiter: extends the body and
  // notes a line that reads as the block's end marker.
  void note_body_line(const LineRef& line);

  // Lines.
  void learn_newline(const LineRef& line, const ParseContext& ctx);
  void handle_header(const LineRef& line, ParseContext& ctx, const nesl::EraSyntax& era,
                     bool inside_block);
  void open_block(const LineRef& line, ParseContext& ctx, const nesl::EraSyntax& era,
                  const nesl::HeaderMatch& m);
  void block_line(const LineRef& line, ParseContext& ctx);
  bool plain_assignment_line(const LineRef& line, ParseContext& ctx);
  void assignment_line(const LineRef& line, ParseContext& ctx);
  void heredoc_line(const LineRef& line, ParseContext& ctx);
  // Ends the heredoc at the delimiter found at `pos` in `line`: stores its value.
  void close_heredoc(const LineRef& line, ParseContext& ctx, size_t pos);
  void seeking_line(const LineRef& line, ParseContext& ctx);
  bool suspicious_end(const LineRef& line, ParseContext& ctx, std::string_view trimmed);

  // Block bookkeeping.
  void close_block(ParseContext& ctx, std::optional<uint32_t> end_line);
  void set_param(ParseContext& ctx, std::string_view key, ByteRange name_range,
                 ByteRange value_range, uint32_t line, std::string decoded, bool is_slice,
                 bool in_quotes = false);
  // set_param() when the index of `key` (find_param(), -1 for a new key) is known.
  void store_param(ParseContext& ctx, int index, std::string_view key, ByteRange name_range,
                   ByteRange value_range, uint32_t line, std::string decoded, bool is_slice,
                   bool in_quotes);
  // A new parameter `key` of `c` (the open block's command), its key recorded for
  // find_param().
  Parameter& new_param(Command& c, std::string_view key, ByteRange name_range, uint32_t line);
  // After `p`, the parameter `key` of `c`, took its value: an `action` names the command.
  void name_command(ParseContext& ctx, Command& c, std::string_view key, const Parameter& p);
  // store_param() for a new `key` whose value is a quoted token without escapes (`value_range`,
  // its quotes included), the common `key = "value"` line: no decoded value to pass along.
  void add_quoted_param(ParseContext& ctx, std::string_view key, ByteRange name_range,
                        ByteRange value_range, uint32_t line);
  // Index of `key` in the parameters of the last block opened (its only command), or -1.
  int find_param(std::string_view key) const;
  bool has_param(std::string_view key) const { return find_param(key) >= 0; }
  void report_unclosed_before(const LineRef& line, ParseContext& ctx);
  void resolve_pending_quote(ParseContext& ctx, const LineRef* closing);
  void end_skip(ParseContext& ctx, const LineRef* closing, size_t delim_pos, size_t delim_len,
                bool glued_after_quote);
  void attach_block_fixes(ParseContext& ctx);
  void add_rename_fix(ParseContext& ctx);

  // Diagnostics.
  int report(ParseContext& ctx, SyntaxCode code, int32_t block, uint32_t line, ByteRange range,
             std::string message, std::string hint = {});
  bool cascading() const { return cascade_ || skip_.active || quote_.active; }
  void add_fix(ParseContext& ctx, int diag, std::string title, std::vector<TextEdit> edits,
               bool preferred = true);
  std::string fresh_id(uint32_t seed) const;
  TextEdit close_insertion(ParseContext& ctx, std::string_view text_to_insert) const;

  State state_ = State::seeking_header;
  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  const nesl::EraSyntax* era_ = nullptr;
  std::string id_;
  std::string delim_; // "EOT_<id>" in the block's era

  // Per block.
  // The document and block whose command's parameters has_param() searches (NESL keys are
  // unique per block, and blocks have a handful of keys: a linear scan beats a hash map).
  const ParsedDocument* params_doc_ = nullptr;
  int32_t params_block_ = -1;
  // One bit (key_bit()) per key of that block's parameters: find_param() compares keys only
  // when the bit of the key it looks for is set, which for a new key it rarely is.
  uint64_t param_key_bits_ = 0;
  static uint64_t key_bit(std::string_view key) {
    const size_t h = key.empty() ? 0
                                 : key.size() * 7 + static_cast<unsigned char>(key.front()) +
                                       static_cast<unsigned char>(key.back()) * 3u;
    return uint64_t{1} << (h & 63);
  }
  bool cascade_ = false;         // later errors of this block follow from an earlier one
  bool suspicious_seen_ = false; // a SUSPICIOUS_END explains a later UNCLOSED_BLOCK
  size_t fence_close_begin_ = npos;
  std::vector<ByteRange> id_refs_;  // every spelling of the id (header, delimiters, end)
  std::vector<ByteRange> era_refs_; // every era literal (header, delimiters, end prefix)
  int duplicate_diag_ = kNone;
  size_t first_diag_ = 0; // index of the block's first diagnostic
  int legacy_diag_ = kNone;
  Skip skip_;
  PendingQuote quote_;

  // Heredoc.
  std::string heredoc_key_;
  ByteRange heredoc_key_range_;
  uint32_t heredoc_line_ = 0;
  size_t body_begin_ = npos, body_end_ = npos;
  // The end of the first body line whose line break is "\r\n" (npos: none so far). The body
  // holds a "\r\n" (its value is decoded) when that line is not its last: close_heredoc()
  // so need not search the body again.
  size_t body_crlf_end_ = npos;
  // Notes a body line that ends at `end` (before its line break, if any).
  void note_break(size_t end, std::string_view text) {
    if (body_crlf_end_ == npos && end < text.size() && text[end] == '\r') body_crlf_end_ = end;
  }
  // Where the fix of an unclosed heredoc closes it: the first body line equal to the block's
  // end marker, or the first line `EOT_<id>#!end_<id>` (delimiter and end marker glued,
  // glued_delim_ and glued_end_ their positions), whichever comes first. A later one is prose
  // or another block that the heredoc swallowed too.
  size_t body_end_marker_ = npos;
  size_t glued_line_begin_ = npos, glued_delim_ = npos, glued_end_ = npos;
  bool close_anchor_seen() const { return body_end_marker_ != npos || glued_delim_ != npos; }
  // Id spellings that a fix of the block (the diagnostic's index) turns into the block's own:
  // the end marker an unclosed heredoc's fix closes before, a glued delimiter, the closing line
  // of a heredoc whose opener a fix repairs. The rename of a duplicate id that carries the fix
  // renames them too.
  std::vector<std::pair<int, ByteRange>> fix_id_refs_;
  // No occurrence of delim_ starts in [delim_clear_from_, delim_clear_until_).
  size_t delim_clear_from_ = 0, delim_clear_until_ = 0;

  // Document.
  IdTable seen_ids_; // NESL block id -> first start line
  PendingHeader pending_header_;
  size_t prev_line_begin_ = 0;
  std::string nl_ = "\n"; // the document's line break, for inserted lines
  bool nl_known_ = false;
  bool declined_ = false; // see take_declined()
};

} // namespace blockls
