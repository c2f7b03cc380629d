// The start line of a heredoc file creation (spec: ../shared/spec/dialects.md, "Heredoc file
// creation"; seed 000_…): `cat > PATH << 'MARK'`, `cat >> PATH << 'MARK'` (append), and the
// variants LLMs write (any case of `cat`, missing or extra spaces, quoted paths, `<< "MARK"`,
// `<< MARK`, `<<-`, the redirections in the other order). Hand-written, no regular expressions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::heredoc {

struct StartLine {
  size_t indent = 0;                   // leading blanks (kept by the canonical form)
  size_t path_begin = 0, path_end = 0; // the path, without its quotes (offsets in the line)
  size_t mark_begin = 0, mark_end = 0; // the marker, without its quotes
  size_t end = 0;                      // end of the syntax (trailing blanks excluded)
  bool append = false;                 // `>>`
  bool path_quoted = false;            // written in quotes (kept when it holds a blank)
  char path_quote = '\0';              // the quote it is written in ('\0': none)
  // The line is exactly the canonical form (`cat > PATH << 'MARK'`, single spaces).
  bool canonical = false;
};

// The start line `line` (its text, without the line break), or nullopt when it is none: the
// whole line must be the command, so prose that mentions `cat > file` is not one.
std::optional<StartLine> parse_start(std::string_view line);

// The canonical form of a start line: `cat > PATH << 'MARK'` (`>>` for an append), the path
// in double quotes only when it holds a blank or a quote-free form is impossible, in single
// quotes when it was written in them and the shell would expand it unquoted (`~`, `$`,
// backquotes). `path_written_quote`: the quote it was written in ('\0': none).
std::string canonical_start(std::string_view path, std::string_view mark, bool append,
                            char path_written_quote = '\0');

// True when `line` could begin a heredoc start line: `c`/`C` then `a`/`A` after blanks (a
// cheap test before parse_start()).
bool may_start(std::string_view line);

} // namespace blockls::heredoc
