// The protocol helpers: the severity table of the spec pages, field errors that name the
// field, and positions in both encodings through LineIndex.
#include "lsp/documents.h"
#include "lsp/protocol.h"

#include <catch2/catch.hpp>
#include <sys/resource.h>

using namespace blockls;
using namespace blockls::lsp;

TEST_CASE("severity mapping follows the spec pages", "[lsp][protocol]") {
  CHECK(lsp_severity(Severity::block_fatal) == 1);       // Error
  CHECK(lsp_severity(Severity::command_error) == 1);     // Error
  CHECK(lsp_severity(Severity::parameter_warning) == 2); // Warning
  CHECK(lsp_severity(Severity::syntax_info) == 3);       // Information
}

TEST_CASE("missing and mistyped fields are named in the error", "[lsp][protocol]") {
  const json params = json::parse(R"({"textDocument":{"uri":3},"position":{"line":1}})");
  try {
    require_string(params, "textDocument.uri");
    FAIL("no error");
  } catch (const LspError& e) {
    CHECK(e.code == kInvalidParams);
    CHECK(std::string(e.what()) == "invalid field 'textDocument.uri' (expected string)");
  }
  CHECK_THROWS_WITH(parse_position(params, "position"),
                    "missing field 'position.character' (expected integer)");
  CHECK(optional_field(params, "context.only", json::value_t::array) == nullptr);
}

TEST_CASE("positions convert in UTF-16 and UTF-8, CRLF aware, clamped", "[lsp][protocol]") {
  const std::string text = "a👋b\r\nsecond";
  const LineIndex lines(text);
  const PositionMapper utf16(text, lines, PositionEncoding::utf16);
  const PositionMapper utf8(text, lines, PositionEncoding::utf8);
  const size_t b = text.find('b');
  CHECK(utf16.position(b).character == 3);
  CHECK(utf8.position(b).character == 5);
  CHECK(utf16.position(text.find('\r')).character == 4); // the line break is not text
  CHECK(utf16.offset({0, 3}) == b);
  CHECK(utf8.offset({0, 5}) == b);
  CHECK(utf16.offset({0, 99}) == text.find('\r')); // past the line end: the line end
  CHECK(utf16.offset({2, 0}) == text.size());      // one past the last line: the end
  CHECK_FALSE(utf16.offset({3, 0}).has_value());
}

TEST_CASE("incremental changes apply in order: a bad one leaves the text alone",
          "[lsp][documents]") {
  const DocumentText doc = DocumentText::from("hello\nworld\n");
  DocumentText out;
  std::string error;
  const json changes = json::parse(R"([
    {"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":5}},"text":" there"},
    {"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":11}},"text":"hi"}])");
  REQUIRE(apply_content_changes(doc, changes, PositionEncoding::utf16, &out, &error));
  CHECK(*out.text == "hi\nworld\n");
  CHECK(out.lines->line_count() == 3);
  // The batch as one edit of the previous version: "hello" became "hi" (bytes [0, 5) -> [0, 2)).
  CHECK(out.origin.id != doc.origin.id);
  CHECK(out.origin.from_id == doc.origin.id);
  CHECK(out.origin.change.begin == 0);
  CHECK(out.origin.change.old_end == 5);
  CHECK(out.origin.change.new_end == 2);
  // A full text is not an edit of anything known.
  DocumentText replaced;
  REQUIRE(apply_content_changes(out, json::parse(R"([{"text":"new"}])"), PositionEncoding::utf16,
                                &replaced, &error));
  CHECK(replaced.origin.from_id == 0);
  CHECK(replaced.origin.id != out.origin.id);

  const json bad = json::parse(
      R"([{"text":"full"},{"range":{"start":{"line":9,"character":0},"end":{"line":9,"character":0}},"text":"x"}])");
  DocumentText untouched = doc;
  CHECK_FALSE(apply_content_changes(doc, bad, PositionEncoding::utf16, &untouched, &error));
  CHECK(error.find("contentChanges[1].range") == 0);
  CHECK(*untouched.text == "hello\nworld\n");
}

