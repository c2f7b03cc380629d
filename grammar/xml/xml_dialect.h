// XML directives (`<write_to_file>` … `</write_to_file>`, Cline/Roo tool calls and the seed's
// `<log_message>`) as the line router sees them (grammar/dialect.h): their description and the
// state machine of xml_parser.h. A directive's opening tag begins a line at column 0 (`<` starts
// much HTML, so the router's prose filter sends such lines to try_start(), which reads one tag
// name and compares it with a short table before anything else), or follows text on a line
// that ends with '>' (DialectInfo::mid_line_end).
#pragma once

#include "grammar/dialect.h"
#include "grammar/xml/instructions.h"
#include "grammar/xml/xml_parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class XmlDialect : public NoFastPath, public NothingCarried {
public:
  static constexpr StartPrefix kStarts[] = {{'<', '\0', false}};
  static constexpr DialectInfo info{
      Dialect::xml,
      "xml",
      {},
      "XML directives (<write_to_file>, <replace_in_file>, …)",
      kStarts,
      false,
      "xml",
      // The command is named by the tag (mapped to the catalog action); a directive without
      // a catalog action (log_message) is checked by the parser and never applied.
      {CatalogNames::lower, "", false, false, "directive", "Add the parameter ", " as a child tag",
       "", "", true},
      {}, // directives sit in assistant messages: no file type of their own
      "<write_to_file>\n"
      "<path>src/hello.txt</path>\n"
      "<content>\n"
      "Hello, world!\n"
      "</content>\n"
      "</write_to_file>\n",
      xml::kInstructions,
      // `We need the file.<read_file>`: a directive may begin after text on a line that ends
      // with a tag (xml::may_open_mid_line).
      '>'};

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  // A line on which an unclosed directive ended without being its own (see the router).
  bool take_declined_line() { return parser_.take_declined(); }
  void on_prose_line(const LineRef&, ParseContext&) {}
  void note_prose_line(size_t) {}
  bool quiet_outside() const { return true; }
  // Other blocks' content may hold tags: a directive never interrupts them.
  static bool interrupts(std::string_view) { return false; }
  // Between parameters another dialect's start line ends an unclosed directive.
  bool can_yield() const { return parser_.between_params(); }
  void yield_to_foreign_start(const LineRef& line, ParseContext& ctx) { parser_.yield(line, ctx); }
  bool pending() const { return false; }
  std::optional<OpenValue> open_value(const ParsedDocument&) const { return parser_.open_value(); }
  void finish(ParseContext& ctx, uint32_t) { parser_.finish(ctx); }
  void expect_text_bytes(size_t) {}

  // A file's content or a SEARCH/REPLACE text without closing tags or diff markers, with the
  // block's line breaks; nullopt for anything else.
  static std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                                 const Parameter& p, std::string_view value);

private:
  XmlParser parser_;
};

} // namespace blockls
