// A keystroke's analysis of a large document reuses the memory the previous keystroke's freed
// (the allocator keeps it); the first keystroke after an analysis from scratch has none and
// writes its model, plan and simulation into fresh pages: at 10 MB with a workspace root it
// took 55-100 ms instead of ~20. The rehearsal runs right after that analysis, on the worker,
// before it is published: a byte inserted at the start (every later block moved, the dearest
// keystroke), the result dropped. The open takes one keystroke longer (~5% at 10 MB); the first
// keystroke after it costs about what the next ones do. Before it, two buffers for the text's
// next versions are written (lsp/documents.h): the first keystrokes' copies of the text would
// otherwise go into fresh pages, the open's text being freed only after the first keystroke.
#include "lsp/rehearsal.h"

namespace blockls::lsp {

std::shared_ptr<const Analysis> rehearse_keystroke(const DocumentText& text,
                                                   const std::shared_ptr<const Analysis>& opened,
                                                   const std::shared_ptr<CachedDiskSource>& files,
                                                   size_t min_bytes) {
  if (!opened || opened->too_large || opened->text != text.text || text.text->size() < min_bytes)
    return nullptr;
  stock_text_buffers(text.text->size() + 1);
  const DocumentText edited = text.with_edit({0, 0}, " ");
  return analyze(edited.text, opened->version, opened->generation, opened->context, files, opened,
                 edited.origin);
}

} // namespace blockls::lsp
