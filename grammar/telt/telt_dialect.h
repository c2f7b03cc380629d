// The TELT dialect as the line router sees it (grammar/dialect.h): its description, the
// TELT state machine (telt_parser.h) and its fast path, which takes the common lines of an open
// block (value lines, exact delimiters and command lines) without the general routing.
#pragma once

#include "grammar/bytes.h"
#include "grammar/dialect.h"
#include "grammar/telt/instructions.h"
#include "grammar/telt/telt_parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class TeltDialect : public NothingCarried {
public:
  static constexpr StartPrefix kStarts[] = {{'#', '!'}, {'-', '-'}}; // START; a stray END
  static constexpr std::string_view kExtensions[] = {"telt"};
  static constexpr DialectInfo info{Dialect::telt,
                                    "telt",
                                    {},
                                    "TELT",
                                    kStarts,
                                    false,
                                    "telt",
                                    {CatalogNames::upper, "", true, true, "command", "Add a --",
                                     " <hash>-- delimiter followed by its value", "", ""},
                                    kExtensions,
                                    "#!telt [3-char SHA: k7m]\n"
                                    "=== CREATE_FILE ===\n"
                                    "--PATH k7m--\n"
                                    "src/hello.txt\n"
                                    "--CONTENT k7m--\n"
                                    "Hello, world!\n"
                                    "--END k7m--\n",
                                    telt::kInstructions};

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  bool take_declined_line() { return parser_.take_declined(); }
  void on_prose_line(const LineRef&, ParseContext&) {}
  void note_prose_line(size_t) {}
  bool quiet_outside() const { return true; }
  static bool interrupts(std::string_view line) { return TeltParser::is_start_line(line); }
  bool can_yield() const { return false; } // a TELT block ends only at END or a new START
  void yield_to_foreign_start(const LineRef&, ParseContext&) {}
  bool pending() const { return false; }
  std::optional<OpenValue> open_value(const ParsedDocument& doc) const {
    return parser_.open_value(doc);
  }
  void finish(ParseContext& ctx, uint32_t line_count) { parser_.finish(ctx, line_count); }
  void expect_text_bytes(size_t) {}

  // Fast path.
  bool enter_fast_mode(ParsedDocument& doc) {
    if (parser_.in_value()) {
      mode_ = Mode::value;
      block_range_ = &parser_.open_block_range(doc);
      value_range_ = &parser_.open_value_range(doc);
      return true;
    }
    if (parser_.awaiting_syntax()) {
      mode_ = Mode::command;
      block_range_ = &parser_.open_block_range(doc);
      return true;
    }
    return false;
  }

  // Takes the value lines that cannot be syntax from the cursor's current line on (see
  // LineRouter::dialect_lines); false when the cursor ran out of lines.
  template <typename Cursor>
  bool take_run(std::string_view text, Cursor& lines, const FenceWatch& fences) {
    if (mode_ != Mode::value) return true;
    size_t end = npos, next = 0;
    bool more = true;
    // Leading blanks are counted reading past the line (up to the text's end): its line
    // break, not a blank, ends the count.
    const char* text_end = text.data() + text.size();
    while (!fences.closes(lines.text()) &&
           TeltParser::is_plain_content(lines.text(),
                                        blank_run(text.data() + lines.begin(), text_end))) {
      end = lines.end();
      next = lines.next();
      if (!lines.advance()) {
        more = false;
        break;
      }
    }
    if (end != npos) {
      block_range_->end = end;
      value_range_->end = next - 1; // the value runs to the line's end, "\r" included
    }
    return more;
  }

  // An exact parameter delimiter or command line of the open block (the line has its break).
  FastLine fast_line(std::string_view, const LineRef& line, ParseContext& ctx,
                     const FenceWatch& fences) {
    if (fences.closes(line.text)) return FastLine::not_taken;
    const char first = line.text.empty() ? '\0' : line.text[0];
    if (first == '=') {
      if (!parser_.on_command_line(line, ctx)) return FastLine::not_taken;
      mode_ = Mode::command; // awaiting the command's first parameter
      return FastLine::taken;
    }
    if (first == '-' && parser_.on_own_delimiter(line, ctx)) {
      if (!parser_.in_block()) return FastLine::closed; // END closed the block
      mode_ = Mode::value;                              // a new parameter value is open
      value_range_ = &parser_.open_value_range(*ctx.out);
      return FastLine::taken;
    }
    // The lines that are no syntax although the run could not tell (what on_line() finds):
    // value lines that begin with `-`, and the blank and `//` lines before a parameter.
    if (mode_ == Mode::value && parser_.is_dash_value_line(line.text)) {
      block_range_->end = line.end;
      value_range_->end = line.next - 1; // as take_run(): "\r" included
      return FastLine::taken;
    }
    if (mode_ == Mode::command && parser_.is_ignored_line(line.text)) {
      block_range_->end = line.end;
      return FastLine::taken;
    }
    return FastLine::not_taken;
  }

  // A value that a fix writes as a parameter's value lines: verbatim, unless a line of it
  // would read as TELT syntax.
  static std::optional<std::string> encode_value(std::string_view, const Block&, const Parameter& p,
                                                 std::string_view value);

private:
  static constexpr size_t npos = std::string_view::npos;
  enum class Mode : uint8_t { value, command };

  TeltParser parser_;
  Mode mode_ = Mode::command;
  ByteRange* block_range_ = nullptr;
  ByteRange* value_range_ = nullptr;
};

} // namespace blockls
