// Codex's chunk locator and applier (see patch_locate.h), rebuilt from its documented rules.
#include "apply/patch_locate.h"

#include "apply/text_match.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>

namespace blockls::apply {
namespace {

std::string_view rtrim(std::string_view s) {
  const size_t e = s.find_last_not_of(" \t\r\f\v");
  return e == std::string_view::npos ? std::string_view() : s.substr(0, e + 1);
}

std::string_view trim(std::string_view s) {
  s = rtrim(s);
  const size_t b = s.find_first_not_of(" \t\r\f\v");
  return b == std::string_view::npos ? std::string_view() : s.substr(b);
}

// The ASCII stand-in of a code point Codex normalises, or 0.
char ascii_for(uint32_t cp) {
  if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212) return '-';
  if (cp >= 0x2018 && cp <= 0x201B) return '\'';
  if (cp >= 0x201C && cp <= 0x201F) return '"';
  if (cp == 0x00A0 || (cp >= 0x2002 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F ||
      cp == 0x3000)
    return ' ';
  return 0;
}

// Compares two lines by pass `pass` (0 exact, 1 trailing blanks, 2 both ends, 3 punctuation).
bool same(std::string_view a, std::string_view b, int pass) {
  switch (pass) {
  case 0:
    return a == b;
  case 1:
    return rtrim(a) == rtrim(b);
  case 2:
    return trim(a) == trim(b);
  default:
    return normalise_punctuation(trim(a)) == normalise_punctuation(trim(b));
  }
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t pos = 0;;) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(pos));
      break;
    }
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

std::string joined(const std::vector<std::string_view>& lines) {
  std::string out;
  for (std::string_view l : lines) {
    out.append(l);
    out += '\n';
  }
  return out;
}

} // namespace

std::string normalise_punctuation(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + n > s.size()) n = 1;
    uint32_t cp = c;
    if (n == 2) cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    if (n == 3)
      cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
           (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    const char a = n > 1 ? ascii_for(cp) : 0;
    if (a)
      out += a;
    else
      out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

std::vector<size_t> seek_sequence(const std::vector<std::string_view>& lines,
                                  const std::vector<std::string_view>& pattern, size_t start,
                                  bool end_of_file) {
  if (pattern.empty()) return {start};
  if (pattern.size() > lines.size()) return {};
  const size_t last = lines.size() - pattern.size();
  const size_t from = end_of_file ? last : start;
  for (int pass = 0; pass < 4; ++pass) {
    std::vector<size_t> found;
    for (size_t i = from; i <= last; ++i) {
      bool ok = true;
      for (size_t k = 0; ok && k < pattern.size(); ++k)
        ok = same(lines[i + k], pattern[k], pass);
      if (ok) found.push_back(i);
    }
    if (!found.empty()) return found;
  }
  return {};
}

PatchOutcome apply_chunks(std::string_view content, const std::vector<patch::Chunk>& chunks,
                          std::string_view shown_path) {
  const bool crlf = uses_crlf(content);
  const std::string lf = crlf ? to_lf(content) : std::string(content);
  std::vector<std::string_view> lines = split_lines(lf);
  if (!lines.empty() && lines.back().empty()) lines.pop_back();

  PatchOutcome out;
  // (first line, lines replaced, new lines) in file order.
  std::vector<std::tuple<size_t, size_t, std::vector<std::string_view>>> edits;
  size_t at = 0;
  for (size_t n = 0; n < chunks.size(); ++n) {
    const patch::Chunk& c = chunks[n];
    out.chunk = n;
    if (c.context) {
      const std::vector<size_t> m = seek_sequence(lines, {*c.context}, at, false);
      if (m.empty()) {
        out.status = PatchOutcome::Status::not_found;
        out.message = "Failed to find context '" + std::string(*c.context) + "' in " +
                      std::string(shown_path);
        out.needle = std::string(*c.context) + "\n";
        return out;
      }
      at = m.front() + 1;
    }
    if (c.old_lines.empty()) {
      edits.emplace_back(lines.size(), 0, c.new_lines);
      continue;
    }
    std::vector<std::string_view> pattern = c.old_lines, added = c.new_lines;
    std::vector<size_t> m = seek_sequence(lines, pattern, at, c.end_of_file);
    if (m.empty() && pattern.back().empty()) {
      // A trailing empty context line stands for the file's final line break.
      pattern.pop_back();
      if (!added.empty() && added.back().empty()) added.pop_back();
      m = seek_sequence(lines, pattern, at, c.end_of_file);
    }
    if (m.empty()) {
      out.status = PatchOutcome::Status::not_found;
      out.message = "Failed to find expected lines in " + std::string(shown_path) + ":\n" +
                    joined(c.old_lines);
      if (out.message.ends_with('\n')) out.message.pop_back();
      out.needle = joined(c.old_lines);
      return out;
    }
    if (m.size() > 1 && !c.context && !c.end_of_file) {
      out.status = PatchOutcome::Status::ambiguous;
      for (size_t i : m)
        out.lines.push_back(i + 1);
      out.message = "The lines of hunk " + std::to_string(n + 1) + " occur " +
                    std::to_string(m.size()) + " times in " + std::string(shown_path);
      out.needle = joined(c.old_lines);
      return out;
    }
    edits.emplace_back(m.front(), pattern.size(), std::move(added));
    at = m.front() + pattern.size();
  }
  std::stable_sort(edits.begin(), edits.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  std::vector<std::string_view> result;
  size_t pos = 0;
  for (const auto& [first, count, added] : edits) {
    if (first < pos) continue; // overlapping chunks: Codex applies them in order too
    result.insert(result.end(), lines.begin() + static_cast<std::ptrdiff_t>(pos),
                  lines.begin() + static_cast<std::ptrdiff_t>(first));
    result.insert(result.end(), added.begin(), added.end());
    pos = first + count;
  }
  result.insert(result.end(), lines.begin() + static_cast<std::ptrdiff_t>(pos), lines.end());
  std::string text = joined(result); // Codex: the file ends with a line break
  out.text = crlf ? to_crlf(text) : std::move(text);
  return out;
}

} // namespace blockls::apply
