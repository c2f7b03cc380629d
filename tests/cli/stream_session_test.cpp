// `blockls stream`'s engine: the blocks and errors of all its events, in order, must equal
// `check --format json` of the whole input, for every chunking — over every test input of every
// dialect, at random chunkings, and byte at a time for the smaller ones. Each block_start comes
// before its block_end, and a block's block_end as soon as its closing line has been fed.
#include "apply/text_match.h"
#include "bench/rng.h"
#include "cli/feedback_report.h"
#include "cli/stream_session.h"
#include "diagnostics/json_report.h"
#include "diagnostics/json_text.h"
#include "fixits/verify_fixes.h"
#include "grammar/dialect_set.h"
#include "grammar/dialects.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace blockls;
using blockls::bench::Rng;
using nlohmann::json;

// An event read back, checked to be one line of JSON whose "event" is its type, written byte
// for byte as dump_json writes it (keys sorted, no spaces): the events are written as text by
// hand, value_chunk's from a head written once per value.
static json parsed(const cli::StreamEvent& event) {
  REQUIRE(event.json.find('\n') == std::string_view::npos);
  json e = json::parse(event.json);
  REQUIRE(e.at("event") == std::string(event.type));
  REQUIRE(dump_json(e) == event.json);
  return e;
}

namespace {

// Feeds `text` to `session` cut at the offsets `cuts` (ascending), then finishes it.
void feed_in_pieces(cli::StreamSession& session, std::string_view text,
                    const std::vector<size_t>& cuts) {
  size_t at = 0;
  for (size_t cut : cuts) {
    session.feed(text.substr(at, cut - at));
    at = cut;
  }
  session.feed(text.substr(at));
  session.finish();
}

struct Streamed {
  json blocks = json::array();
  json errors = json::array();
  json summary;
  size_t starts = 0;
  bool order_ok = true; // every block_end follows its block_start; done comes last
};

// Feeds `text` in the chunks `cuts` (ascending offsets) and gathers the events.
Streamed stream(std::string_view text, const std::vector<size_t>& cuts) {
  Streamed s;
  bool done = false;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (done) s.order_ok = false;
    const std::string event = e.at("event");
    if (event == "block_start") {
      ++s.starts;
    } else if (event == "block_end") {
      if (s.blocks.size() >= s.starts) s.order_ok = false;
      s.blocks.push_back(e.at("block"));
      for (const json& error : e.at("errors"))
        s.errors.push_back(error);
    } else if (event == "error") {
      s.errors.push_back(e.at("error"));
    } else if (event == "done") {
      s.summary = e.at("summary");
      done = true;
    }
  });
  feed_in_pieces(session, text, cuts);
  return s;
}

// An error's `context_window` and `context` show lines after the error, which a stream may not
// have read when the block closes: the window is compared up to the error's own line ("<-- ERROR
// HERE"), the context must be a prefix of check's; every other field is compared exactly.
// `text` without its first `n` lines (empty when it has no more).
std::string without_lines(const std::string& text, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t nl = text.find('\n', at);
    if (nl == std::string::npos) return {};
    at = nl + 1;
  }
  return text.substr(at);
}

// docs/stream.md: `context_window` is compared up to the error's own line; NESL's `context`
// (nesl-js's five lines on the text read when the block closed) is shifted back when that text
// ends less than three lines after the error, so without its first 0 to 2 lines it is a prefix
// of check's.
bool same_errors(json got, json want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    for (json* e : {&got[i], &want[i]}) {
      std::string window = e->value("context_window", "");
      const size_t mark = window.find("<-- ERROR HERE");
      if (mark != std::string::npos) window.resize(mark);
      (*e)["context_window"] = window;
    }
    if (got[i].contains("context") || want[i].contains("context")) {
      const std::string g = got[i].value("context", ""), w = want[i].value("context", "");
      if (!w.starts_with(g) && !w.starts_with(without_lines(g, 1)) &&
          !w.starts_with(without_lines(g, 2)))
        return false;
      got[i].erase("context");
      want[i].erase("context");
    }
  }
  return got == want;
}

void require_same_as_check(const test::NamedInput& input, const std::vector<size_t>& cuts) {
  const json want = document_json(input.text, check_with_verified_fixes(input.text));
  const Streamed got = stream(input.text, cuts);
  INFO(input.name << " in " << cuts.size() + 1 << " chunks");
  REQUIRE(got.order_ok);
  REQUIRE(got.starts == want["blocks"].size());
  REQUIRE(got.blocks == want["blocks"]);
  REQUIRE(same_errors(got.errors, want["errors"]));
  REQUIRE(got.summary == want["summary"]);
}

} // namespace

