// Heredoc parameter values read in place (Parameter::Source) and the DUPLICATE_FILE table:
// the values are those the shell would write, whichever way the parser stores them.
#include "grammar/heredoc/written_paths.h"
#include "grammar/router/document_parser.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>

using namespace blockls;

namespace {

// The parse of `text`, one-shot or streamed a byte at a time.
ParsedDocument parse(const std::string& text, bool streamed) {
  if (!streamed) return parse_document(text);
  DocumentParser parser;
  for (const char c : text)
    parser.feed(std::string_view(&c, 1));
  return parser.finish();
}

} // namespace

TEST_CASE("an LF heredoc body is read from the source, a CRLF one decoded", "[heredoc]") {
  for (const bool streamed : {false, true}) {
    const std::string lf = "cat > \"my dir/a.txt\" << 'EOF'\none\n\ntwo\r x\nEOF\n";
    ParsedDocument doc = parse(lf, streamed);
    REQUIRE(doc.blocks.size() == 1);
    // Nothing on the heap: the block is sealed (asked first: mutable access unseals).
    CHECK(doc.blocks[0].commands.sealed());
    const Command& c = std::as_const(doc).blocks[0].commands[0];
    REQUIRE(c.params.size() == 2);
    CHECK(c.params[0].value(lf) == "my dir/a.txt");
    CHECK(c.params[0].source == Parameter::Source::range);
    CHECK_FALSE(c.params[0].value_is_slice);
    CHECK(c.params[1].value(lf) == "one\n\ntwo\r x\n"); // a "\r" not before "\n" stays
    CHECK(c.params[1].source == Parameter::Source::range_and_break);
    CHECK(c.params[1].decoded.empty());

    const std::string crlf = "cat > a.txt << 'EOF'\r\none\r\ntwo\r\nEOF\r\n";
    doc = parse(crlf, streamed);
    const Parameter& body = doc.blocks[0].commands[0].params[1];
    CHECK(body.value(crlf) == "one\ntwo\n");
    CHECK(body.source == Parameter::Source::decoded);

    // Unclosed, the last line without a break: the final "\n" is not in the source.
    const std::string open = "cat > a.txt << 'EOF'\none\ntwo";
    doc = parse(open, streamed);
    CHECK(doc.blocks[0].commands[0].params[1].value(open) == "one\ntwo\n");
    CHECK(doc.blocks[0].commands[0].params[1].source == Parameter::Source::decoded);

    const std::string empty = "cat > a.txt << 'EOF'\nEOF\n";
    doc = parse(empty, streamed);
    CHECK(doc.blocks[0].commands[0].params[1].value(empty).empty());
  }
}

TEST_CASE("the written-paths table finds every earlier write, also after it grows", "[heredoc]") {
  heredoc::WrittenPaths paths;
  for (uint32_t i = 0; i < 5000; ++i)
    REQUIRE_FALSE(paths.insert(uint64_t{i} * 0x100000000ull, i)); // keys alike in low bits
  for (uint32_t i = 0; i < 5000; ++i) {
    const std::optional<uint32_t> first = paths.insert(uint64_t{i} * 0x100000000ull, 9999);
    REQUIRE(first);
    REQUIRE(*first == i);
  }
  CHECK_FALSE(paths.insert(0x123, 1));
  CHECK(*paths.insert(0x123, 2) == 1);
}
