// Codex patch envelopes (`*** Begin Patch` ... `*** End Patch`) as the line router sees them
// (grammar/dialect.h): their description and the state machine of patch_parser.h. Lines
// inside an envelope are content (hunk lines, added lines): other dialects' start lines never
// end it (can_yield() is false).
#pragma once

#include "grammar/dialect.h"
#include "grammar/patch/instructions.h"
#include "grammar/patch/patch_parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class PatchDialect : public ParserRuns<PatchDialect>, public NothingCarried {
public:
  // `*** Begin Patch`, possibly indented. The second byte keeps Markdown bullets (`* item`)
  // on the prose fast path.
  static constexpr StartPrefix kStarts[] = {{'*', '*', true}};
  static constexpr FileEditWords file_edit_words{"patch", "Expected lines not found in"};
  static constexpr DialectInfo info{Dialect::patch,
                                    "patch",
                                    {},
                                    "Codex patches (*** Begin Patch)",
                                    kStarts,
                                    false,
                                    "patch",
                                    // One command per file operation, named by its header.
                                    {CatalogNames::lower, "", false, false, "file operation",
                                     "Add the ", " of the operation", "", ""},
                                    {}, // patches sit in transcripts: no file type of their own
                                    "*** Begin Patch\n"
                                    "*** Add File: src/hello.txt\n"
                                    "+Hello, world!\n"
                                    "*** End Patch\n",
                                    patch::kInstructions};

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  void on_prose_line(const LineRef&, ParseContext&) {}
  void note_prose_line(size_t) {}
  bool quiet_outside() const { return true; }
  static bool interrupts(std::string_view) { return false; }
  bool can_yield() const { return false; } // hunk and added lines are content
  void yield_to_foreign_start(const LineRef&, ParseContext&) {}
  bool pending() const { return false; }
  void finish(ParseContext& ctx, uint32_t) { parser_.finish(ctx); }
  void expect_text_bytes(size_t) {}
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    return parser_.open_value(doc);
  }

  // An added file's content as `+` lines, with the block's line breaks; other parameters
  // (paths, hunks) are not rewritten by fixes.
  static std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                                 const Parameter& p, std::string_view value);

private:
  friend ParserRuns<PatchDialect>;
  // The fast path: runs of body lines (an Add File's `+` lines, the lines of an open hunk
  // chunk: most of a patch) are taken without the general routing; every other line (markers,
  // chunk headers, a line where the Markdown fence may close) takes the general route.
  PatchParser& run_parser() { return parser_; }

  PatchParser parser_;
};

} // namespace blockls
