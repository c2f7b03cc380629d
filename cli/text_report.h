// Compiler-style text output of `blockls check`: `path:line:col: severity: message [CODE]`,
// the lines around it with the range underlined, the hint and the fixes on offer.
#pragma once

#include "diagnostics/check.h"

#include <ostream>
#include <string>

namespace blockls::cli {

struct TextStyle {
  bool color = false;
};

void print_text_diagnostics(std::ostream& out, const std::string& path, std::string_view text,
                            const CheckedDocument& checked, const TextStyle& style);
// The same report appended to `*out` (a file's report put together before its turn to be
// written comes, by the thread that checked it).
void append_text_diagnostics(std::string* out, const std::string& path, std::string_view text,
                             const CheckedDocument& checked, const TextStyle& style);

// `text` with control characters other than tab (and DEL) shown as \xNN escapes, so that
// what blockls echoes of a transcript (a path, a name, a source line) can neither forge an
// output line with a newline nor drive the terminal with an escape sequence; each invalid
// UTF-8 byte becomes U+FFFD, so the report itself is always valid UTF-8.
std::string printable(std::string_view text);
// printable(text) appended to `*out`.
void append_printable(std::string* out, std::string_view text);

// "error", "warning" or "info".
std::string_view severity_word(Severity severity);

} // namespace blockls::cli
