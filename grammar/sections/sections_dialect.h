// Command input with sections as the line router sees it (grammar/dialect.h): a shell heredoc
// whose command is not `cat` (`chatroom task-started … << 'PARAMS_END'`), its body split into
// parameters by `---NAME---` delimiter lines. Checked and shown, never run. A body is content:
// other dialects' start lines and fences inside it never end it (can_yield() is false).
#pragma once

#include "grammar/dialect.h"
#include "grammar/sections/instructions.h"
#include "grammar/sections/sections_parser.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

namespace sections {
// A start line begins with a lower-case letter, `_`, `.` or `/` (after any blanks), and ends
// with the heredoc operator: the prose filter asks the line's end before it routes a line that
// begins so (LineTail::heredoc_operator), so prose stays on the fast path. Not with an upper-case
// letter: programs are named in lower case, while a sentence that ends by quoting the operator
// ("The shell reads until the marker <<EOF") begins with one, and must stay prose.
constexpr std::array<StartPrefix, 29> start_prefixes() {
  std::array<StartPrefix, 29> s{};
  size_t n = 0;
  for (char c = 'a'; c <= 'z'; ++c)
    s[n++] = {c, '\0', true, LineTail::heredoc_operator};
  for (const char c : {'_', '.', '/'})
    s[n++] = {c, '\0', true, LineTail::heredoc_operator};
  return s;
}
inline constexpr std::array<StartPrefix, 29> kStartPrefixes = start_prefixes();
} // namespace sections

class SectionsDialect : public ParserRuns<SectionsDialect>, public NothingCarried {
public:
  // The output key of a parameter (`TECH_SPECS` -> `techSpecs`), as the seed decodes it.
  static std::string output_key(std::string_view name) { return sections::camel_key(name); }

  static constexpr DialectInfo info{
      Dialect::sections,
      "sections",
      {},
      "command input with sections",
      sections::kStartPrefixes,
      false,
      "sections",
      // The command is named by its program and subcommand (`chatroom task-started`, the
      // catalog's `nesl_names`); its parameters by their upper-case NAME.
      {CatalogNames::lower, "", false, false, "command", "Add a ---",
       "--- delimiter line followed by its value", "", "", true, true, &output_key},
      {}, // command input sits in transcripts: no file type of its own
      "chatroom task-started j123abc456def --role=builder --task-id=k789xyz << 'PARAMS_END'\n"
      "---TITLE---\n"
      "User Authentication System\n"
      "---DESCRIPTION---\n"
      "Add login and logout with JWT tokens.\n"
      "---TECH_SPECS---\n"
      "- Use bcrypt for password hashing\n"
      "PARAMS_END\n",
      sections::kInstructions,
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
  std::optional<OpenValue> open_value(const ParsedDocument&) const { return parser_.open_value(); }
  void finish(ParseContext& ctx, uint32_t) { parser_.finish(ctx); }
  void expect_text_bytes(size_t) {}

  // Never run, so no fix writes a value: no encoding.
  static std::optional<std::string> encode_value(std::string_view, const Block&, const Parameter&,
                                                 std::string_view) {
    return std::nullopt;
  }

private:
  friend ParserRuns<SectionsDialect>;
  // The fast path: runs of section content after the first delimiter are taken without the
  // general routing; a line that may be the end marker or a delimiter, and a line where the
  // Markdown fence may close, take the general route.
  SectionsParser& run_parser() { return parser_; }

  SectionsParser parser_;
};

} // namespace blockls
