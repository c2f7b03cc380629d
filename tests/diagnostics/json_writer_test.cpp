// The streaming JSON writer must write exactly what dump_json writes for the same value: the
// reports moved from nlohmann objects to the writer without a byte of output changing.
#include "diagnostics/json_text.h"
#include "diagnostics/json_writer.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>

namespace blockls {
namespace {

std::string written(const nlohmann::json& v, int indent) {
  std::string out;
  JsonWriter w(&out, indent);
  w.value(v);
  return out;
}

// Strings that exercise every escaping rule and every kind of invalid UTF-8.
const std::vector<std::string>& tricky_strings() {
  static const std::vector<std::string> strings = {
      "",
      "plain",
      "quote \" backslash \\ slash /",
      "\b\f\n\r\t",
      std::string("\x00\x01\x1f\x7f", 4),
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", // valid 2-, 3- and 4-byte sequences
      "bad \xff byte",                             // never valid
      "lone \x80 continuation",                    // continuation without a lead
      "cut \xe2\x82",                              // truncated at the end
      "cut \xe2\x82 middle",                       // truncated before ASCII
      "overlong \xc0\xaf and \xe0\x80\xaf",        // overlong forms
      "surrogate \xed\xa0\x80",                    // UTF-16 surrogate
      "too big \xf4\x90\x80\x80",                  // past U+10FFFF
      "\xf0\x9f\x98",                              // only a truncated sequence
      "mixed \xc3\xa9\xff\xc3\xa9\"\n",            // valid, invalid, valid, escapes
  };
  return strings;
}

TEST_CASE("the JSON writer writes every string as dump_json does", "[json_writer]") {
  for (const std::string& s : tricky_strings()) {
    INFO("string: " << nlohmann::json(s).dump(-1, ' ', true,
                                              nlohmann::json::error_handler_t::replace));
    std::string out;
    append_json_string(&out, s);
    CHECK(out == dump_json(nlohmann::json(s)));
  }
}

TEST_CASE("the JSON writer escapes at every position of a 16-byte stretch", "[json_writer]") {
  // The writer looks at 16 bytes at a time: each tricky string at every offset, and after a
  // non-ASCII character (once the text is known to be valid UTF-8, non-ASCII bytes pass).
  for (const std::string& s : tricky_strings())
    for (const std::string& lead : {std::string(), std::string("\xc3\xa9")})
      for (size_t pad = 0; pad <= 34; ++pad) {
        const std::string text = lead + std::string(pad, 'a') + s + std::string(pad % 7, 'b') + s;
        std::string out;
        append_json_string(&out, text);
        REQUIRE(out == dump_json(nlohmann::json(text)));
      }
}

TEST_CASE("the JSON writer writes long strings and every length as dump_json does",
          "[json_writer]") {
  // The literal is built in a stack buffer handed over when it fills (escapes can make it six
  // times the text), 16 bytes at a time with a padded copy of the last 1 to 31: every length
  // up to 300, texts dense with escapes, and invalid UTF-8 found late, after the buffer was
  // handed over (the whole literal is then nlohmann's), each appended after other text.
  std::mt19937 rng(20261126);
  const std::vector<std::string> pieces = {"a",
                                           "bc",
                                           "\"",
                                           "\\",
                                           "\n",
                                           "\r\n",
                                           "\t",
                                           std::string(1, '\0'),
                                           "\x1f",
                                           " ",
                                           "\xc3\xa9",
                                           "\xe2\x82\xac",
                                           "\xf0\x9f\x98\x80"};
  for (size_t length = 0; length <= 300; ++length)
    for (int round = 0; round < 4; ++round) {
      std::string text;
      while (text.size() < length)
        text += pieces[rng() % pieces.size()];
      text.resize(length); // (may cut a character: invalid at the end)
      if (round == 3 && length > 0) text[rng() % length] = '\xff'; // invalid, anywhere
      std::string out = "prefix";
      append_json_string(&out, text);
      REQUIRE(out == "prefix" + dump_json(nlohmann::json(text)));
    }
  for (const std::string& s : tricky_strings()) {
    const std::string text = std::string(2000, '\n') + s + std::string(700, '"');
    std::string out;
    append_json_string(&out, text);
    REQUIRE(out == dump_json(nlohmann::json(text)));
  }
}

TEST_CASE("the JSON writer lays out nested values as dump_json does", "[json_writer]") {
  const nlohmann::json value = {
      {"empty_object", nlohmann::json::object()},
      {"empty_array", nlohmann::json::array()},
      {"numbers", {0, 1, -1, 4294967296ULL, -9007199254740993LL}},
      {"flags", {true, false, nullptr}},
      {"nested", {{"a", {{"b", nlohmann::json::array({nlohmann::json::object()})}}}}},
      {"strings", tricky_strings()},
      {"float", 1.5},
  };
  for (int indent : {-1, 0, 2, 4}) {
    INFO("indent " << indent);
    CHECK(written(value, indent) == dump_json(value, indent));
  }
}

TEST_CASE("the JSON writer matches dump_json on random documents", "[json_writer]") {
  std::mt19937 rng(20261126);
  const auto random_string = [&] {
    std::string s(rng() % 3 == 0 ? rng() % 80 : rng() % 12, ' ');
    for (char& c : s)
      c = static_cast<char>(rng() % 4 == 0 ? rng() % 256 : 'a' + rng() % 26);
    return s;
  };
  // A random value of at most `depth` levels.
  std::function<nlohmann::json(int)> random_value = [&](int depth) -> nlohmann::json {
    switch (depth > 0 ? rng() % 6 : rng() % 4) {
    case 0:
      return random_string();
    case 1:
      return static_cast<uint64_t>(rng());
    case 2:
      return rng() % 2 == 0;
    case 3:
      return nullptr;
    case 4: {
      nlohmann::json a = nlohmann::json::array();
      for (uint32_t i = rng() % 4; i > 0; --i)
        a.push_back(random_value(depth - 1));
      return a;
    }
    default: {
      nlohmann::json o = nlohmann::json::object();
      for (uint32_t i = rng() % 4; i > 0; --i)
        o[random_string()] = random_value(depth - 1);
      return o;
    }
    }
  };
  for (int i = 0; i < 500; ++i) {
    const nlohmann::json v = random_value(4);
    REQUIRE(written(v, -1) == dump_json(v, -1));
    REQUIRE(written(v, 2) == dump_json(v, 2));
  }
}

TEST_CASE("one writer writes values one after another as fresh writers do", "[json_writer]") {
  // `blockls stream` writes every event with one writer, its text cleared in between: after
  // a complete value the writer must be back at the top level (no separator, no open
  // container, no pending key carried into the next value).
  const std::vector<nlohmann::json> values = {
      {{"event", "block_start"}, {"line", 3}, {"partial", true}},
      nlohmann::json::array({1, nlohmann::json::object(), {{"a", {nullptr}}}}),
      "text",
      {{"block", {{"commands", nlohmann::json::array()}}}, {"errors", {{{"code", "X"}}}}},
      {{"event", "done"}},
  };
  for (int indent : {-1, 2}) {
    std::string out;
    JsonWriter reused(&out, indent);
    for (const nlohmann::json& v : values) {
      out.clear();
      reused.value(v);
      REQUIRE(out == written(v, indent));
    }
  }
}

TEST_CASE("keys: short plain ones, long ones, tricky ones, deep in the indentation",
          "[json_writer]") {
  // Short plain keys take a path of their own (one append), up to 48 bytes and 64 columns of
  // indent; everything around those limits must come out as dump_json writes it.
  nlohmann::json value = nlohmann::json::object();
  for (size_t length : {0, 1, 47, 48, 49, 200})
    value[std::string(length, 'k')] = length;
  for (const std::string& s : tricky_strings())
    value[s] = s;
  for (int depth = 0; depth < 40; ++depth)
    value = nlohmann::json{{"level" + std::to_string(depth), value}, {"n", depth}};
  for (int indent : {-1, 0, 1, 2, 4})
    CHECK(written(value, indent) == dump_json(value, indent));
}

TEST_CASE("fields written by hand are laid out like a dumped object", "[json_writer]") {
  std::string out;
  JsonWriter w(&out, 2);
  w.begin_object();
  w.field("a", std::string_view("x"));
  w.key("b");
  w.begin_array();
  w.number(1);
  w.begin_object();
  w.end_object();
  w.end_array();
  w.field("c", true);
  w.end_object();
  CHECK(
      out ==
      dump_json(nlohmann::json{{"a", "x"}, {"b", {1, nlohmann::json::object()}}, {"c", true}}, 2));
}

} // namespace
} // namespace blockls

