// The streaming parse's growing text (grammar/text_buffer.h): whatever the sizes of the
// appends, it holds exactly the bytes given, across its reallocations and moves.
#include "grammar/text_buffer.h"

#include <catch2/catch.hpp>
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
