// TELT state machine (spec: ../shared/spec/telt.md). Fed complete lines by DocumentParser;
// appends blocks and syntax diagnostics (with their fixes) to the ParsedDocument.
#pragma once

#include "grammar/parse_context.h"

#include <string>
#include <string_view>

namespace blockls {

class TeltParser {
public:
  // True when `line` is a TELT start line or a near miss of one (it would open a block).
  static bool is_start_line(std::string_view line);

  bool in_block() const { return state_ != State::outside; }
  // Outside every block: returns true when the line is TELT's (opens a block, or is a
  // stray END); false leaves it to other dialects / prose.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while this parser's block is open.
  void on_line(const LineRef& line, ParseContext& ctx);
  // End of input (`line_count` lines in all).
  void finish(ParseContext& ctx, uint32_t line_count);

private:
  enum class State { outside, in_block, in_command, in_parameter, recovering };
  State state_ = State::outside;
  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  // (implementation state goes here)
};

} // namespace blockls
