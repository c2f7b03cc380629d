// The streaming parse's growing text (grammar/text_buffer.h): whatever the sizes of the
// appends, it holds exactly the bytes given, across its reallocations and moves; a mapping's
// pages are readied ahead of the text a window at a time, and it stays aligned to 2 MiB.
#include "grammar/text_buffer.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

using blockls::TextBuffer;

TEST_CASE("TextBuffer holds what was appended, across growth") {
  TextBuffer buffer;
  CHECK(buffer.view().empty());
  CHECK(buffer.view().data() != nullptr);
  buffer.append("");
  CHECK(buffer.size() == 0);
  std::string want;
  // Sizes from 1 byte to past a MiB, so that the buffer grows from the heap into a mapping.
  for (size_t step = 1; want.size() < (3u << 20); step = step * 3 + 1) {
    std::string chunk(step % 70000 + 1, '\0');
    for (size_t i = 0; i < chunk.size(); ++i)
      chunk[i] = static_cast<char>('a' + (want.size() + i) % 26);
    buffer.append(chunk);
    want += chunk;
    REQUIRE(buffer.size() == want.size());
    REQUIRE(buffer.capacity() >= buffer.size());
  }
  CHECK(buffer.view() == want);
}

TEST_CASE("TextBuffer moves its bytes and leaves the source empty") {
  TextBuffer a;
  a.append("line one\nline two\n");
  TextBuffer b(std::move(a));
  CHECK(b.view() == "line one\nline two\n");
  CHECK(a.size() == 0); // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  TextBuffer c;
  c.append("x");
  c = std::move(b);
  CHECK(c.view() == "line one\nline two\n");
  c.append("three");
  CHECK(c.view() == "line one\nline two\nthree");
}

TEST_CASE("TextBuffer readies a mapping's pages ahead of the text, a window at a time") {
  TextBuffer buffer;
  const std::string chunk(64, 'x');
  while (buffer.size() < (64u << 10))
    buffer.append(chunk);
  CHECK(buffer.prefaulted() == 0);     // on the heap: the allocator's pages
  while (buffer.size() < (512u << 10)) // a mapping from 256 KiB on (Linux)
    buffer.append(chunk);
  size_t calls = 0, last = 0; // how often the ready part moved on
  while (buffer.size() < (3u << 20)) {
    buffer.append(chunk);
#if defined(__linux__)
    // Every byte written was made ready first, and never past the mapping nor far ahead.
    REQUIRE(buffer.prefaulted() >= buffer.size());
    REQUIRE(buffer.prefaulted() <= buffer.capacity());
    REQUIRE(buffer.prefaulted() - buffer.size() <= (256u << 10));
    if (buffer.prefaulted() != last) ++calls, last = buffer.prefaulted();
#endif
  }
#if defined(__linux__)
  // About one step per 256 KiB of text (and one at each switch or growth of the mapping),
  // not one per append.
  CHECK(calls <= (3u << 20) / (256u << 10) + 8);
  const size_t ready = buffer.prefaulted();
  TextBuffer moved(std::move(buffer));
  CHECK(moved.prefaulted() == ready);
  CHECK(buffer.prefaulted() == 0); // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  TextBuffer assigned;
  assigned = std::move(moved);
  CHECK(assigned.prefaulted() == ready);
  assigned.append(chunk);
  CHECK(assigned.view().find_first_not_of('x') == std::string_view::npos);
#endif
}

TEST_CASE("TextBuffer's mapping stays aligned to 2 MiB as it grows (huge pages)") {
  TextBuffer buffer;
  std::string want;
  const std::string chunk(4096, 'y');
  while (buffer.size() < (9u << 20)) { // past a mapping of 2, 4 and 8 MiB
    buffer.append(chunk);
    want += chunk;
#if defined(__linux__)
    if (buffer.size() >= (512u << 10)) { // a mapping (from 256 KiB on)
      REQUIRE(reinterpret_cast<uintptr_t>(buffer.view().data()) % (2u << 20) == 0);
      REQUIRE(buffer.capacity() % (2u << 20) == 0);
    }
#endif
  }
  CHECK(buffer.view() == want);
}
