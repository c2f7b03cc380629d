// The sections state machine (spec: ../shared/spec/dialects.md, "Sections (multi-parameter
// input)"; seed 002_…). Fed complete lines by the line router: a start line
// `COMMAND ARGS… << 'MARK'` opens a block of one command named by its program and subcommand;
// every following line is body content until the line that equals the marker. On close the
// body becomes the command's parameters: one per `---NAME---` section when the body opens with
// a delimiter line or has two or more, else the whole body is the one parameter `MESSAGE`.
#pragma once

#include "grammar/parse_context.h"
#include "grammar/sections/sections_line.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class SectionsParser {
public:
  bool in_block() const { return block_ >= 0; }
  // Outside every block: true when the line is a command-input start line (it opens a block).
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while the block is open: body content, a delimiter, or the end marker.
  void on_line(const LineRef& line, ParseContext& ctx);
  // End of input.
  void finish(ParseContext& ctx);

private:
  static constexpr size_t npos = std::string_view::npos;

  // A delimiter line of the open body (offsets in the text).
  struct Delim {
    uint32_t line = 0;
    size_t line_begin = 0, next = 0;     // the line's first byte, the next line's
    size_t begin = 0, end = 0;           // the delimiter without blanks
    size_t name_begin = 0, name_end = 0; // NAME
    bool uuid = false;                   // `---(UUID:hex)NAME---`
  };

  // Builds the parameters from the body and the delimiters, reports STRAY_TEXT and
  // DELIMITER_COLLISION, and leaves the block; `end_line` is the marker's line (absent when
  // unclosed).
  void close_block(ParseContext& ctx, std::optional<uint32_t> end_line);
  // The value of the section from `begin` up to `end` (exclusive): the lines with leading and
  // trailing newlines trimmed (a source slice unless a "\r" needs dropping).
  void set_value(ParseContext& ctx, Parameter& p, size_t begin, size_t end) const;
  // The fix of a DELIMITER_COLLISION: every delimiter that is not a collision rewritten to the
  // UUID form with `uuid`, so that the colliding lines become content.
  Fix uuid_fix(const ParseContext& ctx, const std::vector<bool>& collides,
               const std::string& uuid) const;

  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  std::string mark_;
  ByteRange mark_range_;
  size_t body_begin_ = npos, body_end_ = npos; // first byte of the body, end of its last line
  size_t last_end_ = 0;                        // end of the block's last line so far
  size_t start_end_ = 0;                       // end of the start line's text
  size_t fence_close_begin_ = npos;            // first byte of the Markdown fence's closer
  bool crlf_ = false;                          // the start line ends with "\r\n"
  // Non-blank text before the first delimiter: its first line's start, its last line's end.
  size_t stray_begin_ = npos, stray_end_ = npos;
  uint32_t stray_line_ = 0;
  std::vector<Delim> delims_;
  std::string uuid_; // the UUID of the first delimiter when it has one: only those count
};

} // namespace blockls