TEST_CASE("stream: the events of any chunking give exactly check's blocks and errors",
          "[cli][stream]") {
  Rng rng(0x57ea);
  size_t checked = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    require_same_as_check(input, {}); // one chunk
    for (int round = 0; round < 3 && !input.text.empty(); ++round) {
      std::vector<size_t> cuts;
      for (size_t at = rng.below(64) + 1; at < input.text.size(); at += rng.below(96) + 1)
        cuts.push_back(at);
      require_same_as_check(input, cuts);
    }
    if (input.text.size() <= 2048) { // byte at a time
      std::vector<size_t> cuts;
      for (size_t at = 1; at < input.text.size(); ++at)
        cuts.push_back(at);
      require_same_as_check(input, cuts);
    }
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("stream: a block that ends at a line it took a parameter from is not cut there",
          "[cli][stream]") {
  // Found by the fuzzer: the directive takes <path> from the second line, then ends unclosed
  // before that line (invalid bytes follow); a resume point there once cut the part, and the
  // path's value off it (an out-of-range read).
  const std::string text = "<replace_in_file>\n<path>a.txt</path>\xff\xff\xff\xff"
                           "ff>\n"
                           "------- SEARCH\nold line\n\n";
  std::vector<size_t> bytes;
  for (size_t at = 1; at < text.size(); ++at)
    bytes.push_back(at);
  require_same_as_check({"directive ended at a line it read", text}, {});
  require_same_as_check({"directive ended at a line it read", text}, bytes);
}

TEST_CASE("stream: errors whose fixes wait for the next block keep check's fixes and order",
          "[cli][stream]") {
  // A malformed header's fix is verified on the text up to the next block, which the stream
  // reads later: its error event, and those after it (invalid UTF-8 in prose, another header),
  // wait for that block, then come in check's order — at every split point.
  const std::string header_ok = "#!nesl [missing-at-sign: ok1]\naction = \"file_write\"\n"
                                "path = \"a.txt\"\ncontent = \"hi\"\n#!end_ok1\n";
  const std::string header_bad = "#!nesl [missing-at-sign: bad]\nkey = \"value\"\n#!end_bad\n";
  const std::string block = "#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n"
                            "path = \"b.txt\"\ncontent = \"hi\"\n#!end_k1w\n";
  const std::string bad_utf8 = "prose \xff here\n";
  for (const std::string& text :
       {header_ok + "prose\n" + bad_utf8 + header_bad + "more\n" + block + header_ok,
        "intro\n" + block + header_bad + bad_utf8 + header_ok + "\n" + block + "end\n",
        header_bad + header_ok + bad_utf8 + "tail without a block"}) {
    std::vector<size_t> cuts;
    for (size_t at = 1; at < text.size(); ++at)
      cuts.push_back(at);
    require_same_as_check({"held errors", text}, cuts);
    require_same_as_check({"held errors", text}, {});
  }
}

TEST_CASE("stream: a chunk that completes no line emits nothing and changes no later event",
          "[cli][stream]") {
  // Such a chunk is only stored (StreamSession::feed returns early): the events of a chunking
  // are exactly those of the same chunking with every such chunk joined to the next one.
  const auto events_of = [](std::string_view text, const std::vector<size_t>& cuts,
                            bool* silent_ok) {
    std::vector<std::string> events;
    cli::StreamSession session({}, [&](const cli::StreamEvent& e) { events.emplace_back(e.json); });
    size_t at = 0;
    for (size_t cut : cuts) {
      const std::string_view piece = text.substr(at, cut - at);
      const size_t before = events.size();
      session.feed(piece);
      if (piece.find('\n') == std::string_view::npos && events.size() != before) *silent_ok = false;
      at = cut;
    }
    session.feed(text.substr(at));
    session.finish();
    return events;
  };
  Rng rng(0x5e1f);
  size_t compared = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    if (input.text.empty()) continue;
    std::vector<size_t> cuts, joined; // joined: without the cuts that end a piece with no break
    size_t at = 0;
    for (size_t cut = rng.below(24) + 1; cut < input.text.size(); cut += rng.below(40) + 1) {
      cuts.push_back(cut);
      if (input.text.substr(at, cut - at).find('\n') != std::string::npos) joined.push_back(cut);
      at = cut;
    }
    bool silent_ok = true;
    const std::vector<std::string> got = events_of(input.text, cuts, &silent_ok);
    INFO(input.name);
    REQUIRE(silent_ok);
    REQUIRE(got == events_of(input.text, joined, &silent_ok));
    ++compared;
  }
  CHECK(compared > 100);
}

namespace {

// A session that writes down each event's name, in order (not copied: the session's callback
// holds its address).
struct NamedEvents {
  std::vector<std::string> names;
  cli::StreamSession session{
      {}, [this](const cli::StreamEvent& raw) { names.push_back(parsed(raw).at("event")); }};
  NamedEvents() = default;
  NamedEvents(const NamedEvents&) = delete;
};

} // namespace

TEST_CASE("stream: a block's block_end is emitted when its closing line is fed", "[cli][stream]") {
  NamedEvents named;
  std::vector<std::string>& events = named.names;
  cli::StreamSession& session = named.session;
  session.feed("Writing it:\n#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n");
  CHECK(events == std::vector<std::string>{"block_start"});
  session.feed("path = \"a.txt\"\ncontent = \"hi\"\n#!end_k1");
  CHECK(events.size() == 1); // the end line is not complete yet
  session.feed("w\n");
  CHECK(events == std::vector<std::string>{"block_start", "block_end"});
  session.feed("And a heredoc:\ncat > b.txt << 'EOF'\nbody\nEOF\n");
  CHECK(events == std::vector<std::string>{"block_start", "block_end", "block_start", "block_end"});
  CHECK(session.finish() == 0);
  CHECK(events.back() == "done");
}

