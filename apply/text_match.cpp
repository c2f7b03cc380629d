// Matching rules. The closest-region search works on lines: the old text's lines are slid
// over the file's lines and compared under ever looser normalisations, and last by the
// similarity of character bigrams (cheap enough for large files).
#include "apply/text_match.h"

#include "grammar/unicode.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>

namespace blockls::apply {
namespace {

std::string_view rstrip(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string_view strip(std::string_view s) {
  s = rstrip(s);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  return s;
}

// The characters of `s` as code points; an invalid byte becomes a value no code point has
// (0x110000 + the byte), so two different invalid bytes still differ.
std::vector<uint32_t> characters(std::string_view s) {
  std::vector<uint32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unicode::Decoded d = unicode::decode(s, i);
    out.push_back(d.valid ? static_cast<uint32_t>(d.codepoint)
                          : 0x110000u + static_cast<unsigned char>(s[i]));
    i += d.length;
  }
  return out;
}

// The sorted bigrams of `s`'s characters, not its bytes: a changed accented letter then
// weighs what a changed ASCII letter does (two bigrams, not three or four).
std::vector<uint64_t> bigrams(std::string_view s) {
  const std::vector<uint32_t> chars = characters(s);
  std::vector<uint64_t> out;
  for (size_t i = 0; i + 1 < chars.size(); ++i)
    out.push_back(static_cast<uint64_t>(chars[i]) << 32 | chars[i + 1]);
  std::sort(out.begin(), out.end());
  return out;
}

// Dice coefficient of two sorted bigram multisets (two empty lines are identical).
double dice(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, std::string_view sa,
            std::string_view sb) {
  if (a.empty() || b.empty()) return sa == sb ? 1.0 : 0.0;
  size_t i = 0, j = 0, common = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) {
      ++common;
      ++i;
      ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return 2.0 * static_cast<double>(common) / static_cast<double>(a.size() + b.size());
}

} // namespace

std::vector<TextLine> split_text_lines(std::string_view text) {
  std::vector<TextLine> lines;
  size_t pos = 0;
  while (true) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      lines.push_back({pos, text.size(), text.size()});
      break;
    }
    const size_t end = nl > pos && text[nl - 1] == '\r' ? nl - 1 : nl;
    lines.push_back({pos, end, nl + 1});
    pos = nl + 1;
  }
  return lines;
}

bool uses_crlf(std::string_view content) {
  bool crlf = false;
  for (size_t i = 0; i < content.size(); ++i) {
    if (content[i] != '\n') continue;
    if (i == 0 || content[i - 1] != '\r') return false;
    crlf = true;
  }
  return crlf;
}

std::string to_crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) out += '\r';
    out += text[i];
  }
  return out;
}

std::string to_lf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i)
    if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) out += text[i];
  return out;
}

bool uses_crlf(const FileContent& content) {
  return content.crlf_breaks() > 0 && content.crlf_breaks() == content.line_breaks();
}

namespace {
// Exact occurrences of `needle` (found by `scan`), else, when the content has CRLF line breaks
// (`has_crlf`), of the needle with its LFs written as CRLF.
template <class Scan>
Occurrences occurrences_with(std::string_view needle, bool has_crlf, const Scan& scan) {
  Occurrences occ;
  if (needle.empty()) return occ;
  occ.offsets = scan(needle);
  occ.length = needle.size();
  if (occ.offsets.empty() && has_crlf && needle.find('\n') != std::string_view::npos) {
    const std::string converted = to_crlf(needle);
    if (converted != needle) {
      occ.offsets = scan(converted);
      occ.crlf_converted = !occ.offsets.empty();
      if (occ.crlf_converted) occ.length = converted.size();
    }
  }
  return occ;
}
} // namespace

Occurrences find_occurrences(std::string_view content, std::string_view needle, size_t from) {
  return occurrences_with(needle, content.find("\r\n") != std::string_view::npos,
                          [&](std::string_view n) {
                            std::vector<size_t> out;
                            for (size_t pos = content.find(n, from); pos != std::string_view::npos;
                                 pos = content.find(n, pos + n.size()))
                              out.push_back(pos);
                            return out;
                          });
}

Occurrences find_occurrences(const FileContent& content, std::string_view needle, size_t from) {
  return occurrences_with(needle, content.crlf_breaks() > 0,
                          [&](std::string_view n) { return content.find_all(n, from); });
}

