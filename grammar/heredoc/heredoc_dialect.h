// The heredoc file-creation dialect as the line router sees it (grammar/dialect.h): its
// description and the state machine of heredoc_parser.h. A heredoc body is content: other
// dialects' start lines and fences inside it never end it (can_yield() is false).
#pragma once

#include "grammar/dialect.h"
#include "grammar/heredoc/heredoc_parser.h"
#include "grammar/heredoc/instructions.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class HeredocDialect : public ParserRuns<HeredocDialect> {
public:
  // `cat` in any case, after any blanks: `ca`, `cA`, `Ca`, `CA`.
  static constexpr StartPrefix kStarts[] = {
      {'c', 'a', true}, {'c', 'A', true}, {'C', 'a', true}, {'C', 'A', true}};
  static constexpr DialectInfo info{
      Dialect::heredoc,
      "heredoc",
      {},
      "heredoc file creation (SCOF)",
      kStarts,
      false,
      "heredoc",
      // The command is file_write / file_append, named by
      // the start line; its parameters path and content.
      {CatalogNames::lower, "", false, false, "command", "", "", "", ""},
      {}, // heredocs sit in transcripts: no file type of their own
      "cat > src/hello.txt << 'EOF'\n"
      "Hello, world!\n"
      "EOF\n",
      heredoc::kInstructions,
      '\0',
      true}; // the id is the heredoc's marker

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  void on_prose_line(const LineRef&, ParseContext&) {}
  void note_prose_line(size_t) {}
  bool quiet_outside() const { return true; }
  static bool interrupts(std::string_view) { return false; }
  bool can_yield() const { return false; } // the body is content up to the marker
  void yield_to_foreign_start(const LineRef&, ParseContext&) {}
  bool pending() const { return false; }
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    return parser_.open_value(doc);
  }
  void finish(ParseContext& ctx, uint32_t line_count) { parser_.finish(ctx, line_count); }
  uint32_t snapshot() const { return 0; } // the paths written are read from the blocks
  void restore(uint32_t, std::string_view text, const std::vector<Block>& earlier, size_t count) {
    parser_.resume(text, earlier, count);
  }
  // The files written (DUPLICATE_FILE) are the same, in order (with their start lines when
  // `lines`).
  static bool same_carried_state(std::string_view old_text, const std::vector<Block>& old_blocks,
                                 size_t old_begin, size_t old_end, std::string_view new_text,
                                 const std::vector<Block>& new_blocks, size_t new_begin,
                                 size_t new_end, bool lines);
  void expect_text_bytes(size_t) {}

  // The body verbatim (without the final newline the parser adds), unless a line of it would
  // end the heredoc (its trim is the marker); a path is not rewritten.
  static std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                                 const Parameter& p, std::string_view value);

private:
  friend ParserRuns<HeredocDialect>;
  // The fast path: runs of body lines (most of a heredoc's lines) are taken without the
  // general routing; the marker line and a line that may close the Markdown fence around the
  // block take the general route (fast_line() takes nothing).
  HeredocParser& run_parser() { return parser_; }

  HeredocParser parser_;
};

} // namespace blockls
