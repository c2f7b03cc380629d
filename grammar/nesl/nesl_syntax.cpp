// Line-level SHAM / NESL syntax, mirroring nesl-js 0.1.12-beta.1 (see nesl_syntax.h).
#include "grammar/nesl/nesl_syntax.h"

#include "grammar/bytes.h"
#include "grammar/unicode.h"

#include <array>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace blockls::nesl {
namespace {

constexpr std::array<EraSyntax, 3> kEras = {{
    {Era::nesl, "#!nesl ", "#!end_", "EOT_", "NESL"},
    {Era::nesl_upper, "#!NESL ", "#!END_NESL_", "EOT_NESL_", "NESL"},
    {Era::sham, "#!SHAM ", "#!END_SHAM_", "EOT_SHAM_", "SHAM"},
}};

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

unsigned hex_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return static_cast<unsigned>(c - 'A' + 10);
}

// Zero-width and control characters nesl-js excludes from keys.
bool is_excluded(char32_t cp) {
  return (cp >= 0x200B && cp <= 0x200D) || cp == 0x2060 || cp == 0xFEFF || cp <= 0x1F ||
         (cp >= 0x7F && cp <= 0x9F);
}

bool key_start_ok(char32_t cp) {
  return cp == '_' || unicode::is_letter(cp);
}
bool key_char_ok(char32_t cp) {
  return cp == '_' || unicode::is_letter(cp) || unicode::is_number(cp);
}

size_t leading_space_bytes(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (!is_ascii_js_space(static_cast<char>(c))) break;
      ++i;
      continue;
    }
    const unicode::Decoded d = unicode::decode(s, i);
    if (!d.valid || !is_js_space(d.codepoint)) break;
    i += d.length;
  }
  return i;
}

bool read_hex4(std::string_view s, size_t pos, unsigned* value) {
  if (pos + 4 > s.size()) return false;
  unsigned v = 0;
  for (size_t k = 0; k < 4; ++k) {
    if (!is_hex(s[pos + k])) return false;
    v = v * 16 + hex_value(s[pos + k]);
  }
  *value = v;
  return true;
}

// Decodes one JSON escape starting at s[i] == '\\'. Returns bytes consumed (0 = invalid).
size_t decode_escape(std::string_view s, size_t i, std::string& out) {
  if (i + 1 >= s.size()) return 0;
  switch (s[i + 1]) {
  case '"':
    out.push_back('"');
    return 2;
  case '\\':
    out.push_back('\\');
    return 2;
  case '/':
    out.push_back('/');
    return 2;
  case 'b':
    out.push_back('\b');
    return 2;
  case 'f':
    out.push_back('\f');
    return 2;
  case 'n':
    out.push_back('\n');
    return 2;
  case 'r':
    out.push_back('\r');
    return 2;
  case 't':
    out.push_back('\t');
    return 2;
  case 'u': {
    unsigned cp = 0;
    if (!read_hex4(s, i + 2, &cp)) return 0;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      unsigned low = 0;
      if (i + 7 < s.size() && s[i + 6] == '\\' && s[i + 7] == 'u' && read_hex4(s, i + 8, &low) &&
          low >= 0xDC00 && low <= 0xDFFF) {
        unicode::append_utf8(out, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
        return 12;
      }
      unicode::append_utf8(out, 0xFFFD); // a lone surrogate has no UTF-8 form
      return 6;
    }
    if (cp >= 0xDC00 && cp <= 0xDFFF) cp = 0xFFFD;
    unicode::append_utf8(out, cp);
    return 6;
  }
  default:
    return 0;
  }
}

// The closing quote of a quoted value starting at s[open] == '"' (nesl-js's scanner), or npos.
// A quote closes the value when the run of backslashes just before it (after the opening
// quote) has even length; quotes are found with find (memchr).
size_t closing_quote(std::string_view s, size_t open) {
  size_t from = open + 1;
  while (from < s.size()) {
    const size_t quote = s.find('"', from);
    if (quote == std::string_view::npos) return quote;
    size_t backslashes = 0;
    while (quote - backslashes > open + 1 && s[quote - backslashes - 1] == '\\')
      ++backslashes;
    if (backslashes % 2 == 0) return quote;
    from = quote + 1;
  }
  return std::string_view::npos;
}

} // namespace

const EraSyntax& era_syntax(Era era) {
  for (const EraSyntax& e : kEras)
    if (e.era == era) return e;
  return kEras[0];
}

