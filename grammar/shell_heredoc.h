// What every dialect built on a shell heredoc shares (heredoc file creation, sections command
// input): the `<< 'MARK'` operator of a start line, the words around it, the terminator rules,
// the body as text, and the fix that closes an unclosed heredoc. One lexer, no regular
// expressions; each dialect decides what the rest of its start line means.
#pragma once

#include "grammar/model.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::shell {

inline bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

inline size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && is_blank(s[i]))
    ++i;
  return i;
}

std::string_view trim_blanks(std::string_view s);

// A shell word at `*i` (a path, a marker, an argument): `"…"`, `'…'`, or a bare word that stops
// at a blank, a quote or one of `stop`. Sets its bounds (without quotes) and moves `*i` past
// it; false when there is none (also for an unclosed or empty quoted word).
bool lex_word(std::string_view s, size_t* i, std::string_view stop, size_t* begin, size_t* end,
              bool* quoted);

// The heredoc operator `<<` / `<<-` and its marker, as lexed from a line.
struct Operator {
  size_t begin = 0;                    // the first `<`
  size_t mark_begin = 0, mark_end = 0; // the marker, without its quotes
  size_t end = 0;                      // after the marker (and its closing quote)
  bool dash = false;                   // `<<-`
  bool quoted = false;                 // the marker is in quotes
  char quote = '\'';                   // which quote (when quoted)
};

// The operator at `i` (which must be `<<`), or nullopt when no marker follows.
std::optional<Operator> lex_operator(std::string_view line, size_t i);

// True when the line of `n` bytes at `p` may end with a heredoc operator and its marker
// (`<< 'EOF'`, `<<EOF`, `<<- "END"`, trailing blanks allowed): a backward scan over the last
// word only, so that the router's prose filter can ask it of every prose line cheaply. It may
// say yes for a line that is no start line; it never says no for one that ends so.
bool may_end_with_operator(const char* p, size_t n);

// How a line inside a heredoc body relates to its marker.
enum class Terminator : uint8_t {
  none,     // body content
  exact,    // the marker alone: ends the heredoc
  indented, // the marker with blanks around it: still ends it (INDENTED_TERMINATOR)
};
Terminator terminator(std::string_view line, std::string_view mark);

// False when terminator(line, mark) is surely `none`: the line is shorter than the marker, or
// its first or last byte is neither a blank nor the marker's. Inline and branch-light, for the
// body lines of a heredoc (most of them end with neither).
inline bool may_terminate(std::string_view line, std::string_view mark) {
  if (mark.empty()) return true; // (a marker is never empty; terminator() decides)
  if (line.size() < mark.size()) return false;
  const char first = line.front(), last = line.back();
  // `&` on ints, not `&&`: no branch on the first test (clang rejects `&` on bools).
  const int first_fits = first == mark.front() || is_blank(first);
  const int last_fits = last == mark.back() || is_blank(last);
  return (first_fits & last_fits) != 0;
}

// The body [begin, end) of `text`: its lines (without "\r" before "\n") joined with "\n", plus
// a final "\n" (the shell's semantics).
std::string body_content(std::string_view text, size_t begin, size_t end);

// The fix of an unclosed heredoc: insert the marker line before the enclosing Markdown fence's
// closing line (`fence_close_begin`, npos when none) or at the end of `text`. `where` says
// where, for the fix's title ("at the end", "before the closing Markdown fence at line N").
TextEdit close_heredoc_edit(std::string_view text, size_t fence_close_begin,
                            std::optional<uint32_t> fence_close_line, std::string_view mark,
                            bool crlf, std::string* where);

} // namespace blockls::shell
