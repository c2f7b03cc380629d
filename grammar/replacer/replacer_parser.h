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
#include <optional>
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

  // The block's range while its lines may take the fast path (inside a SEARCH, REPLACE or
  // OVERWRITE section); null otherwise.
  ByteRange* run_range(ParsedDocument& doc) {
    return block_ < 0 || !in_text() ? nullptr : &doc.blocks[static_cast<size_t>(block_)].range;
  }

  // on_line() for a run of section text: takes the lines of `lines` (the line router's
  // cursor) from its current one on while none can be a marker (markers begin with '<') and
  // none is a line where the enclosing Markdown fence may close (`fence_closes`: that line
  // takes the general route, which records the fence). State stays in locals and is stored
  // once, after the run. Returns false when the cursor ran out of lines, true when it stopped
  // at a line the run did not take.
  template <typename Cursor, typename FenceCloses>
  bool take_run_lines(Cursor& lines, std::string_view text, ByteRange& block_range,
                      FenceCloses&& fence_closes) {
    size_t first = npos, last_end = npos, content_next = npos, content_end = npos;
    bool more = true;
    for (;;) {
      const size_t b = lines.begin(), e = lines.end();
      if (b < e && text[b] == '<') break;
      if (fence_closes(b, e)) break;
      if (first == npos) first = b;
      last_end = e;
      if (!replacer::is_blank(std::string_view(text.data() + b, e - b))) {
        content_next = lines.next();
        content_end = e;
      }
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (first != npos) {
      Section& s = open_section();
      if (s.first == npos) s.first = first;
      s.text_end = last_end;
      if (content_next != npos) {
        s.whitespace_only = false;
        s.content_next = content_next;
        s.content_end = content_end;
      }
      block_range.end = last_end;
    }
    return more;
  }

  // The REPLACE or OVERWRITE text whose lines are arriving (see OpenValue), up to its last
  // non-blank line: the blank lines after it may yet be dropped (a whitespace-only REPLACE is
  // an empty one), and a section's text has no final line break. Not SEARCH text: the
  // parameters exist only once the edit closes, so a SEARCH's stream could not be completed
  // where the REPLACE begins. An OVERWRITE is a value only without SEARCH or REPLACE sections.
  std::optional<OpenValue> open_value() const {
    if (block_ < 0 || (part_ != Part::replace && part_ != Part::overwrite)) return std::nullopt;
    if (part_ == Part::overwrite && (search_.seen || replace_.seen)) return std::nullopt;
    if (part_ == Part::replace && replace_orphan_) return std::nullopt;
    const Section& s = part_ == Part::replace ? replace_ : overwrite_;
    if (s.first == npos || s.content_end == npos) return std::nullopt;
    return OpenValue{0,
                     part_ == Part::replace ? "new_text" : "content",
                     s.marker_line,
                     {s.first, s.content_end},
                     false};
  }

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
    size_t content_end = npos;   // end of its last non-blank line's text
    uint32_t marker_line = 0;    // 0-based line of the marker
    size_t marker_begin = 0;     // first byte of the marker line
    size_t marker_end = 0;       // end of the marker line's text
  };

  bool in_text() const {
    return part_ == Part::search || part_ == Part::replace || part_ == Part::overwrite;
  }
  // The section whose text is being read (in_text()).
  Section& open_section() {
    return part_ == Part::search ? search_ : part_ == Part::replace ? replace_ : overwrite_;
  }

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