const EraSyntax* header_era(std::string_view trimmed) {
  for (const EraSyntax& e : kEras)
    if (starts_with_bytes(trimmed, e.header)) return &e;
  return nullptr;
}

bool is_js_space(char32_t cp) {
  switch (cp) {
  case 0x09:
  case 0x0A:
  case 0x0B:
  case 0x0C:
  case 0x0D:
  case 0x20:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
  case 0xFEFF:
    return true;
  default:
    return cp >= 0x2000 && cp <= 0x200A;
  }
}

std::string_view js_trim_start(std::string_view s) {
  return s.substr(leading_space_bytes(s));
}

// Walks back from the end, one code point at a time, so the cost is the trailing whitespace,
// not the line. UTF-8 is self-synchronising: a valid sequence ending the text decodes the same
// whether it is reached forwards or backwards.
std::string_view js_trim_end(std::string_view s) {
  size_t end = s.size();
  while (end > 0) {
    const unsigned char last = static_cast<unsigned char>(s[end - 1]);
    if (last < 0x80) {
      if (!is_js_space(last)) break;
      --end;
      continue;
    }
    size_t start = end - 1;
    while (start > 0 && end - start < 4 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80)
      --start;
    const unicode::Decoded d = unicode::decode(s, start);
    if (!d.valid || start + d.length != end || !is_js_space(d.codepoint)) break;
    end = start;
  }
  return s.substr(0, end);
}

std::string_view js_trim(std::string_view s) {
  // Most lines start and end with a visible ASCII byte: nothing to trim. (JavaScript
  // whitespace is ASCII <= 0x20 or a multi-byte sequence.)
  const auto visible = [](char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x80;
  };
  if (!s.empty() && visible(s.front()) && visible(s.back())) return s;
  return js_trim_end(js_trim_start(s));
}

HeaderMatch match_header(std::string_view line, const EraSyntax& era) {
  HeaderMatch m;
  if (!starts_with_bytes(line, era.header)) return m;
  size_t i = era.header.size();
  if (i + 2 > line.size() || line[i] != '[' || line[i + 1] != '@') return m;
  i += 2;
  const size_t label_begin = i;
  // Nearly every header has the standard label: taken at once, not byte by byte.
  if (starts_with_bytes(line.substr(i), kStandardLabel)) i += kStandardLabel.size();
  while (i < line.size() && (is_ascii_alnum(line[i]) || line[i] == '-'))
    ++i;
  if (i == label_begin || i + 2 > line.size() || line[i] != ':' || line[i + 1] != ' ') return m;
  const size_t label_end = i;
  i += 2;
  const size_t id_begin = i;
  while (i < line.size() && line[i] != ']')
    ++i;
  if (i == id_begin || i + 1 != line.size()) return m; // `]` must be the last character
  m = {true, label_begin, label_end, id_begin, i};
  return m;
}

std::optional<std::string_view> block_id_error(std::string_view id) {
  const size_t units = unicode::utf16_length(id);
  if (units < 2 || units > 8) return "Block ID must be exactly 3 characters";
  for (char c : id)
    if (!is_ascii_alnum(c)) return "Block ID must contain only alphanumeric characters";
  return std::nullopt;
}

bool is_valid_block_id(std::string_view id) {
  return !block_id_error(id);
}

std::optional<ByteRange> match_end_marker(std::string_view line, const EraSyntax& era) {
  if (!starts_with_bytes(line, era.end_prefix)) return std::nullopt;
  const size_t begin = era.end_prefix.size();
  size_t i = begin;
  while (i < line.size() && is_ascii_alnum(line[i]))
    ++i;
  const size_t n = i - begin;
  if (n < 2 || n > 8) return std::nullopt;
  if (i < line.size() && line[i] == '\'') ++i;
  if (i != line.size()) return std::nullopt;
  return ByteRange{begin, begin + n};
}

