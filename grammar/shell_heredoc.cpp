// Shell heredoc lexing shared by the heredoc and sections dialects (see shell_heredoc.h).
#include "grammar/shell_heredoc.h"

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace blockls::shell {
namespace {

bool is_quote(char c) {
  return c == '"' || c == '\'';
}

// The bytes that end a bare word besides blanks and quotes (redirections, pipes, lists).
constexpr std::string_view kWordStops = "<>|;&";

// A set of bytes as 256 bits: a word's scan tests each byte with a shift instead of a call to
// string_view::find (a memchr per byte, most of the time of lexing a start line's path).
struct ByteSet {
  uint64_t bits[4] = {};
  constexpr explicit ByteSet(std::string_view bytes) {
    for (const char c : bytes)
      add(c);
  }
  constexpr void add(char c) {
    const auto u = static_cast<unsigned char>(c);
    bits[u >> 6] |= uint64_t{1} << (u & 63);
  }
  constexpr bool contains(char c) const {
    const auto u = static_cast<unsigned char>(c);
    return ((bits[u >> 6] >> (u & 63)) & 1) != 0;
  }
};

constexpr ByteSet kWordStopSet(kWordStops);

// The end of the bare word at `j`: the first blank, quote or byte of `stop` from `j` on (or the
// end of `s`). Sixteen bytes at a time where SSE2 is available: start lines' paths are long.
size_t bare_word_end(std::string_view s, size_t j, std::string_view stop) {
#if defined(__SSE2__)
  while (j + 16 <= s.size()) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + j));
    __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))));
    for (const char c : stop)
      hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return j + static_cast<size_t>(__builtin_ctz(mask));
    j += 16;
  }
#endif
  ByteSet ends(stop);
  for (const char c : {' ', '\t', '"', '\''})
    ends.add(c);
  while (j < s.size() && !ends.contains(s[j]))
    ++j;
  return j;
}

} // namespace

std::string_view trim_blanks(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_blank(s[b]))
    ++b;
  while (e > b && is_blank(s[e - 1]))
    --e;
  return s.substr(b, e - b);
}

bool lex_word(std::string_view s, size_t* i, std::string_view stop, size_t* begin, size_t* end,
              bool* quoted) {
  if (*i >= s.size()) return false;
  const char q = s[*i];
  if (is_quote(q)) {
    const size_t close = s.find(q, *i + 1);
    if (close == std::string_view::npos || close == *i + 1) return false;
    *begin = *i + 1;
    *end = close;
    *i = close + 1;
    *quoted = true;
    return true;
  }
  const size_t j = bare_word_end(s, *i, stop);
  if (j == *i) return false;
  *begin = *i;
  *end = j;
  *i = j;
  *quoted = false;
  return true;
}

std::optional<Operator> lex_operator(std::string_view line, size_t i) {
  Operator op;
  op.begin = i;
  i += 2;
  if (i < line.size() && line[i] == '-') {
    op.dash = true;
    ++i;
  }
  i = skip_blanks(line, i);
  if (i < line.size() && is_quote(line[i])) op.quote = line[i];
  if (!lex_word(line, &i, kWordStops, &op.mark_begin, &op.mark_end, &op.quoted))
    return std::nullopt;
  op.end = i;
  return op;
}

bool may_end_with_operator(const char* p, size_t n) {
  while (n > 0 && (is_blank(p[n - 1]) || p[n - 1] == '\r'))
    --n;
  if (n == 0) return false;
  if (is_quote(p[n - 1])) { // a quoted marker: back to its opening quote
    const char q = p[--n];
    while (n > 0 && p[n - 1] != q)
      --n;
    if (n == 0) return false;
    --n;
  } else { // a bare marker: back over the word
    const size_t last = n;
    while (n > 0 && !is_blank(p[n - 1]) && !is_quote(p[n - 1]) && !kWordStopSet.contains(p[n - 1]))
      --n;
    if (n == last) return false;
  }
  while (n > 0 && is_blank(p[n - 1]))
    --n;
  if (n > 0 && p[n - 1] == '-') --n;
  return n >= 2 && p[n - 1] == '<' && p[n - 2] == '<';
}

Terminator terminator(std::string_view line, std::string_view mark) {
  if (line == mark) return Terminator::exact;
  return trim_blanks(line) == mark ? Terminator::indented : Terminator::none;
}

std::string body_content(std::string_view text, size_t begin, size_t end) {
  std::string out;
  const std::string_view body = text.substr(begin, end - begin);
  if (body.find('\r') == std::string_view::npos) { // the usual case: LF only, one copy
    out.reserve(body.size() + 1);
    out.append(body);
    out += '\n';
    return out;
  }
  out.reserve(end - begin + 1);
  size_t pos = begin;
  while (pos <= end) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos || nl > end) nl = end;
    size_t line_end = nl;
    if (line_end > pos && text[line_end - 1] == '\r' && nl < end) --line_end;
    out.append(text.substr(pos, line_end - pos));
    out += '\n';
    if (nl >= end) break;
    pos = nl + 1;
  }
  return out;
}

TextEdit close_heredoc_edit(std::string_view text, size_t fence_close_begin,
                            std::optional<uint32_t> fence_close_line, std::string_view mark,
                            bool crlf, std::string* where) {
  const std::string nl = crlf ? "\r\n" : "\n";
  const std::string line(mark);
  if (fence_close_begin != std::string_view::npos && fence_close_line) {
    *where = "before the closing Markdown fence at line " + std::to_string(*fence_close_line + 1);
    return {{fence_close_begin, fence_close_begin}, line + nl};
  }
  *where = "at the end";
  if (!text.empty() && text.back() == '\n') return {{text.size(), text.size()}, line + nl};
  return {{text.size(), text.size()}, nl + line};
}

} // namespace blockls::shell