// Two changes, each given in the coordinates the previous one left, as one span of the first
// text: every pair of small edits of a short text, checked against find_change.
TEST_CASE("composed changes cover every difference", "[lsp][documents]") {
  const std::string a = "abcdefgh";
  size_t pairs = 0;
  for (size_t b1 = 0; b1 <= a.size(); ++b1)
    for (size_t e1 = b1; e1 <= std::min(a.size(), b1 + 2); ++e1)
      for (const std::string ins1 : {"", "X", "YZ"}) {
        const std::string b = a.substr(0, b1) + ins1 + a.substr(e1);
        for (size_t b2 = 0; b2 <= b.size(); ++b2)
          for (size_t e2 = b2; e2 <= std::min(b.size(), b2 + 2); ++e2)
            for (const std::string ins2 : {"", "Q"}) {
              const std::string c = b.substr(0, b2) + ins2 + b.substr(e2);
              const TextChange composed =
                  compose_changes({b1, e1, b1 + ins1.size()}, {b2, e2, b2 + ins2.size()});
              INFO(a << " -> " << b << " -> " << c);
              REQUIRE(composed.old_end <= a.size());
              REQUIRE(composed.new_end <= c.size());
              REQUIRE(a.size() - composed.old_end == c.size() - composed.new_end);
              REQUIRE(a.compare(0, composed.begin, c, 0, composed.begin) == 0);
              REQUIRE(a.substr(composed.old_end) == c.substr(composed.new_end));
              const TextChange least = find_change(a, c);
              const TextChange done = complete_change(a, c, composed);
              REQUIRE(done.begin == least.begin);
              REQUIRE(done.old_end == least.old_end);
              REQUIRE(done.new_end == least.new_end);
              ++pairs;
            }
      }
  CHECK(pairs > 1000);
}

namespace {
// A didChange's content changes: the characters [0, end_character) of line 1 replaced by `text`.
json line1_change(int end_character, const std::string& text) {
  return json::array({{{"range",
                        {{"start", {{"line", 1}, {"character", 0}}},
                         {"end", {{"line", 1}, {"character", end_character}}}}},
                       {"text", text}}});
}

// A large text of `size` bytes of `fill` after a first line break (a size no other test uses,
// so that no other test's kept buffer is a closer fit).
std::string large_text(size_t size, char fill) {
  std::string big(size, fill);
  big[0] = '\n';
  return big;
}
} // namespace

TEST_CASE("an edit of a large text writes into the buffer of a freed version", "[lsp][documents]") {
  const std::string big = large_text(1024 * 1024 + 123, 'x');
  const json insert = line1_change(0, "a");
  const json erase = line1_change(1, "");
  DocumentText first = DocumentText::from(big), second, third, fourth;
  std::string error;
  REQUIRE(apply_content_changes(first, insert, PositionEncoding::utf16, &second, &error));
  REQUIRE(apply_content_changes(second, erase, PositionEncoding::utf16, &third, &error));
  const char* const freed = second.text->data();
  second = {}; // the last holder of that version: its buffer is kept
  REQUIRE(apply_content_changes(third, insert, PositionEncoding::utf16, &fourth, &error));
  CHECK(fourth.text->data() == freed);
  CHECK(*fourth.text == "\na" + big.substr(1));
  CHECK(*third.text == big);
  CHECK(fourth.lines->line_count() == 2);
}