std::optional<std::string> key_error(std::string_view key) {
  // Fast path: an ASCII key of [A-Za-z_][A-Za-z0-9_]* (one UTF-16 unit per byte).
  {
    const auto word = [](unsigned char c) {
      return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    };
    bool plain = !key.empty() && word(static_cast<unsigned char>(key[0]));
    for (size_t i = 1; plain && i < key.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(key[i]);
      plain = word(c) || (c >= '0' && c <= '9');
    }
    if (plain) {
      if (key.size() > 256) return std::string("Key exceeds 256 character limit");
      return std::nullopt;
    }
  }
  size_t position = 0; // UTF-16 units
  for (size_t i = 0; i < key.size();) {
    const unicode::Decoded d = unicode::decode(key, i);
    const bool ok = position == 0 ? key_start_ok(d.codepoint) : key_char_ok(d.codepoint);
    if (!ok || is_excluded(d.codepoint) || !d.valid) {
      std::string ch;
      if (d.valid) {
        ch.assign(key.substr(i, d.length));
      } else {
        unicode::append_utf8(ch, 0xFFFD);
      }
      return "Key contains invalid character '" + ch + "' at position " +
             std::to_string(position + 1);
    }
    position += d.codepoint > 0xFFFF ? 2 : 1;
    i += d.length;
  }
  if (position > 256) return std::string("Key exceeds 256 character limit");
  return std::nullopt;
}

std::string repair_key(std::string_view key) {
  std::string out;
  for (size_t i = 0; i < key.size();) {
    const unicode::Decoded d = unicode::decode(key, i);
    const std::string_view bytes = key.substr(i, d.length);
    i += d.length;
    if (!d.valid || (d.codepoint >= 0x200B && d.codepoint <= 0x200D) || d.codepoint == 0x2060 ||
        d.codepoint == 0xFEFF)
      continue; // invisible: the model did not mean it
    if (out.empty() && unicode::is_number(d.codepoint)) out.push_back('_');
    if (key_char_ok(d.codepoint)) {
      out.append(bytes);
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');
    } else if (out.empty()) {
      out.push_back('_');
    }
  }
  while (out.size() > 1 && out.back() == '_' && key.back() != '_')
    out.pop_back();
  if (out.empty() || out == "_" || key_error(out)) return "";
  return out;
}

bool decode_json_string(std::string_view quoted, std::string* out) {
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') return false;
  const std::string_view body = quoted.substr(1, quoted.size() - 2);
  std::string result;
  result.reserve(body.size());
  for (size_t i = 0; i < body.size();) {
    // A run of plain bytes is appended at once.
    size_t run = i;
    while (run < body.size()) {
      const unsigned char c = static_cast<unsigned char>(body[run]);
      if (c < 0x20 || c == '"' || c == '\\') break;
      ++run;
    }
    result.append(body.data() + i, run - i);
    i = run;
    if (i == body.size()) break;
    const unsigned char c = static_cast<unsigned char>(body[i]);
    if (c < 0x20 || c == '"') return false;
    const size_t used = decode_escape(body, i, result);
    if (used == 0) return false;
    i += used;
  }
  *out = std::move(result);
  return true;
}

std::string decode_lenient(std::string_view body) {
  std::string result;
  for (size_t i = 0; i < body.size();) {
    if (body[i] == '\\') {
      const size_t used = decode_escape(body, i, result);
      if (used > 0) {
        i += used;
        continue;
      }
    }
    result.push_back(body[i]);
    ++i;
  }
  return result;
}

std::string json_escape(std::string_view value) {
  std::string out;
  for (char ch : value) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (ch) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      } else {
        out.push_back(ch);
      }
    }
  }
  return out;
}

std::string escape_invalid_json(std::string_view body) {
  std::string out;
  for (size_t i = 0; i < body.size();) {
    const unsigned char c = static_cast<unsigned char>(body[i]);
    if (c == '\\') {
      std::string scratch;
      const size_t used = decode_escape(body, i, scratch);
      if (used > 0) {
        out.append(body.substr(i, used));
        i += used;
      } else {
        out += "\\\\";
        ++i;
      }
      continue;
    }
    if (c < 0x20) {
      out += json_escape(body.substr(i, 1));
    } else {
      out.push_back(body[i]);
    }
    ++i;
  }
  return out;
}

namespace {

bool is_key_start(unsigned char c) {
  return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}
// [A-Za-z0-9_] (this runs on every byte of every key).
bool is_key_char(char c) {
  return c == '_' || is_ascii_alnum(c);
}

// The first byte at or after `j` (before `n`) that a plain quoted body cannot hold as is — a
// quote, a backslash, a control character — or a `:` (a possible `:=`); `n` when there is
// none. Sixteen bytes at a time where SSE2 is available.
size_t quoted_body_stop(const char* s, size_t j, size_t n) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i colon = _mm_set1_epi8(':');
  const __m128i below_space = _mm_set1_epi8(0x1F);
  // The stop bytes among the 16 at `at`, as a bit mask.
  const auto stops = [&](size_t at) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + at));
    // v <= 0x1F (unsigned) exactly when min(v, 0x1F) == v.
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
        _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(_mm_min_epu8(v, below_space), v)));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
  };
  for (; j + 16 <= n; j += 16)
    if (const unsigned mask = stops(j); mask != 0)
      return j + static_cast<size_t>(__builtin_ctz(mask));
  if (j < n && n >= 16) {
    // The tail: the last 16 bytes of the line (all inside it), less those before `j`.
    const unsigned mask = stops(n - 16) >> (j - (n - 16));
    return mask != 0 ? j + static_cast<size_t>(__builtin_ctz(mask)) : n;
  }
