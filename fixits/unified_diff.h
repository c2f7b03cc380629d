// Unified diffs of two texts: `blockls fix --diff`, `blockls apply --dry-run`, LSP hover previews.
#pragma once

#include <string>
#include <string_view>

namespace blockls {

// "" when the texts are equal; otherwise a `---`/`+++` header and the hunks (3 lines of
// context). A missing final newline is marked as diff(1) does.
std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& from_label, const std::string& to_label);

} // namespace blockls
