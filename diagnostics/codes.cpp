// The code table, from the X-macro tables of each dialect (grammar/<dialect>/codes.def) and of
// validation and the workspace (diagnostics/codes.def). Keep it in step with docs/codes/*.md
// (a test checks every code has a page section).
#include "diagnostics/codes.h"

#include "grammar/dialects.h"

namespace blockls {
namespace {

// The dialect column of the X-macro tables (a dialect's name, or `any`), typed.
namespace code_dialect {
constexpr std::optional<Dialect> telt = Dialect::telt;
constexpr std::optional<Dialect> nesl = Dialect::nesl;
constexpr std::optional<Dialect> heredoc = Dialect::heredoc;
constexpr std::optional<Dialect> editblock = Dialect::editblock;
constexpr std::optional<Dialect> replacer = Dialect::replacer;
constexpr std::optional<Dialect> sections = Dialect::sections;
constexpr std::optional<Dialect> patch = Dialect::patch;
constexpr std::optional<Dialect> xml = Dialect::xml;
constexpr std::optional<Dialect> any = std::nullopt;
} // namespace code_dialect

// Every code, in the order of `blockls codes`: each dialect's syntax table in registration
// order, then validation, workspace and document codes.
// (The order of the tables is the order of the list: not sorted.)
// clang-format off
constexpr CodeInfo kCodes[] = {
#define DIAG(NAME, SEVERITY, DIALECT, PAGE, SUMMARY)                                              \
  {#NAME, Severity::SEVERITY, code_dialect::DIALECT, #PAGE, SUMMARY},
#include "grammar/telt/codes.def"
#include "grammar/nesl/codes.def"
#include "grammar/heredoc/codes.def"
#include "grammar/editblock/codes.def"
#include "grammar/replacer/codes.def"
#include "grammar/sections/codes.def"
#include "grammar/patch/codes.def"
#include "grammar/xml/codes.def"
#include "diagnostics/codes.def"
#undef DIAG
};
// clang-format on

} // namespace

std::span<const CodeInfo> all_codes() {
  return kCodes;
}

const CodeInfo* find_code(std::string_view name) {
  for (const CodeInfo& c : kCodes)
    if (c.name == name) return &c;
  return nullptr;
}

std::string_view dialect_column(const CodeInfo& code) {
  return code.dialect ? dialect_info(*code.dialect).name : std::string_view("any");
}

} // namespace blockls
