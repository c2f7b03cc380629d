// The parse arena (grammar/arena.h): aligned bump allocation, large requests, the per-thread
// chunk cache, and documents whose commands live in it surviving moves and copies.
#include "grammar/arena.h"
#include "grammar/router/document_parser.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <string>
#include <thread>
#include <vector>

using namespace blockls;

namespace {

bool aligned(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

} // namespace

TEST_CASE("the arena hands out aligned and disjoint memory of any size", "[arena]") {
  Arena::release_cached_chunks();
  std::vector<std::pair<char*, size_t>> blocks;
  {
    Arena arena;
    const size_t sizes[] = {1,
                            7,
                            8,
                            24,
                            112,
                            448,
                            1000,
                            Arena::kChunkBytes / 4,
                            Arena::kChunkBytes / 4 + 1,
                            Arena::kChunkBytes * 3};
    const size_t alignments[] = {1, 2, 4, 8, 16, 64, 4096};
    for (int round = 0; round < 40; ++round) {
      for (size_t size : sizes) {
        const size_t alignment = alignments[(round + size) % std::size(alignments)];
        char* p = static_cast<char*>(arena.allocate(size, alignment));
        REQUIRE(p != nullptr);
        CHECK(aligned(p, alignment));
        std::memset(p, round, size); // ASan reports any overlap with a chunk's end
        blocks.emplace_back(p, size);
      }
    }
    // No two blocks overlap.
    std::sort(blocks.begin(), blocks.end());
    for (size_t i = 1; i < blocks.size(); ++i)
      CHECK(blocks[i - 1].first + blocks[i - 1].second <= blocks[i].first);
    CHECK(arena.allocated_bytes() > Arena::kChunkBytes * 3);
  }
  // Its chunks (not the large blocks) wait for the next parse on this thread.
  CHECK(Arena::cached_chunks() > 0);
  CHECK(Arena::cached_chunks() <= Arena::kMaxCachedChunks);
  Arena::release_cached_chunks();
  CHECK(Arena::cached_chunks() == 0);
}

TEST_CASE("a parse reuses the chunks of the previous one within the cache bound", "[arena]") {
  Arena::release_cached_chunks();
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "#!nesl [@three-char-SHA-256: a" + std::to_string(i % 10) +
            "x]\naction = \"file_write\"\npath = \"/tmp/f\"\ncontent = \"x\"\n#!end_a" +
            std::to_string(i % 10) + "x\n\n";
  size_t chunks = 0;
  {
    const ParsedDocument doc = parse_document(text);
    REQUIRE(doc.arena);
    CHECK(doc.blocks.size() == 3000);
    chunks = doc.arena->allocated_bytes() / Arena::kChunkBytes;
    REQUIRE(chunks > 1);
    CHECK(Arena::cached_chunks() == 0); // all new from the heap
  }
  const size_t cached = Arena::cached_chunks();
  CHECK(cached >= chunks);
  {
    const ParsedDocument again = parse_document(text);
    CHECK(Arena::cached_chunks() < cached); // taken from the cache
  }
  CHECK(Arena::cached_chunks() == cached);
  // Another thread takes from the same cache: a document freed on one thread (the language
  // server's disposer) gives its chunks to the next parse on another (its worker).
  size_t other_before = SIZE_MAX, other_during = SIZE_MAX;
  std::thread([&] {
    other_before = Arena::cached_chunks();
    const ParsedDocument there = parse_document(text);
    other_during = Arena::cached_chunks();
  }).join();
  CHECK(other_before == cached);
  CHECK(other_during < cached);
  CHECK(Arena::cached_chunks() == cached); // given back when `there` died on that thread
  Arena::release_cached_chunks();
}

TEST_CASE("commands in the arena survive moves and copies of their document", "[arena]") {
  const std::string text = "#!nesl [@three-char-SHA-256: k7m]\naction = \"file_write\"\n"
                           "path = \"/tmp/a\"\ncontent = <<'EOT_k7m'\nhello\nEOT_k7m\n#!end_k7m\n";
  ParsedDocument copy;
  ParsedDocument moved;
  {
    ParsedDocument doc = parse_document(text);
    REQUIRE(doc.blocks.size() == 1);
    copy = doc;                 // the copy's commands are on the default heap
    moved = std::move(doc);     // the arena goes with them
    doc = parse_document(text); // a moved-from document can be reused
    CHECK(doc.blocks.size() == 1);
  } // `doc` and its second arena are gone
  for (const ParsedDocument* d : {&copy, &moved}) {
    REQUIRE(d->blocks.size() == 1);
    const Command& c = d->blocks[0].commands.at(0);
    CHECK(c.name == "file_write");
    REQUIRE(c.params.size() == 3);
    CHECK(c.params[2].value(text) == "hello");
  }
  CHECK(copy.arena == nullptr);
  CHECK(moved.arena != nullptr);
  CHECK(copy.blocks[0].commands.get_allocator().resource() == std::pmr::get_default_resource());
  CHECK(moved.blocks[0].commands.get_allocator().resource() == moved.arena.get());
}

TEST_CASE("a document outlives the thread that parsed it", "[arena]") {
  const std::string text = "#!nesl [@three-char-SHA-256: q2w]\naction = \"file_delete\"\n"
                           "path = \"/tmp/gone\"\n#!end_q2w\n";
  Arena::release_cached_chunks();
  ParsedDocument doc;
  std::thread([&] { doc = parse_document(text); }).join(); // that thread's cache is gone
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.blocks[0].commands.at(0).params.at(1).value(text) == "/tmp/gone");
  doc = ParsedDocument(); // its chunk joins the cache
  CHECK(Arena::cached_chunks() == 1);
  Arena::release_cached_chunks();
}
