// Sections start and delimiter lines (see sections_line.h).
#include "grammar/sections/sections_line.h"

#include "grammar/shell_heredoc.h"

namespace blockls::sections {
namespace {

using shell::is_blank;
using shell::skip_blanks;

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_program_byte(char c) {
  return is_upper(c) || is_lower(c) || is_digit(c) || c == '_' || c == '.' || c == '/' || c == '-';
}

// `cat` in any case: the heredoc dialect's command (file creation), never command input.
bool is_cat(std::string_view word) {
  return word.size() == 3 && (word[0] | 0x20) == 'c' && (word[1] | 0x20) == 'a' &&
         (word[2] | 0x20) == 't';
}

// A subcommand word: lower-case letters, digits, `-` and `_`, starting with a letter.
bool is_subcommand(std::string_view word) {
  if (word.empty() || !is_lower(word[0])) return false;
  for (const char c : word)
    if (!(is_lower(c) || is_digit(c) || c == '-' || c == '_')) return false;
  return true;
}

// The end of a placeholder `<name>` at `i` (no blank or `<` inside), or 0 when there is none.
size_t placeholder_end(std::string_view line, size_t i) {
  size_t j = i + 1;
  while (j < line.size() && !is_blank(line[j]) && line[j] != '<' && line[j] != '>')
    ++j;
  return j > i + 1 && j < line.size() && line[j] == '>' ? j + 1 : 0;
}

} // namespace

bool may_begin_command(char c) {
  return is_lower(c) || c == '_' || c == '.' || c == '/';
}

std::optional<StartLine> parse_start(std::string_view line) {
  StartLine start;
  size_t i = start.indent = skip_blanks(line, 0);
  if (i >= line.size() || !may_begin_command(line[i])) return std::nullopt;
  size_t j = i;
  while (j < line.size() && is_program_byte(line[j]))
    ++j;
  if (j < line.size() && !is_blank(line[j])) return std::nullopt; // `Note:`, `x<<y`, …
  if (is_cat(line.substr(i, j - i))) return std::nullopt;
  start.name_begin = i;
  start.name_end = j;
  bool first_arg = true;
  for (i = j;;) {
    i = skip_blanks(line, i);
    if (i >= line.size()) return std::nullopt; // no heredoc operator
    if (line[i] == '<' && i + 1 < line.size() && line[i + 1] == '<') {
      const std::optional<shell::Operator> op = shell::lex_operator(line, i);
      if (!op || skip_blanks(line, op->end) != line.size()) return std::nullopt;
      start.mark_begin = op->mark_begin;
      start.mark_end = op->mark_end;
      return start;
    }
    const char c = line[i];
    if (c == '<') { // a placeholder `<chatroomId>` (the seed's examples), else a redirection
      const size_t close = placeholder_end(line, i);
      if (close == 0) return std::nullopt;
      i = close;
      first_arg = false;
      continue;
    }
    if (c == '>' || c == '|' || c == ';' || c == '&' || c == '`') return std::nullopt;
    size_t begin = 0, end = 0;
    bool quoted = false;
    if (!shell::lex_word(line, &i, "<>|;&`", &begin, &end, &quoted)) return std::nullopt;
    // `key = <<'EOT'`: a NESL / SHAM assignment (of a block whose header is broken), not a
    // command.
    if (!quoted && end == begin + 1 && line[begin] == '=') return std::nullopt;
    if (first_arg && !quoted && is_subcommand(line.substr(begin, end - begin)))
      start.name_end = end;
    first_arg = false;
  }
}

std::optional<Delimiter> parse_delimiter(std::string_view line) {
  Delimiter d;
  d.begin = skip_blanks(line, 0);
  d.end = line.size();
  while (d.end > d.begin && is_blank(line[d.end - 1]))
    --d.end;
  const std::string_view t = line.substr(d.begin, d.end - d.begin);
  if (t.size() < 7 || !t.starts_with("---") || !t.ends_with("---")) return std::nullopt;
  size_t i = 3;
  if (t[i] == '(') {
    if (t.substr(i + 1, 5) != "UUID:") return std::nullopt;
    i += 6;
    const size_t hex = i;
    while (i < t.size() && is_hex(t[i]))
      ++i;
    if (i == hex || i >= t.size() || t[i] != ')') return std::nullopt;
    d.uuid_begin = d.begin + hex;
    d.uuid_end = d.begin + i;
    ++i;
  }
  const size_t name = i, name_end = t.size() - 3;
  if (name >= name_end || !is_upper(t[name])) return std::nullopt;
  for (size_t k = name; k < name_end; ++k)
    if (!is_upper(t[k]) && t[k] != '_') return std::nullopt;
  d.name_begin = d.begin + name;
  d.name_end = d.begin + name_end;
  return d;
}

std::string camel_key(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool upper_next = false;
  for (const char c : name) {
    if (c == '_') {
      upper_next = !out.empty();
      continue;
    }
    const char lower = is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
    out += upper_next ? static_cast<char>(is_lower(lower) ? lower - 'a' + 'A' : lower) : lower;
    upper_next = false;
  }
  return out;
}

} // namespace blockls::sections
