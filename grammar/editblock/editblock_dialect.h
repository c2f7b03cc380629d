// Aider's SEARCH/REPLACE edit blocks as the line router sees them (grammar/dialect.h): their
// description and the state machine of editblock_parser.h. The text between the markers is
// content: other dialects' start lines and fences inside it never end it (can_yield() is
// false).
#pragma once

#include "grammar/dialect.h"
#include "grammar/editblock/editblock_parser.h"
#include "grammar/editblock/instructions.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class EditBlockDialect : public ParserRuns<EditBlockDialect> {
public:
  // `<<<<<<< SEARCH` (5 to 9 `<`), possibly indented.
  static constexpr StartPrefix kStarts[] = {{'<', '<', true}};
  // Aider applies a SEARCH text that matches only re-indented or without a leading blank line;
  // so do we, with SEARCH_NOT_EXACT (apply/search_repair.h).
  static constexpr bool repairs_search = true;
  static constexpr FileEditWords file_edit_words{"edit", "SEARCH not found in", "SEARCH text"};
  static constexpr DialectInfo info{
      Dialect::editblock,
      "editblock",
      {},
      "Aider edit blocks (SEARCH/REPLACE)",
      kStarts,
      false,
      "editblock",
      // The command is file_replace_text / file_append, named by the SEARCH text; the path is
      // the line before the block.
      {CatalogNames::lower, "", false, false, "edit",
       "Bad/missing filename. The filename must be alone on the line before the opening fence "
       "(missing: ",
       ")", "", ""},
      {}, // edit blocks sit in transcripts: no file type of their own
      "src/hello.txt\n"
      "```\n"
      "<<<<<<< SEARCH\n"
      "=======\n"
      "Hello, world!\n"
      ">>>>>>> REPLACE\n"
      "```\n",
      editblock::kInstructions};

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  void on_prose_line(const LineRef&, ParseContext&) {}
  void note_prose_line(size_t) {}
  bool quiet_outside() const { return true; } // the path is read back from the text
  static bool interrupts(std::string_view) { return false; }
  bool can_yield() const { return false; } // SEARCH and REPLACE text is content
  void yield_to_foreign_start(const LineRef&, ParseContext&) {}
  bool pending() const { return false; }
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    return parser_.open_value(doc);
  }
  void finish(ParseContext& ctx, uint32_t) { parser_.finish(ctx); }
  uint32_t snapshot() const { return 0; } // the path to reuse is read from the blocks
  void restore(uint32_t, std::string_view text, const std::vector<Block>& earlier, size_t count) {
    parser_.resume(text, earlier, count);
  }
  // The path a later edit without one reuses (the last edit's) is the same.
  static bool same_carried_state(std::string_view old_text, const std::vector<Block>& old_blocks,
                                 size_t old_begin, size_t old_end, std::string_view new_text,
                                 const std::vector<Block>& new_blocks, size_t new_begin,
                                 size_t new_end, bool lines);
  void expect_text_bytes(size_t) {}

  // SEARCH or REPLACE text (ending with "\n" unless empty, no line of it a marker), with the
  // block's line breaks; a path is not rewritten.
  static std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                                 const Parameter& p, std::string_view value);

private:
  friend ParserRuns<EditBlockDialect>;
  // The fast path: runs of SEARCH and REPLACE text (most of an edit's lines) are taken without
  // the general routing; a line that may be a marker and a line that may close the Markdown
  // fence around the block take the general route (fast_line() takes nothing).
  EditBlockParser& run_parser() { return parser_; }

  EditBlockParser parser_;
};

} // namespace blockls