TEST_CASE("stream: a one-line XML directive's block_end comes with its line, before the next "
          "block starts",
          "[cli][stream]") {
  NamedEvents named;
  std::vector<std::string>& events = named.names;
  cli::StreamSession& session = named.session;
  // (It once came only at the end of the input, and the next directive's block_start first.)
  session.feed("<read_file><path>a.txt</path></read_file>\n");
  CHECK(events == std::vector<std::string>{"block_start", "block_end"});
  session.feed("<read_file><path>b.txt</path></read_file>\n");
  CHECK(events == std::vector<std::string>{"block_start", "block_end", "block_start", "block_end"});
  session.feed("Some prose.\n");
  CHECK(events.size() == 4);
  session.finish();
  CHECK(events.back() == "done");
}

TEST_CASE("stream: a block ended by the next block's header comes out with that header's line",
          "[cli][stream]") {
  NamedEvents named;
  std::vector<std::string>& events = named.names;
  cli::StreamSession& session = named.session;
  // (A chain of such blocks once came out only at the end of the input, all held meanwhile:
  // with no resume point between them, 6.8 MB of them took 490 MB.)
  session.feed("#!nesl [@three-char-SHA-256: aa1]\naction = \"file_write\"\npath = \"a\"\n");
  CHECK(events == std::vector<std::string>{"block_start"});
  session.feed("content = \"1\"\n#!nesl [@three-char-SHA-256: aa2]\n");
  CHECK(events == std::vector<std::string>{"block_start", "block_end", "block_start"});
  session.feed("action = \"file_write\"\npath = \"b\"\ncontent = \"2\"\n#!SHAM [@three-");
  CHECK(events.size() == 3); // the next header's line is not complete yet
  session.feed("char-SHA-256: aa3]\n");
  CHECK(events == std::vector<std::string>{"block_start", "block_end", "block_start", "block_end",
                                           "block_start"});
  CHECK(session.finish() >= 3); // each block is unclosed
  CHECK(events.back() == "done");
}

namespace {

// The events of `text` fed in the chunks `cuts`, as written, but for the value_chunk events
// (whose number depends on the chunking: a value read in one piece has none) and the block_id
// of a block_start (the id as known when the start line was read: a TELT start line without
// a hash gets it from a later delimiter).
std::vector<std::string> events_but_values(std::string_view text, const std::vector<size_t>& cuts) {
  std::vector<std::string> events;
  cli::StreamSession session({}, [&](const cli::StreamEvent& e) {
    if (e.type == "value_chunk") return;
    if (e.type != "block_start") {
      events.emplace_back(e.json);
      return;
    }
    json start = json::parse(e.json);
    start.erase("block_id");
    events.push_back(start.dump());
  });
  feed_in_pieces(session, text, cuts);
  return events;
}

// The offsets just after each line break: the chunking of a transcript read a line at a time.
std::vector<size_t> line_cuts(std::string_view text) {
  std::vector<size_t> cuts;
  for (size_t nl = text.find('\n'); nl != std::string_view::npos && nl + 1 < text.size();
       nl = text.find('\n', nl + 1))
    cuts.push_back(nl + 1);
  return cuts;
}

} // namespace

TEST_CASE("stream: a read of many lines gives the events in the order a read per line does",
          "[cli][stream]") {
  // Three NESL blocks in one read (the QA repro): each block_start right before its block_end,
  // not the three block_starts first.
  const std::string three =
      "#!nesl [@three-char-SHA-256: h01]\naction = \"file_write\"\npath = \"a.txt\"\n"
      "content = \"hi\"\n#!end_h01\n#!nesl [@three-char-SHA-256: h02]\naction = \"file_write\"\n"
      "path = \"b.txt\"\ncontent = \"x\"\n#!end_h02\n#!nesl [@three-char-SHA-256: h03]\n"
      "action = \"file_write\"\n";
  std::vector<std::string> types;
  cli::StreamSession session({}, [&](const cli::StreamEvent& e) { types.emplace_back(e.type); });
  session.feed(three);
  session.finish();
  CHECK(types == std::vector<std::string>{"block_start", "block_end", "block_start", "block_end",
                                          "block_start", "block_end", "done"});
  // Over every test input, and for random chunkings: the same events, in the same order, as a
  // line at a time (value chunks aside).
  Rng rng(0x0ade);
  size_t compared = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    INFO(input.name);
    const std::vector<std::string> want = events_but_values(input.text, line_cuts(input.text));
    REQUIRE(events_but_values(input.text, {}) == want);
    std::vector<size_t> cuts;
    for (size_t at = rng.below(4096) + 1; at < input.text.size(); at += rng.below(4096) + 1)
      cuts.push_back(at);
    REQUIRE(events_but_values(input.text, cuts) == want);
    ++compared;
  }
  CHECK(compared > 100);
}