TEST_CASE("a kept text buffer holds a text a few bytes longer than the one it was made for",
          "[lsp][documents]") {
  // Typing alternates sizes: a deletion's buffer must serve the next insertion.
  const std::string big = large_text(1024 * 1024 + 4567, 'y');
  const json insert = line1_change(0, "ab");
  const json erase = line1_change(1, "");
  const DocumentText first = DocumentText::from(big);
  DocumentText shorter, longer;
  std::string error;
  REQUIRE(apply_content_changes(first, erase, PositionEncoding::utf16, &shorter, &error));
  const char* const freed = shorter.text->data();
  shorter = {}; // its buffer, made for size - 1 bytes, is kept
  REQUIRE(apply_content_changes(first, insert, PositionEncoding::utf16, &longer, &error));
  CHECK(longer.text->data() == freed);
  CHECK(*longer.text == "\nab" + big.substr(1));
  CHECK(*first.text == big);
}

namespace {
long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}
} // namespace

TEST_CASE("stocked text buffers take the first edits of a large text without page faults",
          "[lsp][documents]") {
  // 4 MiB (1,024 pages) and a size no other test uses. The opened text is copied into a
  // buffer with room to spare; two edits kept alive at once, one longer and one shorter, each
  // copy the text into a buffer written before.
  const std::string big = large_text(4 * 1024 * 1024 + 8901, 'z');
  const DocumentText opened = DocumentText::from(big);
  CHECK(opened.text->capacity() >= big.size() + big.size() / 64);
  stock_text_buffers(big.size() + 1);
  const long before = minor_faults();
  const DocumentText longer = opened.with_edit({1, 1}, "ab");
  const DocumentText shorter = opened.with_edit({1, 2}, "");
  const long faults = minor_faults() - before;
  CHECK(faults < 256); // a fresh buffer each: ~2,000
  CHECK(*longer.text == "\nab" + big.substr(1));
  CHECK(*shorter.text == "\n" + big.substr(2));
}

TEST_CASE("a change's line index left to make_lines() is the one made at once",
          "[lsp][documents]") {
  const DocumentText doc = DocumentText::from("a\nbb\nccc\n\ndd");
  // Two changes: the first one's index is made at once (the second's range needs it), the
  // last one's is left.
  const json changes = json::parse(
      R"([{"range":{"start":{"line":1,"character":1},"end":{"line":2,"character":0}},"text":"x\ny\n"},
          {"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":0}},"text":"\nz"}])");
  DocumentText eager, deferred;
  std::string error;
  REQUIRE(apply_content_changes(doc, changes, PositionEncoding::utf16, &eager, &error));
  REQUIRE(apply_content_changes(doc, changes, PositionEncoding::utf16, &deferred, &error, true));
  CHECK(*deferred.text == *eager.text);
  CHECK(deferred.origin.change.begin == eager.origin.change.begin);
  CHECK(deferred.origin.change.old_end == eager.origin.change.old_end);
  CHECK(deferred.origin.change.new_end == eager.origin.change.new_end);
  REQUIRE(eager.lines);
  CHECK_FALSE(deferred.lines);
  const auto same_index = [&](const LineIndex& lines) {
    REQUIRE(lines.line_count() == eager.lines->line_count());
    for (uint32_t l = 0; l < lines.line_count(); ++l)
      CHECK(lines.line_start(l) == eager.lines->line_start(l));
  };
  // A copy (the analysis's) gets an index without making the original's, and edits on.
  const DocumentText copy = deferred;
  same_index(*copy.line_index());
  const DocumentText next = copy.with_edit({0, 0}, "\n");
  CHECK(next.lines->line_count() == eager.lines->line_count() + 1);
  CHECK_FALSE(deferred.lines);
  deferred.make_lines();
  REQUIRE(deferred.lines);
  CHECK_FALSE(deferred.pending);
  same_index(*deferred.lines);
  // A batch applied to a version whose index is still to be made.
  DocumentText after;
  REQUIRE(apply_content_changes(
      copy,
      json::parse(
          R"([{"range":{"start":{"line":5,"character":0},"end":{"line":5,"character":1}},"text":""}])"),
      PositionEncoding::utf16, &after, &error));
  CHECK(*after.text == "a\nbx\ny\nccc\n\n\ndd");
}
