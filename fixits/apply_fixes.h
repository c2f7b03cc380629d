// Applying fixes to text: one fix, or every preferred fix of a document at once.
#pragma once

#include "grammar/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace blockls {

// Applies the edits of `fix` to `text`. Returns false (text unchanged) if edits overlap or
// fall outside the text.
bool apply_fix(std::string_view text, const Fix& fix, std::string* out);

// Applies the preferred fix of every diagnostic, each at most once; a fix whose edits
// overlap an already chosen fix is skipped. Returns how many fixes were applied.
size_t apply_preferred_fixes(std::string_view text, const std::vector<Diagnostic>& diagnostics,
                             std::string* out);

} // namespace blockls
