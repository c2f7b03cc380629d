// ModelList (grammar/model_list.h) and seal_block: a sealed list skips its destruction, so a
// seal is only right when that frees nothing. These tests hold the parser to that, on the whole
// test corpus; the sanitizer build (LeakSanitizer) also fails on any seal that leaks.
#include "grammar/arena.h"
#include "grammar/model_list.h"
#include "grammar/router/document_parser.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <memory_resource>
#include <string>

using namespace blockls;
namespace test = blockls::test;

namespace {

const std::string kShort = "short";
const std::string kLong = "a string too long for the inline buffer of std::string";

bool short_string(const std::string& s) {
  return string_owns_no_heap(s);
}

// Every sealed list of `block` holds only elements whose destruction frees nothing, in memory
// of `arena`.
void require_sound_seals(const Block& block, const std::pmr::memory_resource* arena) {
  if (block.commands.sealed()) {
    REQUIRE(block.commands.get_allocator().resource() == arena);
    for (const Command& c : block.commands) {
      REQUIRE(c.params.sealed());
      REQUIRE((string_owns_no_heap(c.name) || c.name.get_allocator().resource() == arena));
    }
  }
  for (const Command& c : block.commands) {
    if (!c.params.sealed()) continue;
    REQUIRE(c.params.get_allocator().resource() == arena);
    for (const Parameter& p : c.params) {
      REQUIRE(string_owns_no_heap(p.name));
      REQUIRE(p.decoded.empty());
    }
  }
}

} // namespace

TEST_CASE("a list seals only in its arena and when no element owns memory", "[model_list]") {
  Arena arena;
  ModelList<std::string> in_arena{ModelList<std::string>::allocator_type(&arena)};
  in_arena.push_back(kShort);
  CHECK(in_arena.seal_if(&arena, short_string));
  CHECK(in_arena.sealed());

  in_arena.push_back(kLong); // mutable access unseals
  CHECK_FALSE(in_arena.sealed());
  CHECK_FALSE(in_arena.seal_if(&arena, short_string)); // kLong is on the heap
  CHECK_FALSE(in_arena.sealed());

  ModelList<std::string> on_heap; // the default resource frees: never sealed
  on_heap.push_back(kShort);
  CHECK_FALSE(on_heap.seal_if(&arena, short_string));

  ModelList<std::string> empty{ModelList<std::string>::allocator_type(&arena)};
  CHECK(empty.seal_if(&arena, short_string));
}

TEST_CASE("a sealed list stays sealed through moves, not copies or mutable access",
          "[model_list]") {
  Arena arena;
  const auto sealed_list = [&] {
    ModelList<std::string> list{ModelList<std::string>::allocator_type(&arena)};
    list.push_back(kShort);
    REQUIRE(list.seal_if(&arena, short_string));
    return list;
  };
  ModelList<std::string> moved(sealed_list());
  CHECK(moved.sealed());
  CHECK(moved.size() == 1);

  const ModelList<std::string> copy(moved); // on the default heap
  CHECK_FALSE(copy.sealed());
  CHECK(copy == moved);
  CHECK(copy.get_allocator().resource() == std::pmr::get_default_resource());

  ModelList<std::string> other{
      ModelList<std::string>::allocator_type(std::pmr::new_delete_resource())};
  ModelList<std::string> into_other(std::move(moved), other.get_allocator()); // one by one
  CHECK_FALSE(into_other.sealed());
  CHECK(into_other.size() == 1);

  ModelList<std::string> assigned;
  assigned = sealed_list();
  CHECK_FALSE(assigned.sealed());

  ModelList<std::string> touched = sealed_list();
  REQUIRE(touched.sealed());
  const ModelList<std::string>& reader = touched;
  CHECK(reader.front() == kShort); // const access keeps the seal
  CHECK(touched.sealed());
  touched.front() = kLong; // mutable access unseals (and the long string is then freed)
  CHECK_FALSE(touched.sealed());
}

TEST_CASE("a parse seals blocks whose names and values fit their strings", "[model_list]") {
  const std::string text =
      "#!nesl [@three-char-SHA-256: k7m]\naction = \"file_write\"\npath = \"/tmp/a\"\n"
      "content = <<'EOT_k7m'\nhello\nEOT_k7m\n#!end_k7m\n"
      // A long action name (in the arena) and a CRLF heredoc (a decoded value on the heap).
      "#!nesl [@three-char-SHA-256: q2w]\r\naction = \"file_replace_text\"\r\npath = \"/a\"\r\n"
      "new_text = <<'EOT_q2w'\r\none\r\ntwo\r\nEOT_q2w\r\n#!end_q2w\r\n";
  for (bool streamed : {false, true}) {
    ParsedDocument doc;
    if (streamed) {
      DocumentParser parser;
      parser.feed(text);
      doc = parser.finish();
    } else {
      doc = parse_document(text);
    }
    REQUIRE(doc.blocks.size() == 2);
    CHECK(doc.blocks[0].commands.sealed());
    CHECK(doc.blocks[0].commands[0].params.sealed());
    const Command& second = doc.blocks[1].commands[0];
    CHECK(second.name == "file_replace_text");
    CHECK_FALSE(second.params.sealed()); // its new_text owns a decoded value
    CHECK(second.params[2].value(text) == "one\ntwo");
    CHECK_FALSE(doc.blocks[1].commands.sealed());
    for (const Block& b : doc.blocks)
      require_sound_seals(b, doc.arena.get());
  }
}

TEST_CASE("every seal of a parse of the test corpus is sound", "[model_list]") {
  size_t sealed = 0, blocks = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    INFO(input.name);
    const ParsedDocument doc = parse_document(input.text);
    for (const Block& b : doc.blocks) {
      require_sound_seals(b, doc.arena.get());
      sealed += b.commands.sealed();
      ++blocks;
    }
  }
  // Guards against passing vacuously: most blocks of the corpus are sealed.
  CHECK(sealed * 2 > blocks);
}
