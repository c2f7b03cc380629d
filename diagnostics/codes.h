// Every diagnostic code blockls emits, with its default severity, its dialect and the page
// of docs/ that explains it. SARIF rules, LSP codeDescription links and `blockls codes`
// are all generated from this one table.
#pragma once

#include "grammar/model.h"

#include <optional>
#include <span>
#include <string_view>

namespace blockls {

struct CodeInfo {
  std::string_view name;
  Severity severity;
  std::optional<Dialect> dialect; // the one dialect that reports it; nullopt when several do
  std::string_view doc_page;      // docs/codes/<page>.md, anchor = lower-case name
  std::string_view summary;       // one sentence
};

std::span<const CodeInfo> all_codes();
const CodeInfo* find_code(std::string_view name);

// The dialect column of `blockls codes` and of SARIF rules: the dialect's name, or "any".
std::string_view dialect_column(const CodeInfo& code);

} // namespace blockls
