// The heredoc file-creation state machine (spec: ../shared/spec/dialects.md, "Heredoc file
// creation"; seed 000_…). Fed complete lines by the line router: a start line opens a block of
// one command (`file_write`, or `file_append` for `cat >>`), every following line is body
// content until the line that equals the marker.
#pragma once

#include "grammar/heredoc/heredoc_line.h"
#include "grammar/heredoc/written_paths.h"
#include "grammar/parse_context.h"
#include "grammar/shell_heredoc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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
  // The state at a resume point: the paths of the file writes in `earlier[0, count)` (which
  // index `text`).
  void resume(std::string_view text, const std::vector<Block>& earlier, size_t count);

  // The open block's range (the fast path's handle: stable until the next general line), or
  // null when no heredoc is open.
  ByteRange* run_range(ParsedDocument& doc) {
    return block_ < 0 ? nullptr : &doc.blocks[static_cast<size_t>(block_)].range;
  }

  // on_line() for a run of body lines: takes the lines of `lines` (the line router's cursor:
  // begin(), end(), advance()) from its current one on, as long as a line is neither the
  // marker (exact or indented) nor one where the enclosing Markdown fence may close
  // (`fence_closes`: that line takes the general route, which records the fence). State stays
  // in locals and is stored once, after the run. Returns false when the cursor ran out of
  // lines, true when it stopped at a line the run did not take.
  template <typename Cursor, typename FenceCloses>
  bool take_run_lines(Cursor& lines, std::string_view text, ByteRange& block_range,
                      FenceCloses&& fence_closes) {
    const std::string_view mark = mark_;
    size_t first = npos, last_end = npos;
    bool more = true, crlf = false;
    for (;;) {
      const size_t b = lines.begin(), e = lines.end();
      const std::string_view line(text.data() + b, e - b);
      if (shell::may_terminate(line, mark) &&
          shell::terminator(line, mark) != shell::Terminator::none)
        break;
      if (fence_closes(b, e)) break;
      if (first == npos) first = b;
      last_end = e;
      crlf |= lines.next() - e != 1; // see body_crlf_
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (first != npos) {
      body_crlf_ |= crlf;
      if (body_begin_ == npos) body_begin_ = first;
      body_end_ = last_end;
      last_end_ = last_end;
      block_range.end = last_end;
    }
    return more;
  }

  // The body so far as the `content` value (see OpenValue): its lines plus a final break.
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    if (block_ < 0 || body_begin_ == npos) return std::nullopt;
    return OpenValue{0,
                     "content",
                     doc.blocks[static_cast<size_t>(block_)].start_line,
                     {body_begin_, body_end_},
                     true};
  }

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
  // A body line does not end with a bare "\n" ("\r\n", or no break at the end of input).
  // Unless one does, the body has no "\r\n" and its value is the source up to and including
  // the last line's "\n" (see close_block): no scan of the body for "\r" is needed.
  bool body_crlf_ = false;
  // Hash of a path -> start line (0-based) of the first heredoc that writes it
  // (DUPLICATE_FILE). Keyed by a 64-bit hash, not the path: no allocation per block on the hot
  // path; two different paths would have to collide in 64 bits to be taken for one.
  heredoc::WrittenPaths written_;
};

} // namespace blockls