#endif
  for (; j < n; ++j) {
    const unsigned char c = static_cast<unsigned char>(s[j]);
    if (c == '"' || c == '\\' || c == ':' || c < 0x20) return j;
  }
  return n;
}

// The end of the run of key characters ([A-Za-z0-9_]) that starts `s` (n bytes). The first
// 16 bytes are classified at once where the line has them: key lengths vary from line to
// line, so a byte loop's exit would be mispredicted on most lines.
size_t key_run_end(const char* s, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  if (n >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    // Signed compares: bytes >= 0x80 are negative, so in no range.
    const __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                        _mm_cmpgt_epi8(_mm_set1_epi8('z' + 1), lower));
    const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                        _mm_cmpgt_epi8(_mm_set1_epi8('9' + 1), v));
    const __m128i word =
        _mm_or_si128(_mm_or_si128(alpha, digit), _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    const unsigned others = ~static_cast<unsigned>(_mm_movemask_epi8(word)) & 0xFFFFu;
    if (others != 0) return static_cast<size_t>(__builtin_ctz(others));
    i = 16;
  }
#endif
  while (i < n && is_key_char(s[i]))
    ++i;
  return i;
}

} // namespace

// The common shapes in one walk over the line: `key = "body"` (no escape or control character
// in the body) and `key = <<'DELIM'`, with an ASCII word key at column 0, ASCII blanks around
// the value and no `:=` anywhere. parse_assignment() finds exactly these values for them;
// false leaves the line to its general rules.
bool match_plain_assignment(std::string_view line, PlainAssignment* out) {
  const size_t n = line.size();
  const char* s = line.data();
  if (n == 0 || !is_key_start(static_cast<unsigned char>(s[0]))) return false;
  size_t i = key_run_end(s, n);
  const size_t key_end = i;
  if (key_end > 256) return false;
  while (i < n && (s[i] == ' ' || s[i] == '\t'))
    ++i;
  if (i >= n || s[i] != '=') return false;
  const size_t eq = i++;
  if (i < n && s[i] == '>') return false;
  while (i < n && is_ascii_js_space(s[i]))
    ++i;
  if (i >= n) return false;
  const size_t value_begin = i;
  size_t close = 0;
  bool heredoc = false;
  if (s[i] == '"') {
    // Blanks lie between '=' and the value and only blanks may follow it: a `:=` (which the
    // general rules report) can only be inside the body, so the body scan watches for it.
    size_t j = i + 1;
    while (true) {
      j = quoted_body_stop(s, j, n);
      if (j >= n) return false;
      if (s[j] == '"') break;
      if (s[j] != ':') return false; // an escape or a control character
      if (j + 1 < n && s[j + 1] == '=') return false;
      ++j;
    }
    close = j;
  } else if (s[i] == '<') {
    if (i + 2 >= n || s[i + 1] != '<' || s[i + 2] != '\'') return false;
    // The delimiter, up to its closing quote, in one walk that watches for a `:=` (only blanks
    // lie before `<<'`, and only blanks may follow the quote: a `:` there fails below). A
    // delimiter is a few bytes: a loop costs less than memchr calls.
    close = i + 3;
    while (close < n && s[close] != '\'') {
      if (s[close] == ':' && close + 1 < n && s[close + 1] == '=') return false;
      ++close;
    }
    if (close >= n || close == i + 3) return false;
    heredoc = true;
  } else {
    return false;
  }
  for (size_t k = close + 1; k < n; ++k)
    if (!is_ascii_js_space(s[k])) return false;
  out->heredoc = heredoc;
  out->eq = eq;
  out->key_end = key_end;
  if (heredoc) {
    out->value_begin = value_begin + 3;
    out->value_end = close;
  } else {
    out->value_begin = value_begin;
    out->value_end = close + 1;
  }
  return true;
}

