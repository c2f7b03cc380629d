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

// "error", "warning" or "info".
std::string_view severity_word(Severity severity);

} // namespace blockls::cli
