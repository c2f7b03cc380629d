// The SHAM / NESL dialect as the line router sees it (grammar/dialect.h): its description, the
// NESL state machine (nesl_parser.h) and its fast path, which takes heredoc body lines, plain
// `key = "value"` lines, heredoc delimiters and the exact end marker without the general
// routing. What carries from block to block (the document's line break, the ids seen) is
// NESL's own: snapshot() / restore() and same_carried_state() hand it to the router.
#pragma once

#include "grammar/dialect.h"
#include "grammar/nesl/instructions.h"
#include "grammar/nesl/nesl_parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class NeslDialect {
public:
  // A header `#!nesl` / `#!NESL` / `#!SHAM`, after any JavaScript whitespace.
  static constexpr StartPrefix kStarts[] = {{'#', '!', true}};
  static constexpr std::string_view kAliases[] = {"sham"};
  static constexpr std::string_view kExtensions[] = {"nesl", "sham"};
  static constexpr DialectInfo info{Dialect::nesl,
                                    "nesl",
                                    kAliases,
                                    "SHAM / NESL",
                                    kStarts,
                                    true,
                                    "nesl",
                                    {CatalogNames::lower, "action", false, false, "action", "Add ",
                                     " = \"...\" (or a heredoc) to the block",
                                     "Missing 'action' field in NESL block",
                                     "Add a line such as action = \"write_file\" naming one "
                                     "of the catalog's actions"},
                                    kExtensions,
                                    "#!nesl [@three-char-SHA-256: k7m]\n"
                                    "action = \"file_write\"\n"
                                    "path = \"src/hello.txt\"\n"
                                    "content = <<'EOT_k7m'\n"
                                    "Hello, world!\n"
                                    "EOT_k7m\n"
                                    "#!end_k7m\n",
                                    nesl::kInstructions};

  bool try_start(const LineRef& line, ParseContext& ctx) { return parser_.try_start(line, ctx); }
  bool in_block() const { return parser_.in_block(); }
  void on_line(const LineRef& line, ParseContext& ctx) { parser_.on_line(line, ctx); }
  bool take_declined_line() { return parser_.take_declined(); }
  void on_prose_line(const LineRef& line, ParseContext& ctx) { parser_.on_plain_line(line, ctx); }
  void note_prose_line(size_t begin) { parser_.note_prose_line(begin); }
  bool quiet_outside() const { return parser_.quiet_outside(); }
  static bool interrupts(std::string_view) { return false; }
  bool can_yield() const { return parser_.can_yield(); }
  void yield_to_foreign_start(const LineRef& line, ParseContext& ctx) {
    parser_.yield_to_foreign_start(line, ctx);
  }
  bool pending() const { return parser_.pending(); }
  // The open heredoc value (see OpenValue): its body lines, joined without a final break.
  std::optional<OpenValue> open_value(const ParsedDocument&) const { return parser_.open_value(); }
  void finish(ParseContext& ctx, uint32_t line_count) { parser_.finish(ctx, line_count); }
  // The document's line break as learnt from its first line: 0 unknown, 1 LF, 2 CRLF.
  uint32_t snapshot() const { return parser_.newline_state(); }
  void restore(uint32_t state, std::string_view, const std::vector<Block>& earlier, size_t count) {
    parser_.resume(static_cast<uint8_t>(state), earlier, count);
  }
  // The NESL ids seen (duplicate ids, fresh ids in repairs) are the same, in order (with their
  // start lines when `lines`).
  static bool same_carried_state(std::string_view old_text, const std::vector<Block>& old_blocks,
                                 size_t old_begin, size_t old_end, std::string_view new_text,
                                 const std::vector<Block>& new_blocks, size_t new_begin,
                                 size_t new_end, bool lines);
  void expect_text_bytes(size_t bytes) { parser_.expect_text_bytes(bytes); }

  // Fast path.
  bool enter_fast_mode(ParsedDocument& doc) {
    if (parser_.in_heredoc_body()) {
      mode_ = Mode::body;
      block_range_ = &parser_.open_block_range(doc);
      return true;
    }
    if (parser_.in_assignments()) {
      mode_ = Mode::assignments;
      return true;
    }
    return false;
  }

  // Takes heredoc body lines from the cursor's current line on (see LineRouter::dialect_lines);
  // false when the cursor ran out of lines.
  template <typename Cursor>
  bool take_run(std::string_view text, Cursor& lines, const FenceWatch& fences) {
    if (mode_ != Mode::body) return true;
    return parser_.take_body_lines(lines, text, *block_range_, [&](size_t b, size_t e) {
      return fences.closes(std::string_view(text.data() + b, e - b));
    });
  }

  FastLine fast_line(std::string_view text, const LineRef& line, ParseContext& ctx,
                     const FenceWatch& fences) {
    if (fences.closes(line.text)) return FastLine::not_taken;
    if (mode_ == Mode::body) {
      if (parser_.on_body_line(line.begin, line.end, text, *block_range_)) return FastLine::taken;
      if (!parser_.on_exact_delim(line, ctx))
        return parser_.on_other_body_line(line, ctx) ? FastLine::taken : FastLine::not_taken;
      mode_ = Mode::assignments; // back among the block's assignments
      return FastLine::taken;
    }
    if (!line.text.empty() && line.text[0] == '#') { // perhaps the end marker
      return parser_.on_exact_end(line, ctx) ? FastLine::closed : FastLine::not_taken;
    }
    // (A blank line is tried second: it fails the assignment's first test at once.)
    if (!parser_.on_plain_assignment(line, ctx))
      return parser_.on_blank_line(line, ctx) ? FastLine::taken : FastLine::not_taken;
    if (parser_.in_heredoc_body()) { // the line opened a heredoc
      mode_ = Mode::body;
      block_range_ = &parser_.open_block_range(*ctx.out);
    }
    return FastLine::taken;
  }

  // A quoted value is written as a JSON string; a heredoc body verbatim (with the document's
  // CRLF), unless a line would end the heredoc early or read as a header. The heredoc's
  // delimiter is the one of the block's own era (`EOT_<id>`, `EOT_SHAM_<id>`, ...).
  static std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                                 const Parameter& p, std::string_view value);

private:
  enum class Mode : uint8_t { body, assignments };

  NeslParser parser_;
  Mode mode_ = Mode::assignments;
  ByteRange* block_range_ = nullptr;
};

} // namespace blockls
