// The fix guarantee of the engine: every fix offered removes its diagnostic and adds none.
// Syntax fixes are built by the grammar, which cannot see the catalog (a repaired header may
// create a block that then lacks an `action`), so each is re-checked on its block's window with
// the whole engine and dropped if it would add a diagnostic. Catalog fixes are verified when
// they are built. Consumers that show or apply fixes (CLI, language server) use
// check_with_verified_fixes; check_document alone is parse + validate.
#pragma once

#include "diagnostics/check.h"
#include "grammar/router/incremental_parse.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace blockls {

// Verifies the fixes of checked.diagnostics[first, end) (all by default); returns the number of
// bytes it re-checked to do so. Each window (a block up to the next one) verifies the fixes of
// its first max(16, 2 MiB / window size) diagnostics; the fixes of the rest, like those in
// windows over 256 KiB, stay as the grammar built them. Without that bound a window with an error
// on every line costs its size times its line count.
size_t verify_fixes(std::string_view text, CheckedDocument& checked,
                    const CheckOptions& options = {}, size_t first = 0, size_t end = SIZE_MAX);

CheckedDocument check_with_verified_fixes(std::string_view text, const CheckOptions& options = {});

// check_with_verified_fixes(new_text) computed incrementally from `old`, the verified check of
// `old_text` with the same options (diagnostics/recheck.h): only the re-checked window's fixes
// are verified again. `*incremental` (optional) tells whether the window was enough.
// `change`: find_change(old_text, new_text) when the caller has it (null: computed).
CheckedDocument recheck_with_verified_fixes(std::string_view old_text, const CheckedDocument& old,
                                            std::string_view new_text,
                                            const CheckOptions& options = {},
                                            bool* incremental = nullptr,
                                            const TextChange* change = nullptr);

} // namespace blockls
