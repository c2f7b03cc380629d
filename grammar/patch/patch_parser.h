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
  bool may_move_ = false;    // the line after `*** Update File:` may be `*** Move to:`
  size_t body_begin_ = npos; // first byte of the operation's `+` lines / hunks
  size_t body_end_ = npos;   // end of its last line (with the break)
  uint32_t op_line_ = 0;     // the operation's header line
  ByteRange op_range;        // its header's marker
  std::string op_path_;
  patch::HunkReader hunks_;
  size_t hunk_lines_ = 0;           // lines fed to hunks_
  bool crlf_ = false;               // the Begin line ends with "\r\n"
  size_t fence_close_begin_ = npos; // first byte of the Markdown fence's closer
  bool errors_ = false;             // a malformed line was reported in the open block
};

} // namespace blockls