namespace {

// parse_assignment()'s fast path: match_plain_assignment() into an Assignment.
bool parse_plain_assignment(std::string_view line, bool decode, Assignment* a) {
  PlainAssignment m;
  if (!match_plain_assignment(line, &m)) return false;
  a->kind = m.heredoc ? Assignment::Kind::heredoc : Assignment::Kind::quoted;
  a->eq = m.eq;
  a->key_begin = 0;
  a->key_end = m.key_end;
  a->key_plain = true;
  a->value_begin = m.value_begin;
  a->value_end = m.value_end;
  if (m.heredoc) return true;
  a->value_plain = true;
  if (decode) a->value.assign(line.data() + m.value_begin + 1, m.value_end - m.value_begin - 2);
  return true;
}

} // namespace

Assignment parse_assignment(std::string_view line, bool strict_colon_equals, bool decode) {
  Assignment a;
  if (parse_plain_assignment(line, decode, &a)) return a;
  constexpr size_t npos = std::string_view::npos;
  const size_t arrow = line.find("=>");
  const size_t eq = line.find('=');
  if (arrow != npos && (eq == npos || eq == arrow)) {
    a.code = "INVALID_VALUE";
    a.err_begin = arrow;
    a.err_end = arrow + 2;
    return a;
  }
  // `:=` — nesl-js reports it anywhere in the line; we skip one inside a quoted value.
  {
    size_t open = npos, close = npos;
    if (!strict_colon_equals && eq != npos) {
      const size_t v = eq + 1 + leading_space_bytes(line.substr(eq + 1));
      if (v < line.size() && line[v] == '"') {
        open = v;
        close = closing_quote(line, v);
      }
    }
    for (size_t c = line.find(":="); c != npos; c = line.find(":=", c + 1)) {
      if (open != npos && close != npos && c > open && c + 1 < close) continue;
      a.code = "INVALID_OPERATOR";
      a.err_begin = c;
      a.err_end = c + 2;
      return a;
    }
  }
  if (eq == npos) {
    a.code = "MALFORMED_ASSIGNMENT";
    a.err_begin = 0;
    a.err_end = line.size();
    return a;
  }
  a.eq = eq;
  const std::string_view before = line.substr(0, eq);
  const size_t lead = leading_space_bytes(before);
  const std::string_view key = js_trim(before);
  if (key.empty()) {
    a.code = "EMPTY_KEY";
    a.err_begin = eq;
    a.err_end = eq + 1;
    return a;
  }
  a.key_begin = lead;
  a.key_end = lead + key.size();
  const std::string_view after = line.substr(eq + 1);
  const size_t value_lead = leading_space_bytes(after);
  const std::string_view value = js_trim(after);
  const size_t value_begin = eq + 1 + value_lead;
  if (value.empty()) {
    a.code = "INVALID_VALUE";
    a.err_begin = line.size();
    a.err_end = line.size() + 1;
    return a;
  }
  if (value.front() == '"') {
    const size_t close = closing_quote(line, value_begin);
    const size_t value_end = value_begin + value.size();
    if (close == npos || close >= value_end) {
      a.code = "UNCLOSED_QUOTE";
      a.err_begin = value_begin;
      a.err_end = line.size();
      return a;
    }
    a.value_begin = value_begin;
    a.value_end = close + 1;
    if (!decode_json_string(line.substr(value_begin, close + 1 - value_begin), &a.value)) {
      a.code = "INVALID_VALUE";
      a.err_begin = value_begin;
      a.err_end = close + 1;
      return a;
    }
    if (close + 1 < value_end) {
      const size_t trailing = close + 1 + leading_space_bytes(line.substr(close + 1));
      a.code = "TRAILING_CONTENT";
      a.err_begin = trailing;
      a.err_end = line.size();
      a.value_decoded = true;
      return a;
    }
    a.kind = Assignment::Kind::quoted;
    return a;
  }
  // `^<<'([^']+)'$`
  if (value.size() >= 5 && value.starts_with("<<'") && value.back() == '\'' &&
      value.substr(3, value.size() - 4).find('\'') == npos) {
    a.kind = Assignment::Kind::heredoc;
    a.value_begin = value_begin + 3;
    a.value_end = value_begin + value.size() - 1;
    return a;
  }
  a.code = "INVALID_VALUE";
  a.err_begin = value_begin;
  a.err_end = value_begin + value.size();
  return a;
}

} // namespace blockls::nesl
