// The repairs work on lines. Re-indenting: both texts lose their common indentation (the least
// of every non-blank line of either, as Aider does), then a window of file lines matches when
// each non-blank file line is one and the same whitespace prefix followed by the wanted line
// and each blank wanted line faces a blank file line. The REPLACE lines get that prefix too.
#include "apply/search_repair.h"

#include "apply/text_match.h"

#include <algorithm>
#include <vector>

namespace blockls::apply {
namespace {

bool is_blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

size_t indent_of(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && (s[n] == ' ' || s[n] == '\t'))
    ++n;
  return n;
}

// A text's lines without their breaks; whether it ended with a newline.
struct TextLines {
  std::vector<std::string_view> lines;
  bool final_newline = false;
};

TextLines lines_of(std::string_view text) {
  TextLines out;
  out.final_newline = text.ends_with('\n');
  if (out.final_newline) text.remove_suffix(1);
  if (text.empty() && !out.final_newline) return out;
  for (const TextLine& l : split_text_lines(text))
    out.lines.push_back(text.substr(l.begin, l.end - l.begin));
  return out;
}

// The whitespace prefix that turns `want` into the file's lines [at, at + want.size()), or
// nullopt when no single prefix does.
std::optional<std::string_view> shared_prefix(std::string_view content,
                                              const std::vector<TextLine>& file, size_t at,
                                              const std::vector<std::string_view>& want) {
  std::optional<std::string_view> prefix;
  for (size_t j = 0; j < want.size(); ++j) {
    const TextLine& fl = file[at + j];
    const std::string_view have = content.substr(fl.begin, fl.end - fl.begin);
    const std::string_view w = want[j];
    if (is_blank(w)) {
      if (!is_blank(have)) return std::nullopt;
      continue;
    }
    if (have.size() < w.size() || have.substr(have.size() - w.size()) != w) return std::nullopt;
    const std::string_view p = have.substr(0, have.size() - w.size());
    if (indent_of(p) != p.size()) return std::nullopt;
    if (prefix && *prefix != p) return std::nullopt;
    prefix = p;
  }
  return prefix ? prefix : std::string_view();
}

std::string join(const std::vector<std::string>& lines, bool final_newline) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += '\n';
    out += lines[i];
  }
  if (final_newline && !lines.empty()) out += '\n';
  return out;
}

// Re-indentation of `want` (and `replace` alike) to the one window of the file it matches.
std::optional<RepairedSearch> reindented(std::string_view content,
                                         const std::vector<TextLine>& file, TextLines want,
                                         TextLines replace) {
  if (want.lines.empty()) return std::nullopt;
  size_t common = std::string_view::npos;
  for (const auto* side : {&want.lines, &replace.lines})
    for (std::string_view l : *side)
      if (!is_blank(l)) common = std::min(common, indent_of(l));
  if (common == std::string_view::npos) return std::nullopt; // nothing but blank lines
  for (auto* side : {&want.lines, &replace.lines})
    for (std::string_view& l : *side)
      if (!is_blank(l)) l.remove_prefix(common);

  const size_t k = want.lines.size();
  std::optional<size_t> hit;
  std::string_view prefix;
  for (size_t i = 0; i + k <= file.size(); ++i) {
    const std::optional<std::string_view> p = shared_prefix(content, file, i, want.lines);
    if (!p) continue;
    if (hit) return std::nullopt; // two regions: no single answer
    hit = i;
    prefix = *p;
  }
  if (!hit) return std::nullopt;
  // Same indentation after all: only the line endings or the final newline differ, which is
  // the exact search's business, not a repair.
  if (prefix.empty() && common == 0) return std::nullopt;

  RepairedSearch r;
  const size_t i = *hit;
  r.begin = file[i].begin;
  r.end = want.final_newline ? file[i + k - 1].next : file[i + k - 1].end;
  r.old_text = to_lf(content.substr(r.begin, r.end - r.begin));
  std::vector<std::string> lines;
  for (std::string_view l : replace.lines)
    lines.push_back(is_blank(l) ? std::string(l) : std::string(prefix) + std::string(l));
  r.new_text = join(lines, replace.final_newline);
  r.first_line = static_cast<uint32_t>(i + 1);
  r.last_line = static_cast<uint32_t>(i + k);
  r.how = "re-indented";
  return r;
}

} // namespace

std::optional<RepairedSearch> repair_search(std::string_view content, std::string_view old_text,
                                            std::string_view new_text) {
  if (old_text.empty() || content.empty()) return std::nullopt;
  const std::vector<TextLine> file = split_text_lines(content);
  const TextLines want = lines_of(old_text), replace = lines_of(new_text);
  if (std::optional<RepairedSearch> r = reindented(content, file, want, replace)) return r;

  // A leading blank line the file does not have there (Aider drops it when the SEARCH text has
  // more than two lines).
  if (want.lines.size() <= 2 || !is_blank(want.lines.front())) return std::nullopt;
  const size_t skip = old_text.find('\n') + 1;
  const std::string_view rest = old_text.substr(skip);
  const Occurrences occ = find_occurrences(content, rest);
  if (occ.offsets.size() == 1) {
    RepairedSearch r;
    r.begin = occ.offsets.front();
    r.end = r.begin + occ.length;
    r.old_text = std::string(rest);
    r.new_text = std::string(new_text);
    r.first_line = line_numbers(content, occ.offsets).front();
    r.last_line = r.first_line + static_cast<uint32_t>(want.lines.size() - 2);
    r.how = "without its leading blank line";
    return r;
  }
  if (!occ.offsets.empty()) return std::nullopt;
  TextLines shorter = want;
  shorter.lines.erase(shorter.lines.begin());
  std::optional<RepairedSearch> r = reindented(content, file, shorter, replace);
  if (r) r->how = "re-indented, without its leading blank line";
  return r;
}

} // namespace blockls::apply
