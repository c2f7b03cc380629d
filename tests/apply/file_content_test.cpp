// FileContent (apply/file_content.h): the shared, chunked content of the simulation must read,
// search and splice exactly like a flat std::string, across chunk boundaries, with CRLF line
// breaks and non-ASCII text; checked against the flat operations on random texts and edits.
#include "apply/file_content.h"
#include "apply/text_match.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace blockls::apply;

namespace {

// What FileContent::find_all must return: repeated std::string_view::find.
std::vector<size_t> flat_find_all(std::string_view text, std::string_view needle, size_t from) {
  std::vector<size_t> out;
  if (needle.empty()) return out;
  for (size_t pos = text.find(needle, from); pos != std::string_view::npos;
       pos = text.find(needle, pos + needle.size()))
    out.push_back(pos);
  return out;
}

// A text of `lines` lines drawn from a small set (so that lines repeat), with LF or CRLF
// breaks, some non-ASCII, some long lines, and maybe no final line break.
std::string random_text(std::mt19937& rng, size_t lines, bool crlf) {
  static const std::vector<std::string> pool = {"",
                                                "    x = 1",
                                                "def run():",
                                                "  return café",
                                                "→ ünïcode ✓",
                                                "x",
                                                "    x = 1  ",
                                                std::string(300, 'a'),
                                                "\tindent",
                                                "# comment",
                                                "value = compute(1, cache)"};
  std::string out;
  for (size_t i = 0; i < lines; ++i) {
    out += pool[rng() % pool.size()];
    if (i + 1 < lines || rng() % 2) out += crlf ? "\r\n" : "\n";
  }
  return out;
}

// A needle from the text (a random span, often starting and ending at line breaks) or not.
std::string random_needle(std::mt19937& rng, const std::string& text) {
  if (text.empty() || rng() % 8 == 0) return "x = 1\nnowhere\n";
  size_t begin = rng() % text.size();
  if (rng() % 2) {
    const size_t nl = text.rfind('\n', begin);
    begin = nl == std::string::npos ? 0 : nl + 1;
  }
  size_t len = 1 + rng() % 200;
  if (rng() % 2) {
    const size_t nl = text.find('\n', std::min(text.size() - 1, begin + len));
    if (nl != std::string::npos) len = nl + 1 - begin;
  }
  return text.substr(begin, len);
}

void check_same(const FileContent& c, const std::string& flat) {
  REQUIRE(c.size() == flat.size());
  REQUIRE(c.empty() == flat.empty());
  REQUIRE(c.str() == flat);
  REQUIRE(c.line_breaks() == static_cast<size_t>(std::count(flat.begin(), flat.end(), '\n')));
  size_t crlf = 0;
  for (size_t i = 1; i < flat.size(); ++i)
    crlf += flat[i] == '\n' && flat[i - 1] == '\r';
  REQUIRE(c.crlf_breaks() == crlf);
  REQUIRE(uses_crlf(c) == uses_crlf(std::string_view(flat)));
  REQUIRE(c == FileContent(flat));
}

} // namespace

TEST_CASE("FileContent: an empty content", "[apply][file_content]") {
  const FileContent empty;
  check_same(empty, "");
  CHECK(empty.chunk_count() == 0);
  CHECK(empty.find_all("a").empty());
  CHECK(empty == FileContent(""));
  check_same(empty.splice(0, 0, "a\r\nb"), "a\r\nb");
  check_same(FileContent("abc").splice(0, 3, ""), "");
  CHECK(text_or_empty(std::nullopt).empty());
  CHECK(text_or_empty(FileContent("é\n")) == "é\n");
}

TEST_CASE("FileContent: a large file is chunked at line breaks", "[apply][file_content]") {
  std::string flat;
  for (int i = 0; i < 5000; ++i)
    flat += "line " + std::to_string(i) + " → ü\r\n";
  const FileContent c(flat);
  check_same(c, flat);
  CHECK(c.chunk_count() > 4);
  CHECK(uses_crlf(c));
  // A two-line needle found through the line filter; a one-line needle by a scan.
  CHECK(c.find_all("line 4000 → ü\r\nline 4001 → ü\r\n") ==
        flat_find_all(flat, "line 4000 → ü\r\nline 4001 → ü\r\n", 0));
  CHECK(c.find_all("line 4000 → ü\r\nline 4001 → ü\r\n").size() == 1);
  CHECK(c.find_all("0 → ü\r\n") == flat_find_all(flat, "0 → ü\r\n", 0));
  // The LF needle matches the CRLF file through find_occurrences' conversion.
  const Occurrences occ = find_occurrences(c, "line 7 → ü\nline 8 → ü\n");
  CHECK(occ.crlf_converted);
  CHECK(occ.offsets.size() == 1);
  CHECK(occ.offsets ==
        find_occurrences(std::string_view(flat), "line 7 → ü\nline 8 → ü\n").offsets);
  CHECK(occ.length == std::string("line 7 → ü\r\nline 8 → ü\r\n").size());
  // One version per edit, sharing what the edit does not touch.
  const FileContent edited = c.splice(flat.find("line 2500 "), flat.find("line 2501 "), "new\r\n");
  CHECK(edited.chunk_count() >= c.chunk_count() - 1);
  CHECK_FALSE(edited == c);
  CHECK(c.str() == flat); // the old version is unchanged
}

TEST_CASE("FileContent: find_all and splice agree with a flat string", "[apply][file_content]") {
  std::mt19937 rng(18);
  for (int round = 0; round < 60; ++round) {
    const bool crlf = round % 3 == 0;
    std::string flat = random_text(rng, round % 5 == 0 ? 3 : 50 + rng() % 900, crlf);
    FileContent c(flat);
    for (int step = 0; step < 25; ++step) {
      INFO("round " << round << ", step " << step);
      check_same(c, flat);
      for (int q = 0; q < 8; ++q) {
        const std::string needle = random_needle(rng, flat);
        const size_t from = rng() % 4 == 0 && !flat.empty() ? rng() % flat.size() : 0;
        INFO("needle " << needle << " from " << from);
        REQUIRE(c.find_all(needle, from) == flat_find_all(flat, needle, from));
        const Occurrences a = find_occurrences(c, needle, from);
        const Occurrences b = find_occurrences(std::string_view(flat), needle, from);
        REQUIRE(a.offsets == b.offsets);
        REQUIRE(a.length == b.length);
        REQUIRE(a.crlf_converted == b.crlf_converted);
      }
      // An edit: replace a random span (maybe empty, maybe at the very end) by random lines.
      const size_t begin = flat.empty() ? 0 : rng() % (flat.size() + 1);
      const size_t end = std::min(flat.size(), begin + rng() % 400);
      const std::string with = rng() % 4 == 0 ? "" : random_text(rng, rng() % 6, crlf);
      c = c.splice(begin, end, with);
      flat.replace(begin, end - begin, with);
    }
  }
}
