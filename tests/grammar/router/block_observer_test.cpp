// parse_document tells a BlockObserver of each block once, in order, as soon as the block has
// closed: the block it is shown is already the final one, and the line index it is given
// covers it. check_document's per-block validation rests on this.
#include "bench/transcript_generator.h"
#include "diagnostics/check.h"
#include "grammar/router/document_parser.h"
#include "support/model_dump.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace blockls;

namespace {

// Everything of a block that a later step can read, as text.
std::string block_signature(std::string_view text, const Block& b) {
  std::string s = std::string(dialect_name(b.dialect)) + "|" + b.id + "|" +
                  std::to_string(b.start_line) + "|" +
                  (b.end_line ? std::to_string(*b.end_line) : "-") + "|" +
                  std::to_string(b.range.begin) + "-" + std::to_string(b.range.end);
  for (const Command& c : b.commands) {
    s += "\n  " + std::string(c.name) + "@" + std::to_string(c.line) + ":" +
         std::to_string(c.name_range.begin);
    for (const Parameter& p : c.params)
      s += "\n    " + p.name + "@" + std::to_string(p.line) + "=" + std::string(p.value(text)) +
           "[" + std::to_string(p.value_range.begin) + "-" + std::to_string(p.value_range.end) +
           "]";
  }
  return s;
}

class RecordingObserver : public BlockObserver {
public:
  void block_closed(std::string_view text, const ParsedDocument& doc, const LineIndex& lines,
                    size_t block) override {
    indices.push_back(block);
    const Block& b = doc.blocks[block];
    signatures.push_back(block_signature(text, b));
    // The index reaches past the block's last line (whose line break is known), unless it is
    // already the whole text's index (the block closed at the end of the input).
    const uint32_t last_line = lines.line_of(b.range.end);
    line_counts.push_back(lines.line_count());
    past_last_line.push_back(lines.line_count() > last_line + 1);
    // Told promptly: a block ended by its own end line is told of before any later block
    // opens (check_document validates it while it is still in the cache).
    prompt.push_back(!b.end_line || doc.blocks.size() == block + 1);
  }
  std::vector<size_t> indices;
  std::vector<std::string> signatures;
  std::vector<uint32_t> line_counts;
  std::vector<bool> past_last_line;
  std::vector<bool> prompt;
};

void check_observed(const std::string& name, const std::string& text) {
  RecordingObserver observer;
  ParseOptions options;
  options.observer = &observer;
  const ParsedDocument doc = parse_document(text, options);
  INFO(name);
  REQUIRE(observer.indices.size() == doc.blocks.size());
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    REQUIRE(observer.indices[i] == i);
    REQUIRE(observer.signatures[i] == block_signature(text, doc.blocks[i]));
    REQUIRE((observer.past_last_line[i] || observer.line_counts[i] == doc.lines.line_count()));
    REQUIRE(observer.prompt[i]);
  }
  // Observing changes nothing.
  REQUIRE(test::dump(text, doc) == test::dump(text, parse_document(text)));
}

} // namespace

TEST_CASE("the observer sees every block once, in order, in its final form", "[observer]") {
  size_t blocks = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    check_observed(input.name, input.text);
    blocks += parse_document(input.text).blocks.size();
  }
  CHECK(blocks > 100); // the corpus has blocks to observe
}

TEST_CASE("the observer sees the blocks of a transcript longer than one routed stretch",
          "[observer]") {
  // Several 64 KiB stretches: blocks that span a stretch boundary close in the next one.
  bench::TranscriptOptions options;
  options.target_bytes = 600 * 1024;
  const std::string text = bench::generate_transcript(options);
  check_observed("generated", text);
  const std::string crlf = [&] {
    std::string t;
    for (char c : text) {
      if (c == '\n') t += '\r';
      t += c;
    }
    return t;
  }();
  check_observed("generated, CRLF", crlf);
}

TEST_CASE("check_document with a caller's observer validates after the parse, alike",
          "[observer]") {
  class Counting : public BlockObserver {
  public:
    void block_closed(std::string_view, const ParsedDocument&, const LineIndex&, size_t) override {
      ++count;
    }
    size_t count = 0;
  } counting;
  for (const test::NamedInput& input : test::all_inputs()) {
    CheckOptions with_observer;
    with_observer.parse.observer = &counting;
    const CheckedDocument a = check_document(input.text);
    const CheckedDocument b = check_document(input.text, with_observer);
    INFO(input.name);
    REQUIRE(a.diagnostics.size() == b.diagnostics.size());
    for (size_t i = 0; i < a.diagnostics.size(); ++i)
      REQUIRE(test::dump_diagnostic(a.diagnostics[i]) == test::dump_diagnostic(b.diagnostics[i]));
    REQUIRE(a.verdicts.size() == b.verdicts.size());
    for (size_t i = 0; i < a.verdicts.size(); ++i)
      REQUIRE(a.verdicts[i].valid == b.verdicts[i].valid);
  }
  CHECK(counting.count > 100);
}