std::vector<uint32_t> line_numbers(std::string_view content, const std::vector<size_t>& offsets) {
  std::vector<uint32_t> out;
  uint32_t line = 1;
  size_t pos = 0;
  for (size_t off : offsets) {
    line += static_cast<uint32_t>(std::count(content.begin() + static_cast<long>(pos),
                                             content.begin() + static_cast<long>(off), '\n'));
    pos = off;
    out.push_back(line);
  }
  return out;
}

std::optional<ClosestRegion> closest_region(std::string_view content, std::string_view needle,
                                            const ClosestRegionLimits& limits) {
  if (needle.empty() || content.empty() || content.size() > limits.max_content_bytes)
    return std::nullopt;
  const std::vector<TextLine> file = split_text_lines(content);
  std::string_view body = needle;
  const bool trailing_newline = body.ends_with('\n');
  if (trailing_newline) body.remove_suffix(1);
  std::vector<std::string_view> want;
  for (const TextLine& l : split_text_lines(body))
    want.push_back(body.substr(l.begin, l.end - l.begin));
  const size_t k = want.size();
  if (k == 0 || k > file.size()) return std::nullopt;
  const auto file_line = [&](size_t i) {
    return content.substr(file[i].begin, file[i].end - file[i].begin);
  };

  const auto region_at = [&](size_t i, std::string how) {
    ClosestRegion r;
    r.begin = file[i].begin;
    r.end = trailing_newline ? file[i + k - 1].next : file[i + k - 1].end;
    r.text = to_lf(content.substr(r.begin, r.end - r.begin));
    r.first_line = static_cast<uint32_t>(i + 1);
    r.last_line = static_cast<uint32_t>(i + k);
    r.how = std::move(how);
    return r;
  };

  using Norm = std::function<std::string_view(std::string_view)>;
  const std::pair<const char*, Norm> tiers[] = {
      {"line endings", [](std::string_view s) { return s; }},
      {"trailing whitespace", rstrip},
      {"indentation", strip},
  };
  for (const auto& [how, norm] : tiers) {
    std::vector<size_t> hits;
    for (size_t i = 0; i + k <= file.size(); ++i) {
      bool all = true;
      for (size_t j = 0; j < k && all; ++j)
        all = norm(file_line(i + j)) == norm(want[j]);
      if (all) hits.push_back(i);
    }
    if (hits.size() == 1) return region_at(hits[0], how);
    if (hits.size() > 1) return std::nullopt; // ambiguous even when loosened: no single answer
  }

  // Fuzzy: mean bigram similarity of the window's lines (indentation ignored). Each window
  // compares k pairs of lines: past the budget, no hint.
  const size_t windows = file.size() - k + 1;
  if (windows > limits.max_fuzzy_pairs / k) return std::nullopt;
  // A line past the length limit gets no bigrams (dice() then only tells equal lines): its
  // sorted bigrams would take 8 bytes and a sort step per character.
  const auto grams_of = [&](std::string_view line) {
    line = strip(line);
    return line.size() > limits.max_fuzzy_line_bytes ? std::vector<uint64_t>{} : bigrams(line);
  };
  std::vector<std::vector<uint64_t>> want_grams;
  for (std::string_view w : want)
    want_grams.push_back(grams_of(w));
  // The bigrams of the window's k file lines, line i at slot i % k: a window slides by one
  // line, so each file line's bigrams are made once and memory stays the window's.
  std::vector<std::vector<uint64_t>> file_grams(k);
  for (size_t i = 0; i + 1 < k; ++i)
    file_grams[i] = grams_of(file_line(i));
  double best = 0, second = 0;
  size_t best_at = 0;
  for (size_t i = 0; i + k <= file.size(); ++i) {
    file_grams[(i + k - 1) % k] = grams_of(file_line(i + k - 1));
    double sum = 0;
    for (size_t j = 0; j < k; ++j)
      sum += dice(file_grams[(i + j) % k], want_grams[j], strip(file_line(i + j)), strip(want[j]));
    const double score = sum / static_cast<double>(k);
    if (score > best) {
      second = best;
      best = score;
      best_at = i;
    } else if (score > second) {
      second = score;
    }
  }
  if (best < 0.6 || std::abs(best - second) < 1e-9) return std::nullopt;
  return region_at(best_at,
                   fmt::format("fuzzy, {}% similar", static_cast<int>(std::lround(best * 100))));
}

} // namespace blockls::apply