TEST_CASE("stream: a block_end's feedback names the block by its number in the document",
          "[cli][stream]") {
  // The stream checks a part (about a block) at a time: the feedback must still say "block N"
  // with N the block's number in the whole input, the block_number of --apply's events, and
  // be check's feedback for that block — read at once, a line at a time, in random chunks.
  Rng rng(0xb7c3);
  size_t named = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    const CheckedDocument checked = check_with_verified_fixes(input.text);
    std::vector<size_t> random;
    for (size_t at = rng.below(200) + 1; at < input.text.size(); at += rng.below(200) + 1)
      random.push_back(at);
    for (const std::vector<size_t>& cuts : {std::vector<size_t>{}, line_cuts(input.text), random}) {
      size_t ends = 0;
      cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
        if (raw.type != "block_end") return;
        const json e = json::parse(raw.json);
        const size_t b = ends++;
        if (!e.contains("feedback")) return;
        INFO(input.name << ", block " << b + 1);
        const std::string feedback = e.at("feedback");
        REQUIRE(feedback.starts_with("block " + std::to_string(b + 1) + " ("));
        REQUIRE(feedback == cli::block_feedback(input.text, checked, b, b + 1));
        ++named;
      });
      feed_in_pieces(session, input.text, cuts);
    }
  }
  CHECK(named > 100);
}

TEST_CASE("stream: errors outside blocks come in check's order among the blocks", "[cli][stream]") {
  // Two broken blocks with invalid UTF-8 in the prose between them, settled together (one
  // chunk) and apart (byte at a time): the `error` event comes between the two block_ends.
  const std::string broken = "#!nesl [@three-char-SHA-256: k1w]\naction = \"file_wirte\"\n"
                             "path = \"a.txt\"\ncontent = \"hi\"\n#!end_k1w\n";
  test::NamedInput input{"utf8-between-blocks",
                         broken + "caf\xff in prose\n" +
                             "#!nesl [@three-char-SHA-256: x2y]\naction = \"file_wirte\"\n"
                             "path = \"b.txt\"\ncontent = \"hi\"\n#!end_x2y\nafter\n"};
  require_same_as_check(input, {});
  std::vector<size_t> cuts;
  for (size_t at = 1; at < input.text.size(); ++at)
    cuts.push_back(at);
  require_same_as_check(input, cuts);
  NamedEvents named;
  std::vector<std::string>& events = named.names;
  cli::StreamSession& session = named.session;
  session.feed(input.text);
  session.finish();
  // (The error is the second part's: it is checked, and its error emitted, when the second
  // block has closed — after that block's block_start, as when the text is read a line at a
  // time.)
  CHECK(events == std::vector<std::string>{"block_start", "block_end", "block_start", "error",
                                           "block_end", "done"});
  // Invalid UTF-8 inside a block, which check lists among the block's errors (the fuzzer's
  // find): it comes in the block's block_end, where check lists it.
  test::NamedInput inside{"utf8-inside-block",
                          "#!nesl [@three-char-SHA-256: abc]\ncount = 2\n#!end\xaf"
                          "abc"};
  require_same_as_check(inside, {});
  cuts.clear();
  for (size_t at = 1; at < inside.text.size(); ++at)
    cuts.push_back(at);
  require_same_as_check(inside, cuts);
}

TEST_CASE("stream: on_block_end sees each block right after its block_end, as check does",
          "[cli][stream]") {
  Rng rng(0xb10c);
  size_t hooked = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    std::vector<json> ended;
    size_t calls = 0;
    cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
      const json e = parsed(raw);
      if (e.at("event") == "block_end") ended.push_back(e.at("block"));
    });
    session.set_on_block_end(
        [&](std::string_view text, const CheckedDocument& checked, size_t block) {
          // Called once per block_end, right after it; the block and its positions are those of
          // `text`, so rendering them gives the event's block.
          REQUIRE(block < checked.parsed.blocks.size());
          REQUIRE(checked.parsed.blocks[block].range.end <= text.size());
          REQUIRE(text == std::string_view(input.text).substr(0, text.size()));
          ++calls;
          REQUIRE(calls == ended.size());
          REQUIRE(block_json(text, checked, block) == ended.back());
        });
    for (size_t at = 0; at < input.text.size();) {
      const size_t n = rng.below(200) + 1;
      session.feed(std::string_view(input.text).substr(at, n));
      at += n;
    }
    session.finish();
    INFO(input.name);
    REQUIRE(calls == ended.size());
    hooked += calls;
  }
  CHECK(hooked > 100);
}

