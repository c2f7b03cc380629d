// `blockls stream` through real pipes: a block's block_end arrives while the writer still holds
// the rest of the input back (the test waits on the event itself, no sleeps), then the rest is
// sent and `done` ends the output; binary input is refused with a clear message.
#include "support/piped_blockls.h"
#include "support/process.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

using namespace blockls::test;

TEST_CASE("stream: block_end arrives before more input is sent", "[cli][stream]") {
  PipedBlockls p({"stream"});
  p.send("Creating it:\n#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n");
  nlohmann::json e = p.next_event();
  REQUIRE(e.is_object());
  CHECK(e["event"] == "block_start");
  CHECK(e["dialect"] == "nesl");
  CHECK(e["line"] == 2);
  CHECK(e["block_id"] == "k1w");
  p.send("path = \"a.txt\"\ncontent = \"hi\"\n#!end_k1w\n");
  e = p.next_event(); // the input is still open: the block's end line alone produced this
  REQUIRE(e.is_object());
  CHECK(e["event"] == "block_end");
  CHECK(e["block"]["metadata"]["valid"] == true);
  CHECK(e["errors"].empty());
  // An Aider edit whose file name is missing closes with its error.
  p.send("```\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n");
  e = p.next_event();
  CHECK(e["event"] == "block_start");
  CHECK(e["dialect"] == "editblock");
  e = p.next_event();
  REQUIRE(e.is_object());
  CHECK(e["event"] == "block_end");
  CHECK(e["block"]["metadata"]["valid"] == false);
  CHECK(!e["errors"].empty());
  p.close_input();
  e = p.next_event();
  REQUIRE(e.is_object());
  CHECK(e["event"] == "done");
  CHECK(e["summary"]["blocks_parsed"] == 2);
  CHECK(e["summary"]["blocks_valid"] == 1);
  CHECK(p.next_event().is_null());
  CHECK(p.wait_exit() == 1);
}

TEST_CASE("stream: binary input is refused with a clear message", "[cli][stream]") {
  const ProcessResult r = run_blockls({"stream"}, std::string("text\n\0more", 10));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("binary (a NUL byte at offset 5)") != std::string::npos);
}

TEST_CASE("stream: an empty input ends with done and exit 0", "[cli][stream]") {
  const ProcessResult r = run_blockls({"stream"}, "");
  CHECK(r.exit_code == 0);
  const nlohmann::json e = nlohmann::json::parse(r.out);
  CHECK(e["event"] == "done");
  CHECK(e["summary"]["blocks_parsed"] == 0);
}

namespace {

// The blocks and errors of `blockls stream`'s events, and those of `blockls check --format
// json`, on `text`; each error's context_window cut at its own line and its `context` dropped
// (a stream may quote fewer lines after the error, docs/stream.md) once the stream's is checked
// to begin check's.
std::pair<nlohmann::json, nlohmann::json> stream_and_check(const std::string& text) {
  const ProcessResult s = run_blockls({"stream"}, text);
  const ProcessResult c = run_blockls({"check", "--format", "json", "-"}, text);
  REQUIRE(s.exit_code == c.exit_code);
  nlohmann::json streamed = {{"blocks", nlohmann::json::array()},
                             {"errors", nlohmann::json::array()}};
  size_t at = 0;
  for (size_t nl; (nl = s.out.find('\n', at)) != std::string::npos; at = nl + 1) {
    const nlohmann::json e = nlohmann::json::parse(s.out.substr(at, nl - at));
    if (e["event"] == "block_end") {
      streamed["blocks"].push_back(e["block"]);
      for (const auto& error : e["errors"])
        streamed["errors"].push_back(error);
    } else if (e["event"] == "error") {
      streamed["errors"].push_back(e["error"]);
    }
  }
  nlohmann::json checked = nlohmann::json::parse(c.out)["files"][0];
  checked.erase("path");
  checked.erase("summary");
  REQUIRE(streamed["errors"].size() == checked["errors"].size());
  for (size_t i = 0; i < checked["errors"].size(); ++i) {
    nlohmann::json& got = streamed["errors"][i];
    nlohmann::json& want = checked["errors"][i];
    CHECK(want.value("context", "").starts_with(got.value("context", "")));
    for (nlohmann::json* e : {&got, &want}) {
      std::string window = e->value("context_window", "");
      window.resize(std::min(window.size(), window.find("<-- ERROR HERE")));
      (*e)["context_window"] = window;
      e->erase("context");
    }
  }
  return {streamed, checked};
}

// ~300 KB of prose, no block in it, as an answer that talks on after its last block.
std::string long_prose() {
  std::string prose;
  for (int i = 0; prose.size() < 300 * 1024; ++i)
    prose += "Paragraph " + std::to_string(i) + " goes on about the change, with no block.\n";
  return prose;
}

} // namespace

TEST_CASE("stream: a malformed header before long prose keeps check's fix", "[cli][stream]") {
  // The reported case: check verifies the header's fix on the text up to the next block (here
  // the end, over 256 KiB: left as the grammar built it), the stream on what it had read.
  const std::string text =
      "#!nesl [missing-at-sign: bad]\nkey = \"value\"\n#!end_bad\n" + long_prose();
  const auto [streamed, checked] = stream_and_check(text);
  REQUIRE(checked["errors"].size() == 1);
  CHECK(checked["errors"][0]["fixes"].size() == 1);
  CHECK(streamed == checked);
}

TEST_CASE("stream: a block's fixes before long prose are check's", "[cli][stream]") {
  // A block's diagnostic with a fix verification drops (a duplicate key), then long prose.
  const std::string text = "#!nesl [@three-char-SHA-256: dup]\naction = \"file_write\"\n"
                           "path = \"a.txt\"\npath = \"b.txt\"\ncontent = \"hi\"\n#!end_dup\n" +
                           long_prose();
  const auto [streamed, checked] = stream_and_check(text);
  REQUIRE(checked["errors"].size() == 1);
  CHECK(checked["errors"][0]["code"] == "DUPLICATE_KEY");
  CHECK(streamed == checked);
}
