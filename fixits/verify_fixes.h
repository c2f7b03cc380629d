// The fix guarantee of the engine: every fix offered removes its diagnostic and adds none.
// Syntax fixes are built by the grammar, which cannot see the catalog (a repaired header may
// create a block that then lacks an `action`), so each is re-checked on its block's window with
// the whole engine and dropped if it would add a diagnostic. Catalog fixes are verified when
// they are built. Consumers that show or apply fixes (CLI, language server) use
// check_with_verified_fixes; check_document alone is parse + validate.
#pragma once

#include "diagnostics/check.h"

#include <string_view>

namespace blockls {

void verify_fixes(std::string_view text, CheckedDocument& checked,
                  const CheckOptions& options = {});

CheckedDocument check_with_verified_fixes(std::string_view text, const CheckOptions& options = {});

} // namespace blockls