TEST_CASE("stream: value_chunk texts, concatenated, are the value its block_end gives",
          "[cli][stream]") {
  Rng rng(0xc4a1);
  size_t values = 0;
  std::map<std::string, size_t> per_dialect; // values checked, by their block's dialect
  // Every test input, and the real Cline exports (their replace_in_file diffs as models write
  // them; tests/data/xml/SOURCES.md).
  std::vector<test::NamedInput> inputs = test::all_inputs();
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(BLOCKLS_TEST_DATA_DIR) + "/xml/real/cline"))
    inputs.push_back({e.path().string(), test::read_file(e.path().string())});
  for (const test::NamedInput& input : inputs) {
    for (int round = 0; round < 2; ++round) {
      // (block, command, param, line) -> the texts of its value_chunk events, in order.
      std::map<std::tuple<size_t, size_t, std::string, size_t>, std::string> streamed;
      std::vector<json> blocks, errors_of;
      size_t starts = 0;
      cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
        const json e = parsed(raw);
        const std::string event = e.at("event");
        if (event == "block_start") {
          ++starts;
          REQUIRE(e.at("partial") == true);
        } else if (event == "value_chunk") {
          // A chunk belongs to the block started last, which is still open.
          REQUIRE(starts > blocks.size());
          REQUIRE(e.at("partial") == true);
          REQUIRE(!e.at("text").get<std::string>().empty());
          streamed[{starts - 1, e.at("command").get<size_t>(), e.at("param").get<std::string>(),
                    e.at("line").get<size_t>()}] += e.at("text").get<std::string>();
        } else if (event == "block_end") {
          REQUIRE(!e.contains("partial"));
          blocks.push_back(e.at("block"));
          errors_of.push_back(e.at("errors"));
        }
      });
      const bool bytes = round == 0 && input.text.size() <= 4096;
      for (size_t at = 0; at < input.text.size();) {
        const size_t n = bytes ? 1 : rng.below(48) + 1;
        session.feed(std::string_view(input.text).substr(at, n));
        at += n;
      }
      session.finish();
      INFO(input.name << (bytes ? " byte at a time" : " in random chunks"));
      for (const auto& [key, text] : streamed) {
        const auto& [b, c, param, line] = key;
        INFO("block " << b << ", command " << c << ", " << param << " (line " << line << ")");
        REQUIRE(b < blocks.size());
        const json& params = blocks[b]["commands"][c]["params"];
        // The event names the parameter as written; the block's JSON by the dialect's key.
        const std::string dialect_name = blocks[b]["metadata"]["dialect"];
        const CatalogRules& rules = dialect_info(*find_dialect(dialect_name)).catalog;
        const std::string json_key = rules.output_key ? rules.output_key(param) : param;
        // A value whose heredoc never closed may be no parameter at all (see docs/stream.md).
        if (!params.contains(json_key) || !params[json_key].is_string()) continue;
        // A repeated section name keeps the last section: the chunks of an earlier one were
        // partial (docs/stream.md), as were those of a NESL key given twice.
        bool collided = false;
        for (const json& error : errors_of[b])
          collided = collided || error.at("code") == "DELIMITER_COLLISION";
        if (collided) continue;
        REQUIRE(text == params[json_key].get<std::string>());
        ++values;
        ++per_dialect[blocks[b]["metadata"]["dialect"].get<std::string>()];
        if (dialect_name == "xml" && (param == "old_text" || param == "new_text"))
          ++per_dialect["xml <diff>"];
      }
    }
  }
  CHECK(values > 50);
  // Every dialect that streams its values was seen doing so (and checked) above.
  for (const char* dialect : {"telt", "nesl", "heredoc", "editblock", "replacer", "xml",
                              "xml <diff>", "sections", "patch"}) {
    INFO(dialect);
    CHECK(per_dialect[dialect] > 0);
  }
}

TEST_CASE("stream: a TELT value streams line by line, its CRLF breaks kept as the value keeps "
          "them",
          "[cli][stream]") {
  std::vector<std::string> texts;
  json params;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (e.at("event") == "value_chunk" && e.at("param") == "CONTENT") {
      CHECK(e.at("line") == 5);
      CHECK(e.at("command") == 0);
      texts.push_back(e.at("text"));
    }
    if (e.at("event") == "block_end") params = e.at("block")["commands"][0]["params"];
  });
  session.feed("#!telt [3-char SHA: abc]\n=== WRITE_FILE ===\n--PATH abc--\na.txt\n");
  session.feed("--CONTENT abc--\nline one\r\n");
  CHECK(texts == std::vector<std::string>{"line one\r"});
  session.feed("line two\nline ");
  CHECK(texts == std::vector<std::string>{"line one\r", "\nline two"});
  session.feed("three\n--END abc--\n");
  session.finish();
  CHECK(texts == std::vector<std::string>{"line one\r", "\nline two", "\nline three"});
  CHECK(params["CONTENT"] == "line one\r\nline two\nline three");
}

TEST_CASE("stream: a Codex patch streams an added file's content without its '+' marks, and an "
          "update's hunks as written",
          "[cli][stream]") {
  std::vector<std::pair<std::string, std::string>> chunks; // (param, text)
  json commands;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (e.at("event") == "value_chunk") chunks.emplace_back(e.at("param"), e.at("text"));
    if (e.at("event") == "block_end") commands = e.at("block")["commands"];
  });
  session.feed("*** Begin Patch\r\n*** Add File: a.txt\r\n+one\r\n");
  CHECK(chunks == decltype(chunks){{"content", "one\n"}});
  session.feed("+two\r\n+");
  CHECK(chunks == decltype(chunks){{"content", "one\n"}, {"content", "two\n"}});
  session.feed("+three\r\n*** Update File: b.txt\r\n@@\r\n-old\r\n");
  session.feed("+new\r\n*** End Patch\r\n");
  session.finish();
  const decltype(chunks) want{{"content", "one\n"},
                              {"content", "two\n"},
                              {"content", "+three\n"},
                              {"hunks", "@@\n-old\n"},
                              {"hunks", "+new\n"}};
  CHECK(chunks == want);
  REQUIRE(commands.size() == 2);
  CHECK(commands[0]["params"]["content"] == "one\ntwo\n+three\n");
  CHECK(commands[1]["params"]["hunks"] == "@@\n-old\n+new\n");
}

