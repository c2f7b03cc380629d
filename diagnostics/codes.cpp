// The code table, from the X-macro tables of each dialect (grammar/<dialect>/codes.def) and of
// validation and the workspace (diagnostics/codes.def). Keep it in step with docs/codes/*.md
// (a test checks every code has a page section).
#include "diagnostics/codes.h"

namespace blockls {
namespace {

// Every code, in the order of `blockls codes`: each dialect's syntax table in registration
// order, then validation, workspace and document codes.
// (The order of the tables is the order of the list: not sorted.)
// clang-format off
constexpr CodeInfo kCodes[] = {
#define DIAG(NAME, SEVERITY, DIALECT, PAGE, SUMMARY)                                              \
  {#NAME, Severity::SEVERITY, #DIALECT, #PAGE, SUMMARY},
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

} // namespace blockls
