// The state machine of Codex patch envelopes (spec: ../shared/spec/dialects.md, "Codex patches
// (`patch`)"). `*** Begin Patch` opens a block; each file operation inside is one command:
// `*** Add File: P` + `+` lines -> file_write (path, content); `*** Delete File: P` ->
// file_delete (path); `*** Update File: P` [+ `*** Move to: Q`] + hunks -> file_patch (path,
// hunks, new_path). `*** End Patch` closes the block. Markers are matched on the trimmed line
// (Codex's leniency); a padded one is accepted with a PATCH_MARKER_VARIANT note.
#pragma once

#include "grammar/parse_context.h"
#include "grammar/patch/patch_hunks.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace blockls {

class PatchParser {
public:
  bool in_block() const { return block_ >= 0; }
  // Outside every block: true when the line is `*** Begin Patch` (maybe padded).
  bool try_start(const LineRef& line, ParseContext& ctx);
  void on_line(const LineRef& line, ParseContext& ctx);
  // End of input: the open envelope lacks its `*** End Patch`.
  void finish(ParseContext& ctx);
  // The open operation's value while its lines arrive (see OpenValue): an Add File's `content`
  // (its `+` lines without the '+') or an Update's `hunks` (its lines as written), each ending
  // with a line break.
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const;

  // The block's range while its lines may take the fast path (an Add File's `+` lines, the
  // lines of an open hunk chunk); null otherwise.
  ByteRange* run_range(ParsedDocument& doc) {
    const bool body = op_ == Op::add || (op_ == Op::update && !may_move_ && hunks_.in_chunk());
    return block_ < 0 || !body || fence_close_begin_ != npos
               ? nullptr
               : &doc.blocks[static_cast<size_t>(block_)].range;
  }

  // on_line() for a run of body lines: takes the lines of `lines` (the line router's cursor)
  // from its current one on while each is, by on_line()'s rules, only a body line: `+` in an
  // Add File; ' ', '-', '+' or empty in an open chunk, unless it trims to a `***` line. A line
  // where the enclosing Markdown fence may close (`fence_closes`) takes the general route.
  // Returns false when the cursor ran out of lines, true when it stopped at a line not taken.
  template <typename Cursor, typename FenceCloses>
  bool take_run_lines(Cursor& lines, std::string_view text, ByteRange& block_range,
                      FenceCloses&& fence_closes) {
    const bool add = op_ == Op::add;
    size_t taken = 0, last_end = npos, last_next = npos;
    bool more = true;
    for (;;) {
      const size_t b = lines.begin(), e = lines.end();
      if (!(add ? b < e && text[b] == '+' : is_chunk_line(text, b, e))) break;
      if (fence_closes(b, e)) break;
      ++taken;
      last_end = e;
      last_next = lines.next();
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (taken > 0) {
      body_end_ = last_next;
      body_text_end_ = last_end;
      block_range.end = last_end;
      if (!add) {
        hunks_.take_chunk_lines(taken);
        hunk_lines_ += taken;
      }
    }
    return more;
  }

private:
  static constexpr size_t npos = std::string_view::npos;
  enum class Op : uint8_t { none, add, update };

  Block& block(ParseContext& ctx) { return ctx.out->blocks[static_cast<size_t>(block_)]; }
  // A file-operation header (or a malformed line where one was expected).
  void header(const LineRef& line, std::string_view t, ParseContext& ctx);
  // Writes the open operation's content / hunks parameter and leaves it.
  void end_op(ParseContext& ctx);
  void malformed(const LineRef& line, ParseContext& ctx, std::string message, std::string hint,
                 std::vector<Fix> fixes = {});
  void variant(const LineRef& line, std::string_view t, ParseContext& ctx);
  void close(ParseContext& ctx, std::optional<uint32_t> end_line);

  int32_t block_ = -1;
  Op op_ = Op::none;
  bool may_move_ = false;       // the line after `*** Update File:` may be `*** Move to:`
  size_t body_begin_ = npos;    // first byte of the operation's `+` lines / hunks
  size_t body_end_ = npos;      // end of its last line (with the break)
  size_t body_text_end_ = npos; // end of its last line's text; npos before its first line
  uint32_t op_line_ = 0;        // the operation's header line
  ByteRange op_range;           // its header's marker
  std::string op_path_;
  // A line of an open chunk that is nothing else: ' ' (not before a `***` marker), '-', '+'
  // or empty (an empty context line).
  static bool is_chunk_line(std::string_view text, size_t b, size_t e) {
    if (b == e) return true;
    const char c = text[b];
    if (c == '-' || c == '+') return true;
    if (c != ' ') return false;
    size_t i = b + 1;
    while (i < e && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
      ++i;
    return i == e || text[i] != '*';
  }

  patch::HunkReader hunks_{false};
  size_t hunk_lines_ = 0;           // lines fed to hunks_
  bool crlf_ = false;               // the Begin line ends with "\r\n"
  size_t fence_close_begin_ = npos; // first byte of the Markdown fence's closer
  bool errors_ = false;             // a malformed line was reported in the open block
};

} // namespace blockls