TEST_CASE("stream: a Cline write_to_file's content streams line by line, its last chunk once "
          "the directive closes",
          "[cli][stream]") {
  std::vector<std::string> texts;
  json params;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (e.at("event") == "value_chunk") {
      CHECK(e.at("param") == "content");
      CHECK(e.at("line") == 3);
      texts.push_back(e.at("text"));
    }
    if (e.at("event") == "block_end") {
      CHECK(texts.size() == 3); // every chunk came before the block_end
      params = e.at("block")["commands"][0]["params"];
    }
  });
  session.feed("<write_to_file>\n<path>a.py</path>\n<content>\nimport os\n");
  CHECK(texts == std::vector<std::string>{"import os"});
  session.feed("print(os.name)\n");
  CHECK(texts == std::vector<std::string>{"import os", "\nprint(os.name)"});
  // The content closes on the line of its last text; its parameter exists only once the
  // directive closes, so that is when the last chunk comes.
  session.feed("x = 1</content>\n");
  CHECK(texts.size() == 2);
  session.feed("</write_to_file>\nAfter.\n");
  session.finish();
  CHECK(texts == std::vector<std::string>{"import os", "\nprint(os.name)", "\nx = 1"});
  CHECK(params["content"] == "import os\nprint(os.name)\nx = 1");
}

namespace {

// (command, param, line) -> the texts of its value_chunk events, concatenated.
using StreamedTexts = std::map<std::tuple<size_t, std::string, size_t>, std::string>;

// Feeds `text` in the chunks `cuts` and returns the first block's values' chunks, each value's
// concatenated, and its commands (from its block_end, which comes after them).
std::pair<StreamedTexts, json> stream_values(std::string_view text, const std::vector<size_t>& cuts,
                                             std::vector<json>* events = nullptr) {
  StreamedTexts texts;
  json commands;
  size_t starts = 0;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    starts += e.at("event") == "block_start";
    if (e.at("event") == "value_chunk" && starts == 1 && commands.is_null()) {
      texts[{e.at("command").get<size_t>(), e.at("param").get<std::string>(),
             e.at("line").get<size_t>()}] += e.at("text").get<std::string>();
      if (events) events->push_back(e);
    }
    if (e.at("event") == "block_end" && commands.is_null()) commands = e.at("block")["commands"];
  });
  feed_in_pieces(session, text, cuts);
  return {texts, commands};
}

std::vector<size_t> every_byte(std::string_view text) {
  std::vector<size_t> cuts;
  for (size_t at = 1; at < text.size(); ++at)
    cuts.push_back(at);
  return cuts;
}

std::vector<size_t> random_cuts(std::string_view text, Rng& rng, uint64_t most) {
  std::vector<size_t> cuts;
  for (size_t at = rng.below(most) + 1; at < text.size(); at += rng.below(most) + 1)
    cuts.push_back(at);
  return cuts;
}

// Every value a diff streamed is, concatenated, exactly its command's parameter in block_end
// (no chunk of a value the block does not have), byte at a time and in random pieces.
void require_diff_values_final(std::string_view text) {
  Rng rng(0xd1ff);
  std::vector<std::vector<size_t>> chunkings{{}, every_byte(text)};
  for (int round = 0; round < 20; ++round)
    chunkings.push_back(random_cuts(text, rng, round < 10 ? 4 : 24));
  for (const std::vector<size_t>& cuts : chunkings) {
    const auto [texts, commands] = stream_values(text, cuts);
    for (const auto& [key, value] : texts) {
      const auto& [command, param, line] = key;
      INFO(text << "\nin " << cuts.size() + 1 << " chunks: command " << command << ", " << param);
      REQUIRE(command < commands.size());
      REQUIRE(commands[command]["params"].contains(param));
      REQUIRE(value == commands[command]["params"][param].get<std::string>());
    }
  }
}

} // namespace

