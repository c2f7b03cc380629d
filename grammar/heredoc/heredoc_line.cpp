// Heredoc start lines (see heredoc_line.h): a small scanner over the line's bytes.
#include "grammar/heredoc/heredoc_line.h"

#include "grammar/shell_heredoc.h"

#include <array>
#include <cstdint>

namespace blockls::heredoc {
namespace {

using shell::is_blank;
using shell::skip_blanks;

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// The quotes the canonical form writes a path in ('\0': none), given the quote it was written
// in (`written`, '\0': none). A path the shell would split or redirect is written in double
// quotes. One it would expand unquoted (a leading `~`, `$`, backquotes) stays in single quotes
// when it was written so, so that a fix never turns `cat > '$x'` into `cat > $x`; written
// otherwise, it keeps the shell's meaning as written (SHELL_EXPANSION says blockls does not
// expand it) rather than being quoted by a fix into what the model did not mean.
// What path_quote() looks for, per byte: one table lookup and an OR per byte of the path (every
// heredoc start line asks, and paths are long).
enum PathByte : uint8_t { kSplits = 1, kExpands = 2, kSingleQuote = 4 };
constexpr std::array<uint8_t, 256> path_byte_table() {
  std::array<uint8_t, 256> t{};
  for (const char c : std::string_view(" \t<>|;&"))
    t[static_cast<unsigned char>(c)] |= kSplits;
  t['$'] |= kExpands;
  t['`'] |= kExpands;
  t['\''] |= kSingleQuote;
  return t;
}
constexpr std::array<uint8_t, 256> kPathBytes = path_byte_table();

char path_quote(std::string_view path, char written) {
  unsigned flags = (path.empty() ? kSplits : 0) | (path.starts_with('~') ? kExpands : 0);
  for (const char c : path)
    flags |= kPathBytes[static_cast<unsigned char>(c)];
  const bool split = (flags & kSplits) != 0, expands = (flags & kExpands) != 0,
             single = (flags & kSingleQuote) != 0;
  if (expands && written == '\'' && !single) return '\'';
  return split || single ? '"' : '\0';
}

// Whether `written` is exactly canonical_start(path, mark, append), compared piece by piece:
// every start line asks, and building the string for it was a heap allocation per block.
bool is_canonical_start(std::string_view written, std::string_view path, std::string_view mark,
                        bool append, char path_written_quote) {
  const auto eat = [&](std::string_view part) {
    if (!written.starts_with(part)) return false;
    written.remove_prefix(part.size());
    return true;
  };
  if (!eat(append ? "cat >> " : "cat > ")) return false;
  const char q = path_quote(path, path_written_quote);
  const std::string_view quote(&q, q == '\0' ? 0 : 1);
  if (!eat(quote) || !eat(path) || !eat(quote)) return false;
  return eat(" << '") && eat(mark) && eat("'") && written.empty();
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
      if (!shell::lex_word(line, &i, "<>|;&", &start.path_begin, &start.path_end,
                           &start.path_quoted))
        return std::nullopt;
      if (start.path_quoted) start.path_quote = line[start.path_begin - 1];
      have_path = true;
    } else if (line[i] == '<' && i + 1 < line.size() && line[i + 1] == '<' && !have_mark) {
      const std::optional<shell::Operator> op = shell::lex_operator(line, i);
      if (!op) return std::nullopt;
      start.mark_begin = op->mark_begin;
      start.mark_end = op->mark_end;
      dash = op->dash;
      mark_quoted = op->quoted;
      mark_quote = op->quote;
      i = op->end;
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
  start.canonical = !dash && mark_quoted && mark_quote == '\'' &&
                    is_canonical_start(line.substr(start.indent, start.end - start.indent), path,
                                       mark, start.append, start.path_quote);
  return start;
}

std::string canonical_start(std::string_view path, std::string_view mark, bool append,
                            char path_written_quote) {
  std::string out = append ? "cat >> " : "cat > ";
  const char q = path_quote(path, path_written_quote);
  if (q != '\0') out += q;
  out.append(path);
  if (q != '\0') out += q;
  out += " << '";
  out.append(mark);
  out += '\'';
  return out;
}

} // namespace blockls::heredoc
