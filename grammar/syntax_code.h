// Typed syntax codes: one constant per code of each dialect's table (grammar/<dialect>/codes.def,
// an X-macro list), so a parser names `code::HASH_MISMATCH` (a misspelt code does not compile)
// and takes the severity from the table. Every dialect builds its diagnostics with
// make_diagnostic(); diagnostics/codes.cpp builds `blockls codes` and the docs index from the
// same tables.
#pragma once

#include "grammar/model.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockls {

struct SyntaxCode {
  std::string_view name;
  Severity severity;
};

namespace code {
#define DIAG(NAME, SEVERITY, DIALECT, PAGE, SUMMARY)                                               \
  inline constexpr SyntaxCode NAME{#NAME, Severity::SEVERITY};
#include "grammar/editblock/codes.def"
#include "grammar/heredoc/codes.def"
#include "grammar/nesl/codes.def"
#include "grammar/patch/codes.def"
#include "grammar/replacer/codes.def"
#include "grammar/sections/codes.def"
#include "grammar/telt/codes.def"
#include "grammar/xml/codes.def"
#undef DIAG
} // namespace code

// A diagnostic of `code` (its name and severity from the table) reported by `dialect`.
// `s` in single quotes, as every dialect's messages name what was written ('EOF', 'a.txt').
inline std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  out.append(s);
  out += '\'';
  return out;
}

inline Diagnostic make_diagnostic(SyntaxCode code, Dialect dialect, int32_t block, uint32_t line,
                                  ByteRange range, std::string message, std::string hint = {},
                                  std::vector<Fix> fixes = {}) {
  Diagnostic d(dialect);
  d.code = code.name;
  d.severity = code.severity;
  d.block = block;
  d.line = line;
  d.range = range;
  d.message = std::move(message);
  d.fix_hint = std::move(hint);
  d.fixes = std::move(fixes);
  return d;
}

} // namespace blockls