namespace blockls {
namespace {

// Nested `depth` levels: objects and arrays alternating, each level with a value before and
// after the next one, and an empty container at the bottom.
nlohmann::json nested(size_t depth) {
  nlohmann::json v = depth % 2 ? nlohmann::json::array() : nlohmann::json::object();
  for (size_t level = depth; level-- > 0;) {
    if (level % 2)
      v = nlohmann::json::array({1, std::move(v), "after"});
    else
      v = nlohmann::json{{"a", 1}, {"b", std::move(v)}, {"c", "after"}};
  }
  return v;
}

} // namespace

// The writer keeps the first 64 open containers in one word and deeper ones in a vector: both,
// and the way between them, lay out as dump_json does.
TEST_CASE("the JSON writer nests past 64 levels as dump_json does", "[json_writer]") {
  for (size_t depth :
       {size_t{1}, size_t{62}, size_t{63}, size_t{64}, size_t{65}, size_t{66}, size_t{130}}) {
    const nlohmann::json v = nested(depth);
    for (int indent : {-1, 2})
      REQUIRE(written(v, indent) == dump_json(v, indent));
  }
}

} // namespace blockls

namespace blockls {

TEST_CASE("a fork writes a later part aside: spliced in and adopted, the text is unchanged",
          "[json_writer]") {
  // {"a": [1, 2], "b": [3, {"c": null}], "d": true} written straight, and with "b"… written
  // by a fork before "a"'s items are, with and without a spill.
  const auto write_a = [](JsonWriter& w) {
    w.key("a");
    w.begin_array();
    w.number(1);
    w.number(2);
    w.end_array();
  };
  const auto write_rest = [](JsonWriter& w) {
    w.key("b");
    w.begin_array();
    w.number(3);
    w.begin_object();
    w.key("c");
    w.null();
    w.end_object();
    w.end_array();
    w.field("d", true);
  };
  for (const int indent : {-1, 0, 2}) {
    std::string want;
    JsonWriter straight(&want, indent);
    straight.begin_object();
    write_a(straight);
    write_rest(straight);
    straight.end_object();
    for (const bool spill : {false, true}) {
      INFO("indent " << indent << (spill ? ", spilled" : ""));
      std::string out, spilled;
      JsonWriter w(&out, indent);
      if (spill) w.spill_every(1, [&](std::string_view s) { spilled += s; });
      w.begin_object();
      std::string aside;
      JsonWriter ahead = w.fork(&aside);
      write_a(ahead); // the state after "a" (its text not kept)
      aside.clear();
      write_rest(ahead);
      write_a(w);
      w.splice(aside.substr(0, 5));
      w.splice(aside.substr(5));
      w.adopt(ahead);
      w.end_object();
      CHECK(spilled + out == want);
    }
  }
}

} // namespace blockls
