// SEARCH/REPLACE blocks of a `<diff>` (see xml_diff.h).
#include "grammar/xml/xml_diff.h"

#include <utility>

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

void DiffReader::cut(size_t at) {
  if (part_ == Part::replace) {
    cur_.new_text = section(first_, last_end_, section_at_);
  } else {
    cur_.old_text = section(first_, last_end_, section_at_);
    cur_.replace_marker = cur_.marker; // no divider: the new text's name is the block's marker
    cur_.new_text = {at, at};
  }
  out_.blocks.push_back(cur_);
}

void DiffReader::line(std::string_view line, ByteRange here, size_t next) {
  const uint32_t number = lines_++;
  const Mark m = classify(line);
  if (part_ == Part::search_head && (m == Mark::roo_line || m == Mark::roo_separator)) {
    section_at_ = next; // Roo's line hints and separator come before the SEARCH text
  } else if (m == Mark::search) {
    if (part_ != Part::outside) {
      out_.problems.push_back({cur_.marker, "SEARCH block is not finished before the next SEARCH",
                               "End each block with `=======`, the replacement and `+++++++ "
                               "REPLACE` before the next `------- SEARCH`",
                               marker_line_});
      cut(here.begin);
    }
    cur_ = DiffBlock{};
    cur_.marker = here;
    cur_.line = number;
    marker_line_ = number;
    part_ = Part::search_head;
    first_ = npos;
    section_at_ = next;
  } else if (m == Mark::divider && part_ != Part::outside && part_ != Part::replace) {
    cur_.old_text = section(first_, last_end_, section_at_);
    cur_.replace_marker = here;
    part_ = Part::replace;
    first_ = npos;
    section_at_ = next;
  } else if (m == Mark::replace && part_ == Part::replace) {
    cur_.new_text = section(first_, last_end_, section_at_);
    out_.blocks.push_back(cur_);
    part_ = Part::outside;
  } else if (m == Mark::divider || m == Mark::replace) {
    if (part_ == Part::outside)
      out_.problems.push_back(
          {here, "Diff marker " + std::string(line) + " without a SEARCH marker before it",
           "Begin each block with `------- SEARCH`", number});
    else if (m == Mark::replace)
      out_.problems.push_back({here, "REPLACE marker without the `=======` divider before it",
                               "Write `=======` between the SEARCH and the REPLACE text", number});
    else if (part_ == Part::replace) {
      add_section_line(here); // a second divider is replacement text (Cline reads it so too)
    }
  } else if (part_ != Part::outside) {
    if (part_ == Part::search_head) part_ = Part::search;
    add_section_line(here);
  }
}

// A blank last line is not the section's for sure: the diff's value loses one final line
// break (raw_value), so a diff that ends right after it (unclosed at the end of input, or
// closed inside a block) ends the section before it.
void DiffReader::add_section_line(ByteRange here) {
  const bool blank = here.begin == here.end;
  if (first_ == npos) {
    first_ = here.begin;
    sure_end_ = blank ? npos : here.end;
  } else {
    sure_end_ = blank ? last_end_ : here.end;
  }
  last_end_ = here.end;
}

std::optional<DiffReader::Open> DiffReader::open() const {
  if (part_ == Part::outside || first_ == npos || sure_end_ == npos) return std::nullopt;
  return Open{static_cast<uint32_t>(out_.blocks.size()),
              marker_line_,
              part_ == Part::replace,
              {first_, sure_end_}};
}

ParsedDiff DiffReader::finish(ByteRange range) {
  if (part_ != Part::outside) {
    out_.problems.push_back(
        {cur_.marker,
         "SEARCH block is not finished: the diff ends before its " +
             std::string(part_ == Part::replace ? "REPLACE marker" : "`=======`"),
         "End the block with `=======`, the replacement and `+++++++ REPLACE`", marker_line_});
    cut(range.end);
    part_ = Part::outside;
  }
  if (out_.blocks.empty() && out_.problems.empty())
    out_.problems.push_back({{range.begin, range.begin},
                             "The diff holds no SEARCH/REPLACE block",
                             "Write `------- SEARCH`, the exact text, `=======`, the replacement "
                             "and `+++++++ REPLACE`"});
  return std::move(out_);
}

ParsedDiff parse_diff(std::string_view text, ByteRange range) {
  constexpr size_t npos = std::string_view::npos;
  DiffReader reader;
  for (size_t pos = range.begin; pos < range.end;) {
    size_t nl = text.find('\n', pos);
    if (nl == npos || nl > range.end) nl = range.end;
    std::string_view line = text.substr(pos, nl - pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const size_t next = nl < range.end ? nl + 1 : range.end;
    reader.line(line, {pos, pos + line.size()}, next);
    pos = next;
    if (nl == range.end) break;
  }
  return reader.finish(range);
}

} // namespace blockls::xml
