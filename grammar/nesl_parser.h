// SHAM / NESL state machine (spec: ../shared/spec/nesl.md; behaviour of nesl-js 0.1.12-beta.1
// for the current era, and its SHAM / upper-case NESL predecessors for theirs). Fed complete
// lines by DocumentParser; appends blocks and syntax diagnostics (with fixes).
#pragma once

#include "grammar/parse_context.h"

#include <string_view>

namespace blockls {

class NeslParser {
public:
  bool in_block() const { return state_ != State::seeking_header; }
  // Outside every block: true when the line is NESL's (a header that opens a block, or a
  // malformed header that is reported); false leaves it to other dialects / prose.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while this parser's block is open.
  void on_line(const LineRef& line, ParseContext& ctx);
  // True when the open block could be ended by another dialect's start line (not inside
  // a heredoc, where every line is content).
  bool can_yield() const { return state_ == State::in_block; }
  // Another dialect's start line arrived while the block is open: report the block as not
  // closed (like a new NESL header would) and go back to seeking a header.
  void yield_to_foreign_start(const LineRef& line, ParseContext& ctx);
  // End of input (`line_count` lines in all).
  void finish(ParseContext& ctx, uint32_t line_count);

private:
  enum class State { seeking_header, in_block, in_heredoc };
  State state_ = State::seeking_header;
  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  // (implementation state goes here)
};

} // namespace blockls
