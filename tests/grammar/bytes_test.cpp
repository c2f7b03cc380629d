// The short-string helpers of grammar/bytes.h.
#include "grammar/bytes.h"

#include <string>

#include <catch2/catch.hpp>

using namespace blockls;

TEST_CASE("copy_bytes copies exactly n bytes at every length", "[bytes]") {
  std::string source;
  for (int i = 0; i < 40; ++i)
    source.push_back(static_cast<char>('a' + i % 26));
  for (size_t n = 0; n <= source.size(); ++n) {
    // Guard bytes on both sides of the copy stay untouched.
    std::string target(source.size() + 2, '#');
    copy_bytes(target.data() + 1, source.data(), n);
    INFO("n = " << n);
    CHECK(target.substr(1, n) == source.substr(0, n));
    CHECK(target[0] == '#');
    CHECK(target.find_first_not_of('#', 1 + n) == std::string::npos);
  }
}
