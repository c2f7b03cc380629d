// The keystroke rehearsal: after an analysis from scratch (a document opened, or its settings
// changed), one keystroke's analysis of the document is run and dropped, so that the first
// real keystroke finds memory to reuse (see rehearsal.cpp for why and what it costs).
#pragma once

#include "lsp/analysis.h"
#include "lsp/documents.h"

#include <cstddef>
#include <memory>

namespace blockls::lsp {

// Documents smaller than this are not rehearsed: their first keystroke is cheap anyway.
inline constexpr size_t kRehearsalMinBytes = 256 * 1024;

// Analyses `text` with one byte inserted at its start, from `opened` (the analysis of `text`
// just made from scratch), with the same file cache; returns that analysis for the caller to
// drop (null when `text` is under `min_bytes` or too large to analyse). Its result is never
// published; what it leaves is memory the allocator keeps, and the file cache's reads.
std::shared_ptr<const Analysis> rehearse_keystroke(const DocumentText& text,
                                                   const std::shared_ptr<const Analysis>& opened,
                                                   const std::shared_ptr<CachedDiskSource>& files,
                                                   size_t min_bytes = kRehearsalMinBytes);

} // namespace blockls::lsp
