// SEARCH/REPLACE blocks of a `<diff>` (see xml_diff.h).
#include "grammar/xml/xml_diff.h"

namespace blockls::xml {
namespace {

enum class Mark : uint8_t { none, search, divider, replace, roo_separator, roo_line };

// `line` is at least three `c` then, when `word` is not empty, a space and `word` (an optional
// `>` after it, and trailing blanks, tolerated).
bool run_then(std::string_view line, char c, std::string_view word) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  size_t n = 0;
  while (n < line.size() && line[n] == c)
    ++n;
  if (n < 3) return false;
  line.remove_prefix(n);
  if (word.empty()) return line.empty();
  if (line.ends_with('>')) line.remove_suffix(1);
  return line.size() == word.size() + 1 && line[0] == ' ' && line.substr(1) == word;
}

Mark classify(std::string_view line) {
  if (line.empty()) return Mark::none;
  switch (line[0]) {
  case '-':
    return run_then(line, '-', "SEARCH") ? Mark::search
           : run_then(line, '-', "")     ? Mark::roo_separator
                                         : Mark::none;
  case '<':
    return run_then(line, '<', "SEARCH") ? Mark::search : Mark::none;
  case '=':
    return run_then(line, '=', "") ? Mark::divider : Mark::none;
  case '+':
    return run_then(line, '+', "REPLACE") ? Mark::replace : Mark::none;
  case '>':
    return run_then(line, '>', "REPLACE") ? Mark::replace : Mark::none;
  case ':':
    return line.starts_with(":start_line:") || line.starts_with(":end_line:") ? Mark::roo_line
                                                                              : Mark::none;
  default:
    return Mark::none;
  }
}

// The lines [first, last_end) of a section; empty at `at` when it has no line.
ByteRange section(size_t first, size_t last_end, size_t at) {
  return first == std::string_view::npos ? ByteRange{at, at} : ByteRange{first, last_end};
}

} // namespace

bool is_diff_marker(std::string_view line) {
  const Mark m = classify(line);
  return m == Mark::search || m == Mark::divider || m == Mark::replace;
}

ParsedDiff parse_diff(std::string_view text, ByteRange range) {
  constexpr size_t npos = std::string_view::npos;
  enum class Part : uint8_t { outside, search_head, search, replace };
  ParsedDiff out;
  Part part = Part::outside;
  DiffBlock cur;
  size_t first = npos, last_end = 0, section_at = 0;
  for (size_t pos = range.begin; pos < range.end;) {
    size_t nl = text.find('\n', pos);
    if (nl == npos || nl > range.end) nl = range.end;
    std::string_view line = text.substr(pos, nl - pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const ByteRange here{pos, pos + line.size()};
    const size_t next = nl < range.end ? nl + 1 : range.end;
    const Mark m = classify(line);
    if (part == Part::search_head && (m == Mark::roo_line || m == Mark::roo_separator)) {
      section_at = next; // Roo's line hints and separator come before the SEARCH text
    } else if (m == Mark::search) {
      if (part != Part::outside)
        out.problems.push_back({cur.marker, "SEARCH block is not finished before the next SEARCH",
                                "End each block with `=======`, the replacement and `+++++++ "
                                "REPLACE` before the next `------- SEARCH`"});
      cur = DiffBlock{};
      cur.marker = here;
      part = Part::search_head;
      first = npos;
      section_at = next;
    } else if (m == Mark::divider && part != Part::outside && part != Part::replace) {
      cur.old_text = section(first, last_end, section_at);
      cur.replace_marker = here;
      part = Part::replace;
      first = npos;
      section_at = next;
    } else if (m == Mark::replace && part == Part::replace) {
      cur.new_text = section(first, last_end, section_at);
      out.blocks.push_back(cur);
      part = Part::outside;
    } else if (m == Mark::divider || m == Mark::replace) {
      if (part == Part::outside)
        out.problems.push_back(
            {here, "Diff marker " + std::string(line) + " without a SEARCH marker before it",
             "Begin each block with `------- SEARCH`"});
      else if (m == Mark::replace)
        out.problems.push_back({here, "REPLACE marker without the `=======` divider before it",
                                "Write `=======` between the SEARCH and the REPLACE text"});
      else if (part == Part::replace) {
        // A second divider is replacement text (Cline reads it so too).
        if (first == npos) first = pos;
        last_end = here.end;
      }
    } else if (part != Part::outside) {
      if (part == Part::search_head) part = Part::search;
      if (first == npos) first = pos;
      last_end = here.end;
    }
    pos = next;
    if (nl == range.end) break;
  }
  if (part != Part::outside)
    out.problems.push_back({cur.marker,
                            "SEARCH block is not finished: the diff ends before its " +
                                std::string(part == Part::replace ? "REPLACE marker" : "`=======`"),
                            "End the block with `=======`, the replacement and `+++++++ REPLACE`"});
  if (out.blocks.empty() && out.problems.empty())
    out.problems.push_back({{range.begin, range.begin},
                            "The diff holds no SEARCH/REPLACE block",
                            "Write `------- SEARCH`, the exact text, `=======`, the replacement "
                            "and `+++++++ REPLACE`"});
  return out;
}

} // namespace blockls::xml
