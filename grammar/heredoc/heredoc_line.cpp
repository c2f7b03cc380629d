// Heredoc start lines (see heredoc_line.h): a small scanner over the line's bytes.
#include "grammar/heredoc/heredoc_line.h"

namespace blockls::heredoc {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && is_blank(s[i]))
    ++i;
  return i;
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// An operand at `*i` (a path or a marker): `"…"`, `'…'`, or a bare word that stops at a blank,
// a quote or `stop` bytes. Sets its bounds (without quotes); false when there is none.
bool operand(std::string_view s, size_t* i, std::string_view stop, size_t* begin, size_t* end,
             bool* quoted) {
  if (*i >= s.size()) return false;
  const char q = s[*i];
  if (q == '"' || q == '\'') {
    const size_t close = s.find(q, *i + 1);
    if (close == std::string_view::npos || close == *i + 1) return false;
    *begin = *i + 1;
    *end = close;
    *i = close + 1;
    *quoted = true;
    return true;
  }
  size_t j = *i;
  while (j < s.size() && !is_blank(s[j]) && s[j] != '"' && s[j] != '\'' &&
         stop.find(s[j]) == std::string_view::npos)
    ++j;
  if (j == *i) return false;
  *begin = *i;
  *end = j;
  *i = j;
  *quoted = false;
  return true;
}

} // namespace

bool may_start(std::string_view line) {
  const size_t i = skip_blanks(line, 0);
  return i + 1 < line.size() && lower(line[i]) == 'c' && lower(line[i + 1]) == 'a';
}

std::optional<StartLine> parse_start(std::string_view line) {
  StartLine start;
  size_t i = start.indent = skip_blanks(line, 0);
  if (line.size() - i < 3 || lower(line[i]) != 'c' || lower(line[i + 1]) != 'a' ||
      lower(line[i + 2]) != 't')
    return std::nullopt;
  i += 3;
  // `cat` is a word: a blank or a redirection follows.
  if (i >= line.size() || !(is_blank(line[i]) || line[i] == '>' || line[i] == '<'))
    return std::nullopt;
  bool have_path = false, have_mark = false;
  bool mark_quoted = false, dash = false;
  char mark_quote = '\'';
  while (true) {
    i = skip_blanks(line, i);
    if (i >= line.size()) break;
    if (line[i] == '>' && !have_path) {
      ++i;
      if (i < line.size() && line[i] == '>') {
        start.append = true;
        ++i;
      }
      i = skip_blanks(line, i);
      if (!operand(line, &i, "<>|;&", &start.path_begin, &start.path_end, &start.path_quoted))
        return std::nullopt;
      have_path = true;
    } else if (line[i] == '<' && i + 1 < line.size() && line[i + 1] == '<' && !have_mark) {
      i += 2;
      if (i < line.size() && line[i] == '-') {
        dash = true;
        ++i;
      }
      i = skip_blanks(line, i);
      if (i < line.size() && (line[i] == '"' || line[i] == '\'')) mark_quote = line[i];
      if (!operand(line, &i, "<>|;&", &start.mark_begin, &start.mark_end, &mark_quoted))
        return std::nullopt;
      have_mark = true;
    } else {
      return std::nullopt; // anything else: not the command (prose, another command)
    }
  }
  if (!have_path || !have_mark) return std::nullopt;
  start.end = line.size();
  while (start.end > 0 && is_blank(line[start.end - 1]))
    --start.end;
  const std::string_view path = line.substr(start.path_begin, start.path_end - start.path_begin);
  const std::string_view mark = line.substr(start.mark_begin, start.mark_end - start.mark_begin);
  const std::string canonical = canonical_start(path, mark, start.append);
  start.canonical = !dash && mark_quoted && mark_quote == '\'' &&
                    line.substr(start.indent, start.end - start.indent) == canonical;
  return start;
}

std::string canonical_start(std::string_view path, std::string_view mark, bool append) {
  bool needs_quotes = path.empty();
  for (const char c : path)
    if (is_blank(c) || c == '\'' || c == '<' || c == '>' || c == '|' || c == ';' || c == '&')
      needs_quotes = true;
  std::string out = append ? "cat >> " : "cat > ";
  if (needs_quotes) {
    out += '"';
    out.append(path);
    out += '"';
  } else {
    out.append(path);
  }
  out += " << '";
  out.append(mark);
  out += '\'';
  return out;
}

} // namespace blockls::heredoc