TEST_CASE("stream: a Cline replace_in_file streams each SEARCH/REPLACE block's texts as the "
          "command it becomes",
          "[cli][stream]") {
  // Two diffs of a real Cline export (tests/data/xml/real/cline, all_cline_tasks.md: the
  // train_COCa.py and README.md edits), as one diff with CRLF line breaks.
  const std::string lf =
      "I will update both.\n"
      "<replace_in_file>\n"
      "<path>src/train_COCa.py</path>\n"
      "<diff>\n"
      "------- SEARCH\n"
      "DEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
      "=======\n"
      "DEVICE = torch.device('mps' if torch.backends.mps.is_available() else 'cpu')\n"
      "+++++++ REPLACE\n"
      "\n"
      "------- SEARCH\n"
      "This project is licensed under the MIT License - see the `LICENSE` file for details.\n"
      "=======\n"
      "This project is licensed under the MIT License - see the `LICENSE` file for details.\n"
      "\n"
      "<small>Made with <a href=\"https://github.com/chazzofalf\">Cline</a></small>\n"
      "+++++++ REPLACE\n"
      "</diff>\n"
      "</replace_in_file>\n";
  const std::string text = apply::to_crlf(lf);
  const std::string cuda = "DEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')";
  const std::string mps =
      "DEVICE = torch.device('mps' if torch.backends.mps.is_available() else 'cpu')";
  const std::string license =
      "This project is licensed under the MIT License - see the `LICENSE` file for details.";
  const std::string small = "<small>Made with <a href=\"https://github.com/chazzofalf\">Cline</a>"
                            "</small>";
  // Byte at a time: each line as it completes, the break before it with it (the last line's
  // break is not the text's), under the command index and the line (1-based) of its block; a
  // blank line comes with the line after it (a diff that ended after it would not hold it).
  std::vector<json> events;
  const auto [texts, commands] = stream_values(text, every_byte(text), &events);
  std::vector<std::tuple<size_t, std::string, size_t, std::string>> got;
  for (const json& e : events)
    got.emplace_back(e.at("command"), e.at("param"), e.at("line"), e.at("text"));
  const decltype(got) want{{0, "old_text", 5, cuda},
                           {0, "new_text", 5, mps},
                           {1, "old_text", 11, license},
                           {1, "new_text", 11, license},
                           {1, "new_text", 11, "\n\n" + small}};
  CHECK(got == want);
  REQUIRE(commands.size() == 2);
  CHECK(commands[0]["params"]["old_text"] == cuda);
  CHECK(commands[0]["params"]["new_text"] == mps);
  CHECK(commands[1]["params"]["old_text"] == license);
  CHECK(commands[1]["params"]["new_text"] == license + "\n\n" + small);
  // In random pieces (shorter than any line, so each value is seen open): the same values.
  const StreamedTexts all{{{0, "old_text", 5}, cuda},
                          {{0, "new_text", 5}, mps},
                          {{1, "old_text", 11}, license},
                          {{1, "new_text", 11}, license + "\n\n" + small}};
  Rng rng(0x19);
  for (int round = 0; round < 20; ++round) {
    const std::vector<size_t> cuts = random_cuts(text, rng, 8);
    INFO(cuts.size() + 1 << " pieces");
    CHECK(stream_values(text, cuts).first == all);
  }
  require_diff_values_final(text);
}

TEST_CASE("stream: a malformed diff never streams text its commands do not have", "[cli][stream]") {
  const auto call = [](std::string_view diff) {
    return "<replace_in_file>\n<path>a.txt</path>\n<diff>\n" + std::string(diff) +
           "</diff>\n</replace_in_file>\n";
  };
  const std::string no_divider = call("------- SEARCH\nold\n+++++++ REPLACE\nmore\n");
  const std::string cases[] = {
      no_divider,
      call("------- SEARCH\nold\n+++++++ REPLACE\n"), // missing =======
      call("------- SEARCH\na\n=======\nb\n"),        // unclosed REPLACE
      call("------- SEARCH\na\n=======\nb\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE\n"),
      call("------- SEARCH\na\nb\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE\n"),
      call("------- SEARCH\na\n=======\nb\n=======\nc\n+++++++ REPLACE\n"), // a second divider
      call("=======\n+++++++ REPLACE\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n"),
      call(
          "<<<<<<< SEARCH\n:start_line:3\n-------\ndef f():\n=======\ndef g():\n>>>>>>> REPLACE\n"),
      call("------- SEARCH\n:start_line:3\n=======\n\n\nz\n\n+++++++ REPLACE\n"),
      // The diff closed mid-block (on a text line, on its own line), the directive cut off.
      "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\na\n=======\nb</diff>\n"
      "</replace_in_file>\n",
      "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\na\nb\n</diff>\n"
      "</replace_in_file>\n",
      "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\na\n=======\nb\nc",
      "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\na\n=======\nb\n"
      "<write_to_file>\n<path>b</path>\n<content>\nx\n</content>\n</write_to_file>\n",
      "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\na\n  </diff>\n"
      "</replace_in_file>\n",
  };
  for (const std::string& text : cases)
    require_diff_values_final(text);
  // A marker line inside a text is held back: it is text only when text follows it.
  std::vector<json> events;
  const auto [texts, commands] = stream_values(no_divider, every_byte(no_divider), &events);
  REQUIRE(events.size() == 2);
  CHECK(events[0].at("text") == "old");
  CHECK(events[1].at("text") == "\n+++++++ REPLACE\nmore");
  CHECK(commands[0]["params"]["old_text"] == "old\n+++++++ REPLACE\nmore");
  // The unclosed REPLACE is still its block's command (the block is invalid: MALFORMED_EDIT).
  const auto [cut_texts, cut_commands] = stream_values(cases[3], every_byte(cases[3]));
  REQUIRE(cut_commands.size() == 2);
  CHECK(cut_commands[0]["params"]["new_text"] == "b");
  CHECK(cut_texts.at({0, "new_text", 4}) == "b");
  CHECK(cut_texts.at({1, "old_text", 8}) == "c");
}

