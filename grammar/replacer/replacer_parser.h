// The state machine of the seed's replacer edits (spec: ../shared/spec/dialects.md,
// "SEARCH/REPLACE edits — seed 001"). Fed complete lines by the line router. One block is one
// edit: an optional `<<<EXPLANATION>>>` text, `<<<FILE>>>` and the path (the first non-empty
// line after it, trimmed), then `<<<SEARCH>>>` … `<<<REPLACE>>>` … `<<<END>>>` (one command
// `file_replace_text`: path, old_text, new_text) or `<<<OVERWRITE>>>` … `<<<END>>>`
// (`file_write`: path, content). A section's text is its lines joined with "\n", no final
// "\n" added. Any of the markers but `<<<END>>>` opens an edit outside blocks.
#pragma once

#include "grammar/parse_context.h"
#include "grammar/replacer/replacer_line.h"

#include <cstdint>
#include <string_view>

namespace blockls {

class ReplacerParser {
public:
  bool in_block() const { return block_ >= 0; }
  // Outside every block: true when the line is a marker that opens an edit.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while the edit is open: explanation, path, section text or a marker.
  void on_line(const LineRef& line, ParseContext& ctx);
  // End of input: an open edit lacks its `<<<END>>>`.
  void finish(ParseContext& ctx);

private:
  static constexpr size_t npos = std::string_view::npos;
  enum class Part : uint8_t { explanation, file, after_path, search, replace, overwrite };

  // The text lines of one section (SEARCH, REPLACE or OVERWRITE) and its marker.
  struct Section {
    bool seen = false;
    size_t marker_next = 0;      // first byte after the marker line
    size_t first = npos;         // first byte of its first line (npos: no line)
    size_t text_end = 0;         // end of its last line's text (before the break)
    bool whitespace_only = true; // every line is blank
    size_t content_next = npos;  // first byte after its last non-blank line
    uint32_t marker_line = 0;    // 0-based line of the marker
    size_t marker_begin = 0;     // first byte of the marker line
    size_t marker_end = 0;       // end of the marker line's text
  };

  void open_block(const LineRef& line, ParseContext& ctx, replacer::Marker m);
  // The marker line `line` of kind `m` inside the open edit.
  void on_marker(const LineRef& line, ParseContext& ctx, replacer::Marker m);
  // Starts section `s` at its marker line.
  void begin_section(Section& s, const LineRef& line, Part part);
  // MALFORMED_EDIT on a marker line (or the edit's first line when `r` is empty).
  void malformed(ParseContext& ctx, uint32_t line, ByteRange r, std::string message,
                 std::string hint);
  // UNCLOSED_BLOCK on the edit's first line, with a fix inserting `<<<END>>>` at `at` (the
  // fence's closing line, the next edit's first marker, or the end of input).
  void unclosed(ParseContext& ctx, size_t at, bool before_line);
  // Builds the command from the sections read and leaves the edit.
  void close_block(ParseContext& ctx, std::optional<uint32_t> end_line);
  // Adds parameter `name` with the text of section `s` (empty when it has no line).
  void add_text(ParseContext& ctx, Command& c, std::string_view name, const Section& s);

  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  Part part_ = Part::explanation;
  Section search_, replace_, overwrite_;
  bool replace_orphan_ = false;     // a REPLACE came without its SEARCH
  size_t fence_close_begin_ = npos; // first byte of the Markdown fence's closer
  bool crlf_ = false;               // the first marker line ends with "\r\n"
};

} // namespace blockls
