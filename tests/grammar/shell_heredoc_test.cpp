// The shell lexing of grammar/shell_heredoc.h: bare words of every length end at the first
// blank, quote or stop byte (the scan takes 16 bytes at a time where it can).
#include "grammar/shell_heredoc.h"

#include <catch2/catch.hpp>
#include <string>

using namespace blockls;

TEST_CASE("a bare word ends at its first blank, quote or stop byte, at any length",
          "[shell_heredoc]") {
  for (const char end : {' ', '\t', '"', '\'', '<', '>', '|', ';', '&', '`'}) {
    for (size_t n = 1; n <= 40; ++n) {
      const std::string line = "> " + std::string(n, 'p') + end + "rest of the line";
      size_t i = 2, begin = 0, word_end = 0;
      bool quoted = true;
      INFO("word of " << n << " bytes before '" << end << "'");
      // (The sections dialect's stops include the backquote; the heredoc's do not.)
      REQUIRE(shell::lex_word(line, &i, "<>|;&`", &begin, &word_end, &quoted));
      CHECK(begin == 2);
      CHECK(word_end == 2 + n);
      CHECK(i == 2 + n);
      CHECK_FALSE(quoted);
      i = 2;
      REQUIRE(shell::lex_word(line, &i, "<>|;&", &begin, &word_end, &quoted));
      // (Without the backquote among the stops, the word runs on through "`rest".)
      CHECK(word_end == (end == '`' ? 2 + n + 5 : 2 + n));
    }
  }
  // A word that runs to the end of the line.
  for (size_t n = 1; n <= 40; ++n) {
    const std::string line(n, 'w');
    size_t i = 0, begin = 0, word_end = 0;
    bool quoted = true;
    REQUIRE(shell::lex_word(line, &i, "<>|;&", &begin, &word_end, &quoted));
    CHECK(word_end == n);
  }
}
