// The sections state machine (spec: ../shared/spec/dialects.md, "Sections (multi-parameter
// input)"; seed 002_…). Fed complete lines by the line router: a start line
// `COMMAND ARGS… << 'MARK'` opens a block of one command named by its program and subcommand;
// every following line is body content until the line that equals the marker. On close the
// body becomes the command's parameters: one per `---NAME---` section when the body opens with
// a delimiter line or has two or more, else the whole body is the one parameter `MESSAGE`.
#pragma once

#include "grammar/parse_context.h"
#include "grammar/sections/sections_line.h"
#include "grammar/shell_heredoc.h"

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

  // The block's range while its lines may take the fast path (after the first delimiter, so
  // that text is section content, not stray); null otherwise.
  ByteRange* run_range(ParsedDocument& doc) {
    return block_ < 0 || delims_.empty() ? nullptr : &doc.blocks[static_cast<size_t>(block_)].range;
  }

  // on_line() for a run of section content: takes the lines of `lines` (the line router's
  // cursor) from its current one on while none may be the end marker (shell::may_terminate),
  // none may be a delimiter (its first non-blank byte is '-') and none is a line where the
  // enclosing Markdown fence may close (`fence_closes`: that line takes the general route).
  // Returns false when the cursor ran out of lines, true when it stopped at a line not taken.
  template <typename Cursor, typename FenceCloses>
  bool take_run_lines(Cursor& lines, std::string_view text, ByteRange& block_range,
                      FenceCloses&& fence_closes) {
    size_t last_end = npos;
    bool more = true;
    for (;;) {
      const size_t b = lines.begin(), e = lines.end();
      const std::string_view t(text.data() + b, e - b);
      if (shell::may_terminate(t, mark_)) break;
      const size_t lead = shell::skip_blanks(t, 0);
      if (lead < t.size() && t[lead] == '-') break;
      if (fence_closes(b, e)) break;
      last_end = e;
      note_section_line(b, e);
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (last_end != npos) body_end_ = last_end_ = block_range.end = last_end;
    return more;
  }

  // The section whose lines are arriving (see OpenValue), once the body is known to be
  // structured: from its first non-empty line to the end of its last non-empty line so far
  // (a value drops its leading and trailing empty lines, so those are not streamed yet).
  std::optional<OpenValue> open_value() const;

private:
  static constexpr size_t npos = std::string_view::npos;
  // The most edits the copies of a block's UUID fix hold together, the first copy always given
  // (see report_collisions): a normal block gives every collision the fix, a body with
  // thousands of repeated delimiters does not hold millions of edits.
  static constexpr size_t kMaxCollisionFixEdits = 4096;

  // A content line [begin, end) of the current section (after a delimiter).
  void note_section_line(size_t begin, size_t end) {
    if (end == begin) return;
    if (section_first_ == npos) section_first_ = begin;
    section_last_end_ = end;
  }

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
  // The command's parameters from the delimiters, one per name; marks each delimiter whose name
  // came before (`collides`) with that name's first delimiter (`first_of`). True if any did.
  bool build_params(ParseContext& ctx, Command& c, std::vector<bool>& collides,
                    std::vector<size_t>& first_of) const;
  // A DELIMITER_COLLISION for each colliding delimiter of block `b`, in order.
  void report_collisions(ParseContext& ctx, const Block& b, const std::vector<bool>& collides,
                         const std::vector<size_t>& first_of) const;
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
  // The current section (after the last delimiter): its NAME, the first byte of its first
  // non-empty line (npos: none yet) and the end of its last non-empty line.
  std::string section_name_;
  size_t section_first_ = npos, section_last_end_ = npos;
};

} // namespace blockls
