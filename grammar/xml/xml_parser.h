// The state machine of XML directives (spec: ../shared/spec/dialects.md, "XML directives in
// assistant messages"; seed 004; Cline/Roo tool calls). Fed complete lines by the line router.
// A directive begins a line with the opening tag of a known tool (or a near miss of one,
// UNKNOWN_COMMAND) outside any Markdown fence, or begins after text on a line that ends with a
// tag (the opening tag of a known tool, outside inline code); its child elements are its
// parameters, each
// `<tag>value</tag>` on one line or across lines; `</tool>` ends it. Everything else is text
// the router keeps as prose. One block is one directive; a replace_in_file / apply_diff diff
// gives one file_replace_text per SEARCH/REPLACE block.
#pragma once

#include "grammar/markdown_fence.h"
#include "grammar/parse_context.h"
#include "grammar/xml/xml_diff.h"
#include "grammar/xml/xml_tools.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class XmlParser {
public:
  bool in_block() const { return block_ >= 0; }
  // Between parameters (not inside a value): another dialect's start line may end the block.
  // (A write_to_file content taken up again after its closing tag counts as between: the
  // directive may have lacked its end, and the next block must not be swallowed.)
  bool between_params() const { return block_ >= 0 && (!in_param_ || last_close_ != npos); }
  // Outside every block: true when the line opens a directive.
  bool try_start(const LineRef& line, ParseContext& ctx);
  // A line while the directive is open.
  void on_line(const LineRef& line, ParseContext& ctx);
  // Another dialect's start line while between parameters: the directive is left unclosed.
  void yield(const LineRef& line, ParseContext& ctx);
  // End of input: an open directive lacks its closing tag.
  void finish(ParseContext& ctx);
  // True (once) when the last on_line() ended the directive unclosed at a line that is not
  // its own (prose, another dialect's start line): the router offers that line again.
  bool take_declined() {
    const bool d = declined_;
    declined_ = false;
    return d;
  }
  // The file content (a `raw` child such as write_to_file's <content>) whose lines are arriving,
  // when its opening tag ended its line (the common form; a value that begins after its tag on
  // the same line is not streamed): its complete lines so far. In a `<diff>` (same form), the
  // SEARCH or REPLACE text of its open block, as the command that block becomes: the lines
  // that are its text for sure (xml::DiffReader::open).
  std::optional<OpenValue> open_value() const;

private:
  static constexpr size_t npos = std::string_view::npos;

  // One child element read (a parameter, or an unknown child skipped with a warning).
  struct Child {
    const xml::ToolParam* param = nullptr; // null: unknown child
    ByteRange tag;                         // the name in its opening tag
    ByteRange value;                       // between its tags (raw)
    uint32_t line = 0;
  };

  // A line that does not begin with '<': a directive that begins after text on it.
  bool try_start_mid_line(const LineRef& line, ParseContext& ctx);
  // Opens the block at byte `at` of the line: the name of the opening tag and the tool it
  // names (and whether only nearly).
  void open_block(const LineRef& line, ParseContext& ctx, size_t at, std::string_view name,
                  const xml::Tool& tool, bool near);
  // Reads the line from byte `from` (an offset into the line's text): values, tags, the end.
  void scan(const LineRef& line, ParseContext& ctx, size_t from);
  // The directive's closing tag on `line` (its name at close_name_) ends it.
  void close_at(const LineRef& line, ParseContext& ctx);
  // UNCLOSED_BLOCK with a fix inserting the missing closing tags at `at` (before a line when
  // `before_line`, else at the end of input).
  void unclosed(ParseContext& ctx, size_t at, bool before_line);
  // Builds the block's commands from the children read and leaves the block.
  void build(ParseContext& ctx);
  void add_param(ParseContext& ctx, Command& c, std::string_view name, const Child& child);
  void add_diff_commands(ParseContext& ctx, Block& b, const Child* path, const Child* diff);
  void report(ParseContext& ctx, Diagnostic d);
  // Takes the value closed last (reopenable_) up again at byte `pos` of `line`: its closing tag
  // and what followed it were file content.
  void reopen(const LineRef& line, ParseContext& ctx, size_t pos);

  int32_t block_ = -1; // index of the open block in ctx.out->blocks
  const xml::Tool* tool_ = nullptr;
  bool near_ = false;       // the opening tag nearly names tool_
  ByteRange open_name_;     // the tag name of the opening tag
  ByteRange close_name_;    // the tag name of the closing tag (empty until read)
  uint32_t start_line_ = 0; // 0-based line of the opening tag
  bool in_param_ = false;   // inside a child's value
  Child cur_;               // the child being read
  std::vector<Child> children_;
  bool crlf_ = false; // the opening line ends with "\r\n"
  // Markdown fences inside the current value: a tool's tag inside one is content.
  MarkdownFence value_fence_;
  bool declined_ = false; // see take_declined()
  // The current child's value as whole lines (see open_value()): the first byte of its first
  // line (npos: not streamed), and the end of the text of its last complete line so far.
  size_t value_lines_begin_ = npos, value_lines_end_ = npos;
  // A value read to its last closing tag (ToolParam::to_last_close: write_to_file's
  // <content>) was just closed by its own closing tag (cur_ still describes it, the last of
  // children_). Cline and Roo read that value up to the LAST `</content>` before
  // the directive's end (a file may hold the tag: an Atom feed, a page about Cline), so until a
  // parameter or the directive's end follows, anything else takes the value up again.
  bool reopenable_ = false;
  // While a value taken up again is read: where its last closing tag was, which is where it
  // ends if the directive ends before another (npos otherwise).
  size_t last_close_ = npos;
  uint32_t close_line_ = 0; // the line of the value's closing tag (while reopenable_)
  // While a value taken up again is read: the end of its whole lines so far, which become the
  // streamed value's (value_lines_end_) only when another closing tag follows them.
  size_t unsure_end_ = 0;
  // The current `<diff>`'s lines so far, when it is streamed.
  xml::DiffReader diff_lines_;
};

} // namespace blockls
