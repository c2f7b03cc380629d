// The heredoc file-creation state machine (spec: ../shared/spec/dialects.md, "Heredoc file
// creation"; seed 000_…). Fed complete lines by the line router: a start line opens a block of
// one command (`file_write`, or `file_append` for `cat >>`), every following line is body
// content until the line that equals the marker.
#pragma once

#include "grammar/heredoc/heredoc_line.h"
#include "grammar/parse_context.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace blockls {

class HeredocParser {
public:
  bool in_block() const { return block_ >= 0; }
  // Outside every block: true when the line is a heredoc start line (it opens a block).
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while the block is open: body content, or the end marker.
  void on_line(const LineRef& line, ParseContext& ctx);
  // End of input (`line_count` lines in all).
  void finish(ParseContext& ctx, uint32_t line_count);
  // The state at a resume point: the paths of the file writes in `earlier[0, count)`.
  void resume(const std::vector<Block>& earlier, size_t count);

private:
  static constexpr size_t npos = std::string_view::npos;

  // Stores the body as the command's `content` and leaves the block; `end_line` is the
  // marker's line (absent when unclosed).
  void close_block(ParseContext& ctx, std::optional<uint32_t> end_line);
  void report(ParseContext& ctx, Diagnostic diagnostic);

  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  std::string mark_;
  ByteRange mark_range_;
  size_t body_begin_ = npos, body_end_ = npos; // first byte of the body, end of its last line
  size_t last_end_ = 0;                        // end of the block's last line so far
  size_t start_end_ = 0;                       // end of the start line's text
  size_t fence_close_begin_ = npos;            // first byte of the Markdown fence's closer
  bool crlf_ = false;                          // the start line ends with "\r\n"
  // Path -> start line (0-based) of the first heredoc that writes it (DUPLICATE_FILE).
  std::unordered_map<std::string, uint32_t> written_;
};

} // namespace blockls
