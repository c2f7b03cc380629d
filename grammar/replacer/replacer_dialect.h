// The seed's replacer edits (`<<<FILE>>>` … `<<<SEARCH>>>` … `<<<REPLACE>>>` … `<<<END>>>`) as
// the line router sees them (grammar/dialect.h): their description and the state machine of
// replacer_parser.h. One block is one edit. Section text is content: other dialects' start
// lines and fences inside it never end it (can_yield() is false).
#pragma once

#include "grammar/dialect.h"
#include "grammar/replacer/instructions.h"
#include "grammar/replacer/replacer_parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class ReplacerDialect : public ParserRuns<ReplacerDialect>, public NothingCarried {
public:
  // `<<<FILE>>>` and its siblings, at column 0 (the prefix editblock's `<<<<<<<` shares).
  static constexpr StartPrefix kStarts[] = {{'<', '<', false}};
  static constexpr FileEditWords file_edit_words{"edit", "SEARCH not found in", "SEARCH text"};
  static constexpr DialectInfo info{
      Dialect::replacer,
      "replacer",
      {},
      "Replacer edits (<<<FILE>>> / <<<SEARCH>>> / <<<REPLACE>>>)",
      kStarts,
      false,
      "replacer",
      // The command is file_replace_text / file_write, named by the sections.
      {CatalogNames::lower, "", false, false, "edit", "Add the line `<<<FILE>>>` and then the ",
       " on the next line, before the SEARCH or OVERWRITE section", "", ""},
      {}, // replacer edits sit in transcripts: no file type of their own
      "<<<EXPLANATION>>>\n"
      "Create the greeting file\n"
      "<<<FILE>>>\n"
      "src/hello.txt\n"
      "<<<OVERWRITE>>>\n"
      "Hello, world!\n"
      "<<<END>>>\n",
      replacer::kInstructions};

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  void on_prose_line(const LineRef&, ParseContext&) {}
  void note_prose_line(size_t) {}
  bool quiet_outside() const { return true; }
  static bool interrupts(std::string_view) { return false; }
  bool can_yield() const { return false; } // section text is content
  void yield_to_foreign_start(const LineRef&, ParseContext&) {}
  bool pending() const { return false; }
  std::optional<OpenValue> open_value(const ParsedDocument&) const { return parser_.open_value(); }
  void finish(ParseContext& ctx, uint32_t) { parser_.finish(ctx); }
  void expect_text_bytes(size_t) {}

  // SEARCH, REPLACE or OVERWRITE text as section lines (no final "\n" added; none of its lines
  // a marker), with the block's line breaks; a path is not rewritten.
  static std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                                 const Parameter& p, std::string_view value);

private:
  friend ParserRuns<ReplacerDialect>;
  // The fast path: runs of section text (most of an edit's lines) are taken without the
  // general routing; a line that may be a marker (it begins with '<') and a line where the
  // Markdown fence may close take the general route.
  ReplacerParser& run_parser() { return parser_; }

  ReplacerParser parser_;
};

} // namespace blockls
