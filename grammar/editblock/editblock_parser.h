// The state machine of Aider's SEARCH/REPLACE edit blocks (spec: ../shared/spec/dialects.md,
// "Aider edit blocks"). Fed complete lines by the line router: `<<<<<<< SEARCH` opens a block
// whose path is named by the lines just before it (or reused from the previous block); the
// lines up to `=======` are the SEARCH text, the lines up to `>>>>>>> REPLACE` (or a second
// `=======`) the REPLACE text. One command: `file_append` when SEARCH is empty, else
// `file_replace_text` (params path, old_text, new_text).
#pragma once

#include "grammar/editblock/editblock_line.h"
#include "grammar/parse_context.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class EditBlockParser {
public:
  bool in_block() const { return block_ >= 0; }
  // Outside every block: true when the line is a SEARCH marker that opens an edit.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while the block is open: SEARCH or REPLACE text, or a marker.
  void on_line(const LineRef& line, ParseContext& ctx);
  // End of input: an open block lacks its markers.
  void finish(ParseContext& ctx);
  // The state at a resume point: the path of the last edit in `earlier[0, count)` (reused by
  // an edit that names none). (Where the last block ended, where the path lookback stops, is
  // the router's: ParseContext::last_block_end.) The blocks index `text`.
  void resume(std::string_view text, const std::vector<Block>& earlier, size_t count);

  // The open block's range (the fast path's handle: stable until the next general line), or
  // null when no edit is open.
  ByteRange* run_range(ParsedDocument& doc) {
    return block_ < 0 ? nullptr : &doc.blocks[static_cast<size_t>(block_)].range;
  }

  // on_line() for a run of SEARCH or REPLACE text: takes the lines of `lines` (the line
  // router's cursor: begin(), end(), next(), advance()) from its current one on, as long as a
  // line can be no marker (editblock::may_be_marker) and is not one where the enclosing
  // Markdown fence may close (`fence_closes`: that line takes the general route, which records
  // the fence). State stays in locals and is stored once, after the run. Returns false when
  // the cursor ran out of lines, true when it stopped at a line the run did not take.
  template <typename Cursor, typename FenceCloses>
  bool take_run_lines(Cursor& lines, std::string_view text, ByteRange& block_range,
                      FenceCloses&& fence_closes) {
    size_t first = npos, last_end = npos, last_next = npos;
    bool more = true;
    for (;;) {
      const size_t b = lines.begin(), e = lines.end();
      if (editblock::may_be_marker(std::string_view(text.data() + b, e - b))) break;
      if (fence_closes(b, e)) break;
      if (first == npos) first = b;
      last_end = e;
      last_next = lines.next();
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (first != npos) {
      const bool search = part_ == Part::search;
      size_t& begin = search ? search_begin_ : replace_begin_;
      if (begin == npos) begin = first;
      (search ? search_end_ : replace_end_) = last_next;
      block_range.end = last_end;
    }
    return more;
  }

  // The REPLACE text whose lines are arriving (see OpenValue): its lines with their breaks, as
  // close_block() gives them (`content` for a REPLACE without SEARCH: an append). Not the
  // SEARCH text: its parameter exists only once the block closes, so what a SEARCH streamed
  // could not be completed where the REPLACE begins (and it is the short one).
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    if (block_ < 0 || part_ != Part::replace || replace_begin_ == npos || replace_end_ == npos)
      return std::nullopt;
    return OpenValue{0,
                     search_begin_ == npos ? "content" : "new_text",
                     doc.blocks[static_cast<size_t>(block_)].start_line,
                     {replace_begin_, replace_end_},
                     false};
  }

private:
  static constexpr size_t npos = std::string_view::npos;
  enum class Part : uint8_t { search, replace };

  // The path named by the (at most three) lines before the SEARCH marker at `begin`.
  std::optional<ByteRange> lookback_path(std::string_view text, size_t begin, size_t floor) const;
  // True when the SEARCH marker at `begin` sits in a shell fence (Aider runs those).
  static bool in_shell_fence(std::string_view text, size_t begin, size_t floor);
  // A syntax_info with a fix to the canonical marker when `line` is a variant of it.
  void check_marker(const LineRef& line, ParseContext& ctx, bool canonical, std::string_view want);
  // Builds the command from the parts read so far and leaves the block.
  void close_block(ParseContext& ctx, std::optional<uint32_t> end_line);

  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  Part part_ = Part::search;
  // The open block's path, where the text names it (named here or by an earlier edit): paths
  // are kept as ranges, not copied, as the text before the line being routed never changes.
  ByteRange path_;
  bool has_path_ = false;
  size_t search_begin_ = npos, search_end_ = npos; // SEARCH text (end: the divider's line)
  size_t replace_begin_ = npos, replace_end_ = npos;
  size_t fence_close_begin_ = npos; // first byte of the Markdown fence's closer
  bool crlf_ = false;               // the SEARCH line ends with "\r\n"
  ByteRange last_path_;             // the path of the last edit (reused when one names none)
  bool has_last_path_ = false;
};

} // namespace blockls
