// The fix guarantee of the engine: every fix offered removes its diagnostic and adds none.
// Syntax fixes are built by the grammar, which cannot see the catalog (a repaired header may
// create a block that then lacks an `action`), so each is re-checked on its window (fix_window)
// with the whole engine and dropped if it would add a diagnostic. Catalog fixes are verified when
// they are built. Consumers that show or apply fixes (CLI, language server) use
// check_with_verified_fixes; check_document alone is parse + validate.
#pragma once

#include "diagnostics/check.h"
#include "grammar/router/incremental_parse.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace blockls {

// The text a diagnostic's fixes are verified on. A block's diagnostic: its block, from its start
// line to the end of its last line. The text after it changes the verdict only by its size (the
// bounds below) or when the fix moves the block's end, and such a fix is judged on the block
// alone (it would leave the block unclosed there: dropped). So the window is known once the
// block is, and `blockls stream` verifies a block's fixes when the block closes
// (docs/stream.md). A diagnostic outside every block (a malformed header): from its line to the
// start of the next block, or the text's end (loose_fix_window) — its fix may turn the lines
// after it into a block, and whether that block is valid is only known there.
ByteRange fix_window(const ParsedDocument& parsed, const Diagnostic& d, size_t text_size);
ByteRange loose_fix_window(const ParsedDocument& parsed, const Diagnostic& d, size_t text_size);

// Largest window re-checked to verify a syntax fix; fixes in larger windows stay as the grammar
// built them (unverified: the fix property is not promised for them).
constexpr size_t kMaxVerifyWindow = 256 * 1024;

// A diagnostic outside every block is verified on the text from its line to the next block
// (loose_fix_window), so each has a window of its own: a run of them (a stray TELT end line on
// each of thousands of lines) re-checked every later one with each, quadratic work that the
// per-window bound never saw. Such a window is verified only when its check finds at most this
// many diagnostics: in a run, the last ones before the next block. Whether it does depends on
// the window's text alone, so check, its parts, the stream and a re-check agree.
constexpr size_t kMaxLooseWindowDiagnostics = 16;

// True when verify_fixes re-checks `d`'s fixes: it has some, from the grammar (a catalog fix
// is built verified), and a dialect (not INVALID_UTF8), and was not found across blocks (a
// duplicate id: its block's window, where the fixes are re-checked, holds that block alone and
// cannot show it, so the re-check would keep every fix). verify_fixes still re-checks such a
// fix when its block has other fixes (a NESL rename may carry them), and keeps it only if it
// adds no diagnostic to the block.
bool fix_needs_verifying(const Diagnostic& d);

// Verifies the fixes of checked.diagnostics[first, end) (all by default); returns the number of
// bytes it re-checked to do so. Each window verifies the fixes of its first max(16, 2 MiB /
// cost) diagnostics, where a re-check's cost is the window's size plus 512 bytes per diagnostic
// its check finds (building a diagnostic costs what checking that much plain text does); the
// fixes of the rest, like those in windows over 256 KiB and in loose windows with more than
// kMaxLooseWindowDiagnostics, stay as the grammar built them. Without that bound a window with
// an error on every line costs its size times its line count.
size_t verify_fixes(std::string_view text, CheckedDocument& checked,
                    const CheckOptions& options = {}, size_t first = 0, size_t end = SIZE_MAX);

// A diagnostic outside every block, with the start of its line: what `blockls stream` keeps of
// one whose window (loose_fix_window) runs past the text read so far, to verify it later.
struct LooseDiagnostic {
  Diagnostic diagnostic;
  size_t line_begin = 0;
};

// Verifies the fixes of `loose`, in order, as verify_fixes does once the next block after them
// is known to start at `window_end` (or the text to end there): each on [line_begin,
// window_end), under the same bounds. Returns the bytes re-checked.
size_t verify_loose_fixes(std::string_view text, std::span<LooseDiagnostic> loose,
                          size_t window_end, const CheckOptions& options = {});

CheckedDocument check_with_verified_fixes(std::string_view text, const CheckOptions& options = {});

// check_with_verified_fixes(new_text) computed incrementally from `old`, the verified check of
// `old_text` with the same options (diagnostics/recheck.h): only the re-checked window's fixes
// are verified again. `*incremental` (optional) tells whether the window was enough.
// `change`: find_change(old_text, new_text) when the caller has it (null: computed).
// `*window` (optional) is set to the re-parse's window when the window was enough.
CheckedDocument recheck_with_verified_fixes(std::string_view old_text, const CheckedDocument& old,
                                            std::string_view new_text,
                                            const CheckOptions& options = {},
                                            bool* incremental = nullptr,
                                            const TextChange* change = nullptr,
                                            ReparseWindow* window = nullptr);

} // namespace blockls