TEST_CASE("stream: a section streams from its first non-empty line, empty lines held back "
          "until text follows them",
          "[cli][stream]") {
  std::vector<std::string> texts; // "PARAM@line: text"
  json params;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (e.at("event") == "value_chunk")
      texts.push_back(e.at("param").get<std::string>() + "@" + e.at("line").dump() + ": " +
                      e.at("text").get<std::string>());
    if (e.at("event") == "block_end") params = e.at("block")["commands"][0]["params"];
  });
  using Texts = std::vector<std::string>;
  session.feed("chatroom task-started c1 --role=r --task-id=t << 'END'\n---TITLE---\nT\n");
  CHECK(texts == Texts{"TITLE@2: T"}); // open: the next line may add to it
  session.feed("---DESCRIPTION---\n\nfirst\n\n");
  CHECK(texts == Texts{"TITLE@2: T", "DESCRIPTION@4: first"}); // empty lines held back
  session.feed("second\n\n");
  CHECK(texts == Texts{"TITLE@2: T", "DESCRIPTION@4: first", "DESCRIPTION@4: \n\nsecond"});
  session.feed("END\n");
  session.finish();
  CHECK(texts.size() == 3); // the trailing empty line is not part of the value
  CHECK(params["description"] == "first\n\nsecond");
  CHECK(params["title"] == "T");
}

TEST_CASE("stream: a value whose lines mix LF and CRLF breaks streams each break as LF",
          "[cli][stream]") {
  // The chunks of a value without "\r" are taken from the text as it is; a chunk whose lines
  // have one reads it as the value does. Both kinds, in one value, concatenate to it.
  std::vector<std::string> texts;
  json params;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (e.at("event") == "value_chunk") texts.push_back(e.at("text"));
    if (e.at("event") == "block_end") params = e.at("block")["commands"][0]["params"];
  });
  session.feed("#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\npath = \"b\"\n"
               "content = <<'EOT_k1w'\nfirst\n");
  session.feed("second\r\n");
  session.feed("third\n");
  session.feed("fourth\r\nfifth\n");
  session.feed("EOT_k1w\n#!end_k1w\n");
  CHECK(session.finish() == 0);
  CHECK(texts == std::vector<std::string>{"first", "\nsecond", "\nthird", "\nfourth\nfifth"});
  CHECK(params["content"] == "first\nsecond\nthird\nfourth\nfifth");
}

TEST_CASE("stream: a heredoc's body and a NESL heredoc value stream line by line",
          "[cli][stream]") {
  std::vector<json> chunks;
  cli::StreamSession session({}, [&](const cli::StreamEvent& raw) {
    const json e = parsed(raw);
    if (e.at("event") == "value_chunk") chunks.push_back(e);
  });
  session.feed("cat > a.txt << 'EOF'\nline one\n");
  session.feed("line two\r\nEO");
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0] == json{{"event", "value_chunk"},
                          {"line", 1},
                          {"command", 0},
                          {"param", "content"},
                          {"text", "line one\n"},
                          {"partial", true}});
  CHECK(chunks[1].at("text") == "line two\n");
  session.feed("F\n#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\npath = \"b\"\n"
               "content = <<'EOT_k1w'\nfirst\n");
  REQUIRE(chunks.size() == 3);
  CHECK(chunks[2].at("text") == "first");
  CHECK(chunks[2].at("line") == 8);
  CHECK(chunks[2].at("param") == "content");
  session.feed("second\nEOT_k1w\n#!end_k1w\n");
  REQUIRE(chunks.size() == 4);
  CHECK(chunks[3].at("text") == "\nsecond");
  CHECK(session.finish() == 0);
}

// A value streamed in value_chunk events is written in its block_end as check writes it, byte for
// byte, whatever it holds (escapes, control bytes, invalid UTF-8, CRLF breaks, '+' marks) and
// however the feeds cut it (a line or a byte at a time). (Guards any reuse of the events' escaped
// texts in the block_end, as tried for #19: bench/README.md.)
TEST_CASE("stream: a block_end writes a streamed value as check does, whatever it holds",
          "[cli][stream]") {
  const std::string body = "say \"hi\" \\ back\\\n\ttab\x01 ctl \x7f\n"
                           "caf\xc3\xa9 \xe2\x82\xac\n"
                           "bad \xff byte\n"
                           "\n"
                           "last \"line\"";
  const std::string crlf = apply::to_crlf(body);
  std::string plus; // the body as an Add File's lines
  for (size_t at = 0; at <= body.size();) {
    const size_t nl = std::min(body.find('\n', at), body.size());
    plus += "+" + body.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  const std::vector<test::NamedInput> inputs = {
      {"nesl", "#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\npath = \"a\"\n"
               "content = <<'EOT_k1w'\n" +
                   body + "\nEOT_k1w\n#!end_k1w\n"},
      {"heredoc crlf", "cat > a.txt << 'EOF'\r\n" + crlf + "\r\nEOF\r\n"},
      {"patch", "*** Begin Patch\n*** Add File: a.txt\n" + plus + "*** End Patch\n"},
      {"cline", "<write_to_file>\n<path>a.txt</path>\n<content>\n" + body +
                    "\n</content>\n</write_to_file>\n"},
  };
  for (const test::NamedInput& input : inputs) {
    std::vector<size_t> lines, bytes;
    for (size_t at = 1; at < input.text.size(); ++at) {
      bytes.push_back(at);
      if (input.text[at - 1] == '\n') lines.push_back(at);
    }
    size_t chunks = 0;
    cli::StreamSession session(
        {}, [&](const cli::StreamEvent& e) { chunks += e.type == "value_chunk"; });
    feed_in_pieces(session, input.text, lines);
    INFO(input.name);
    CHECK(chunks >= 2); // the value was streamed
    require_same_as_check(input, lines);
    require_same_as_check(input, bytes);
  }
}
