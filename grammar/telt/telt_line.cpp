// TELT line shapes, matched byte by byte (no regex: this runs on every line of a transcript).
#include "grammar/telt/telt_line.h"

#include "grammar/bytes.h"

#include <array>
#include <cstring>

namespace blockls::telt {
namespace {

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_space(char c) {
  return c == ' ' || c == '\t';
}
char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

size_t skip_spaces(std::string_view s, size_t i) {
  while (i < s.size() && is_space(s[i]))
    ++i;
  return i;
}

size_t trim_end(std::string_view s, size_t begin, size_t end) {
  while (end > begin && is_space(s[end - 1]))
    --end;
  return end;
}

constexpr std::string_view kStartPrefix = "#!telt [3-char SHA: ";

} // namespace

bool is_valid_hash(std::string_view hash) {
  return hash.size() == 3 && is_ascii_alnum(hash[0]) && is_ascii_alnum(hash[1]) &&
         is_ascii_alnum(hash[2]);
}

bool is_valid_name(std::string_view name) {
  if (name.empty() || name[0] < 'A' || name[0] > 'Z') return false;
  // A table lookup per byte (this runs on every delimiter and command line).
  static constexpr auto kNameChar = [] {
    std::array<bool, 256> t{};
    for (int c = 'A'; c <= 'Z'; ++c)
      t[c] = true;
    for (int c = '0'; c <= '9'; ++c)
      t[c] = true;
    t['_'] = true;
    return t;
  }();
  const size_t n = name.size();
  if (n > 16) {
    for (char c : name)
      if (!kNameChar[static_cast<unsigned char>(c)]) return false;
    return true;
  }
  // Names are short and of every length: a loop that stops at the name's end mispredicts its
  // exit. Sixteen lookups without a branch instead; past the end, the first byte (a letter)
  // is looked up again.
  bool ok = true;
  for (size_t i = 0; i < 16; ++i)
    ok &= kNameChar[static_cast<unsigned char>(name[i < n ? i : 0])];
  return ok;
}

bool is_blank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

size_t syntax_end(std::string_view line) {
  size_t end = line.size();
  // The first `//` (at index 1 or later) with a blank before it; slashes are found with memchr.
  if (line.size() >= 3) {
    const char* data = line.data();
    const char* last = data + line.size() - 1; // a `/` here has no second `/` after it
    for (const char* p = static_cast<const char*>(std::memchr(data + 1, '/', line.size() - 2));
         p != nullptr; p = p + 1 < last ? static_cast<const char*>(std::memchr(
                                              p + 1, '/', static_cast<size_t>(last - (p + 1))))
                                        : nullptr) {
      if (p[1] == '/' && is_space(p[-1])) {
        end = static_cast<size_t>(p - data);
        break;
      }
    }
  }
  while (end > 0 && (is_space(line[end - 1]) || line[end - 1] == '\r'))
    --end;
  return end;
}

namespace {

// Where `telt`, in any case, ends after the `#!` that `line` begins with and any blanks, or
// npos when it is not there: what every start line, canonical or near miss, has. Tested on the
// whole line first, so that the other directives (`#!nesl [...]`, `#!end_k7m`, ...) fail before
// the line's comment is looked for; then on the line without its comment (the near misses).
size_t telt_word_end(std::string_view line) {
  const size_t i = skip_spaces(line, 2);
  if (line.size() - i < 4 || lower(line[i]) != 't' || lower(line[i + 1]) != 'e' ||
      lower(line[i + 2]) != 'l' || lower(line[i + 3]) != 't')
    return std::string_view::npos;
  return i + 4;
}

} // namespace

std::optional<StartLine> parse_start(std::string_view line) {
  if (line.size() < 2 || line[0] != '#' || line[1] != '!') return std::nullopt;
  if (telt_word_end(line) == std::string_view::npos) return std::nullopt;
  StartLine start;
  start.body_end = syntax_end(line);
  const std::string_view body = line.substr(0, start.body_end);

  // The canonical shape, with any hash that has no blanks or brackets in it.
  if (body.starts_with(kStartPrefix) && body.ends_with(']')) {
    const size_t begin = kStartPrefix.size();
    const size_t end = body.size() - 1;
    bool plain = true;
    for (size_t i = begin; i < end; ++i)
      if (is_space(body[i]) || body[i] == '[' || body[i] == ']') plain = false;
    if (plain) {
      start.hash_begin = begin;
      start.hash_end = end;
      start.form = is_valid_hash(body.substr(begin, end - begin)) ? StartForm::canonical
                                                                  : StartForm::bad_hash;
      return start;
    }
  }

  // Near misses: `#!`, blanks, `telt` in any case, then the end, a blank, `[` or `:`.
  size_t i = telt_word_end(body);
  if (i == std::string_view::npos) return std::nullopt;
  if (i < body.size() && !is_space(body[i]) && body[i] != '[' && body[i] != ':')
    return std::nullopt;
  start.form = StartForm::near_miss;

  // The hash: inside `[...]` when present, after the last `:`, the last blank-separated word.
  size_t begin = skip_spaces(body, i);
  size_t end = body.size();
  if (begin < end && body[begin] == '[') {
    ++begin;
    const size_t close = body.find(']', begin);
    if (close != std::string_view::npos) end = close;
  }
  const size_t colon = body.substr(0, end).rfind(':');
  if (colon != std::string_view::npos && colon >= begin) begin = colon + 1;
  begin = skip_spaces(body, begin);
  end = trim_end(body, begin, end);
  for (size_t j = end; j > begin; --j) {
    if (is_space(body[j - 1])) {
      begin = j;
      break;
    }
  }
  bool usable = begin < end;
  for (size_t j = begin; j < end; ++j)
    if (body[j] == '[' || body[j] == ']') usable = false;
  if (usable) {
    start.hash_begin = begin;
    start.hash_end = end;
  } else {
    start.hash_begin = start.hash_end = start.body_end;
  }
  return start;
}

std::optional<CommandLine> parse_command(std::string_view line) {
  if (!line.starts_with("=== ")) return std::nullopt;
  const std::string_view body = line.substr(0, syntax_end(line));
  if (body.size() < 9 || !body.ends_with(" ===")) return std::nullopt;
  const std::string_view name = body.substr(4, body.size() - 8);
  if (!is_valid_name(name)) return std::nullopt;
  return CommandLine{4, body.size() - 4};
}

std::optional<DelimiterLine> parse_delimiter(std::string_view line) {
  const size_t indent = skip_spaces(line, 0);
  if (indent + 1 >= line.size() || line[indent] != '-' || line[indent + 1] != '-')
    return std::nullopt;
  const size_t body_end = syntax_end(line);
  if (body_end < indent + 7) return std::nullopt; // `--A b--`
  const std::string_view body = line.substr(0, body_end);
  if (!body.ends_with("--")) return std::nullopt;
  const size_t inner_begin = indent + 2;
  const size_t inner_end = body_end - 2;
  const size_t space = body.find(' ', inner_begin);
  if (space == std::string_view::npos || space >= inner_end) return std::nullopt;
  if (!is_valid_name(body.substr(inner_begin, space - inner_begin))) return std::nullopt;
  if (space + 1 >= inner_end) return std::nullopt;
  for (size_t i = space + 1; i < inner_end; ++i)
    if (is_space(body[i])) return std::nullopt;
  return DelimiterLine{indent, inner_begin, space, space + 1, inner_end, body_end};
}

std::optional<DelimiterLine> match_exact_delimiter(std::string_view line, std::string_view hash) {
  const size_t n = line.size();
  const size_t h = hash.size();
  if (h == 0 || n < h + 6) return std::nullopt; // `--` NAME ` ` HASH `--`, NAME >= 1 byte
  if (line[0] != '-' || line[1] != '-' || line[n - 1] != '-' || line[n - 2] != '-')
    return std::nullopt;
  const size_t space = n - 3 - h;
  // (Views built directly, not by substr(): the offsets are in range, and substr()'s range
  // check makes it an out-of-line call here.)
  const char* s = line.data();
  if (line[space] != ' ' || !same_bytes(std::string_view(s + space + 1, h), hash))
    return std::nullopt;
  for (char c : hash)
    if (!is_ascii_alnum(c)) return std::nullopt;
  // A valid name has no blank, so `space` is the first one after `--`; the hash has no `/`,
  // so there is no comment, and the line ends with `-`: syntax_end() is the line's end.
  if (!is_valid_name(std::string_view(s + 2, space - 2))) return std::nullopt;
  return DelimiterLine{0, 2, space, space + 1, n - 2, n};
}

std::optional<DelimiterLine> parse_near_miss(std::string_view line, std::string_view hash) {
  // A near miss carries the hash: a line without it is none (a cheap first test).
  if (hash.empty() || line.find(hash) == std::string_view::npos) return std::nullopt;
  DelimiterLine d;
  d.indent = skip_spaces(line, 0);
  if (d.indent >= line.size() || line[d.indent] != '-') return std::nullopt;
  d.body_end = syntax_end(line);
  const std::string_view body = line.substr(0, d.body_end);
  size_t i = d.indent;
  while (i < body.size() && body[i] == '-')
    ++i;
  const size_t leading = i - d.indent;
  i = skip_spaces(body, i);
  if (i >= body.size() || !is_ascii_letter(body[i])) return std::nullopt;
  d.name_begin = i;
  while (i < body.size() && (is_ascii_alnum(body[i]) || body[i] == '_'))
    ++i;
  d.name_end = i;
  while (i < body.size() && (is_space(body[i]) || body[i] == ':'))
    ++i;
  if (i == d.name_end || !body.substr(i).starts_with(hash)) return std::nullopt;
  d.hash_begin = i;
  d.hash_end = i + hash.size();
  i = skip_spaces(body, d.hash_end);
  const size_t dashes_begin = i;
  while (i < body.size() && body[i] == '-')
    ++i;
  if (i != body.size()) return std::nullopt;
  if (leading < 2 && i == dashes_begin) return std::nullopt;
  return d;
}

std::string canonical_start(std::string_view hash) {
  std::string out(kStartPrefix);
  out.append(hash);
  out.push_back(']');
  return out;
}

std::string canonical_delimiter(std::string_view name, std::string_view hash) {
  std::string out = "--";
  out.append(name);
  out.push_back(' ');
  out.append(hash);
  out.append("--");
  return out;
}

std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

} // namespace blockls::telt
