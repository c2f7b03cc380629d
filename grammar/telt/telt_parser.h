// TELT state machine (spec: ../shared/spec/telt.md). Fed complete lines by DocumentParser;
// appends blocks and syntax diagnostics (with their fixes) to the ParsedDocument.
#pragma once

#include "grammar/bytes.h"
#include "grammar/parse_context.h"
#include "grammar/telt/telt_line.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class TeltParser {
public:
  // True when `line` is a TELT start line or a near miss of one (it would open a block).
  static bool is_start_line(std::string_view line) {
    // Every START shape and near miss begins with `#!` (checked here first: this runs on
    // every line of an open NESL block).
    return line.size() >= 2 && line[0] == '#' && line[1] == '!' && telt::parse_start(line);
  }

  bool in_block() const { return state_ != State::outside; }
  // Outside every block: returns true when the line is TELT's (opens a block, or is a
  // stray END); false leaves it to other dialects / prose.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while this parser's block is open.
  void on_line(const LineRef& line, ParseContext& ctx);
  // on_line() for the common delimiter line: exactly `--NAME HASH--` with the block's hash,
  // after a command (in_command() or in_value()); it opens a parameter, or with END closes
  // the block. False, having done nothing, for any other line.
  bool on_own_delimiter(const LineRef& line, ParseContext& ctx);
  // on_line() for a COMMAND line (`=== NAME ===`) after the START, a command or a value: it
  // opens a command. False, having done nothing, for any other line.
  bool on_command_line(const LineRef& line, ParseContext& ctx);
  // For the line router's fast path (DocumentParser): a parameter value is open, and where
  // its range and its block's range are (valid until the next on_line()).
  bool in_value() const { return state_ == State::in_parameter; }
  // After the START line or a command line, before a parameter.
  bool awaiting_syntax() const { return state_ == State::in_block || state_ == State::in_command; }
  ByteRange& open_block_range(ParsedDocument& doc) const {
    return doc.blocks[static_cast<size_t>(block_)].range;
  }
  // The parameter value whose lines are arriving, if any: the source bytes from the line after
  // its delimiter to the end of its last line so far ("\r" of a CRLF break included, as the
  // value keeps it).
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    if (state_ != State::in_parameter || block_ < 0) return std::nullopt;
    const Block& b = doc.blocks[static_cast<size_t>(block_)];
    const Parameter& p = b.commands.back().params.back();
    return OpenValue{
        static_cast<uint32_t>(b.commands.size() - 1), p.name, p.line, p.value_range, false, true};
  }
  // For the fast path, when in_value(): true when on_line() would take the line as a line of
  // the open value although it is not plain content: its first non-blank byte is `-` (a YAML
  // list, an SQL comment, a Markdown rule in a file's text) and it is no delimiter nor a near
  // miss of one. The caller then extends the value and the block as take_run does.
  bool is_dash_value_line(std::string_view t) const {
    const size_t lead = blank_run(t.data(), t.data() + t.size());
    return state_ == State::in_parameter && lead < t.size() && t[lead] == '-' &&
           !telt::parse_delimiter(t) && !telt::parse_near_miss(t, hash_);
  }
  // For the fast path, when awaiting_syntax(): true when on_line() ignores the line, a blank
  // line or a `//` comment between the START or a command line and what follows; the caller
  // then extends the block.
  bool is_ignored_line(std::string_view t) const {
    return awaiting_syntax() && is_plain_content(t) && (telt::is_blank(t) || t.starts_with("//"));
  }
  ByteRange& open_value_range(ParsedDocument& doc) const {
    return doc.blocks[static_cast<size_t>(block_)].commands.back().params.back().value_range;
  }

  // True when no TELT syntax rule can apply to the line: it neither starts with `#!` (START
  // shapes) or `=` (COMMAND) nor has `-` after its blanks (delimiters and their near misses).
  static bool is_plain_content(std::string_view t) {
    return is_plain_content(t, blank_run(t.data(), t.data() + t.size()));
  }
  // is_plain_content() for a line whose first `lead` bytes are its leading blanks (or all
  // of it when `lead` is at least its size).
  // The tests after the blanks are combined without branches (which line of a value is
  // indented, or starts with what, is unpredictable).
  static bool is_plain_content(std::string_view t, size_t lead) {
    const size_t n = t.size();
    if (lead >= n) return true; // blank
    const char c = t[lead];
    const unsigned hash_bang =
        unsigned{t[0] == '#'} & unsigned{n > 1} & unsigned{t[n > 1 ? 1 : 0] == '!'};
    return (c != '-') & ((lead > 0) | ((c != '=') & (hash_bang == 0)));
  }
  // End of input (`line_count` lines in all).
  void finish(ParseContext& ctx, uint32_t line_count);
  // True (once) when the last on_line() ended the block at a new START: the router offers
  // that line again as a start line, after recording a resume point before it.
  bool take_declined() {
    const bool d = declined_;
    declined_ = false;
    return d;
  }

private:
  enum class State { outside, in_block, in_command, in_parameter, recovering };
  bool declined_ = false; // see take_declined()

  void open_block(const LineRef& line, const telt::StartLine& start, ParseContext& ctx);
  // Reports the open block as unclosed; `next_start` is the START that interrupts it
  // (nullptr at the end of input).
  void report_unclosed(const LineRef* next_start, ParseContext& ctx);
  // Completes the fixes that depend on the whole block, then leaves it.
  void close_block(ParseContext& ctx);
  // PARAM / END lines (exact, mismatched, indented or near misses); false for content.
  bool on_delimiter(const LineRef& line, ParseContext& ctx);
  void on_content(const LineRef& line, ParseContext& ctx);
  // Opens a command (of a COMMAND line).
  void open_command(const LineRef& line, const telt::CommandLine& command, ParseContext& ctx);
  // Opens parameter `name` (of a delimiter `d`) in the block's last command.
  void open_parameter(const LineRef& line, const telt::DelimiterLine& d, std::string_view name,
                      ParseContext& ctx);
  Block& block(ParseContext& ctx) const { return ctx.out->blocks[static_cast<size_t>(block_)]; }
  void report(ParseContext& ctx, Diagnostic diagnostic);

  State state_ = State::outside;
  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  // Everything below describes the open block, as byte offsets into the document.
  std::string hash_; // the block's hash ("" while unknown: a START without one)
  bool has_command_ = false;
  bool crlf_ = false;         // the START line ends with "\r\n": inserted lines do too
  size_t start_end_ = 0;      // end of the START line's text
  size_t start_body_end_ = 0; // end of its syntax part (before a trailing comment)
  size_t start_hash_begin_ = 0;
  bool start_hash_missing_ = false;
  size_t fence_close_begin_ = SIZE_MAX; // first byte of the Markdown fence's closing line
  // Fixes of MALFORMED_START (without a hash) and BAD_HASH need the whole block: the
  // hash adopted from the first delimiter, or every place the hash is written.
  std::vector<ByteRange> hash_sites_;
  int64_t start_fix_diagnostic_ = -1; // MALFORMED_START waiting for the adopted hash
  int64_t bad_hash_diagnostic_ = -1;
  bool hash_adopted_ = false;
  ByteRange adopt_window_; // lines scanned before the hash was adopted
};

} // namespace blockls
