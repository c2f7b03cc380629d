// The server's copy of each open document: text, version and line index, with incremental
// changes validated and applied in order. The text is immutable per version (shared with the
// analysis running on the worker); an edit builds the next version.
#pragma once

#include "grammar/line_index.h"
#include "lsp/protocol.h"
#include "lsp/text_origin.h"

#include <map>
#include <memory>
#include <string>

namespace blockls::lsp {

struct DocumentText {
  // The index of a version made by its last ranged change, still to be made (see
  // apply_content_changes): the previous version's index and that change.
  struct PendingLines {
    std::shared_ptr<const LineIndex> from;
    ByteRange range;
    std::string text;
  };

  std::shared_ptr<const std::string> text;
  std::shared_ptr<const LineIndex> lines; // null while `pending`
  TextOrigin origin; // this version's id, and the edit that made it from the previous one
  std::shared_ptr<const PendingLines> pending;

  static DocumentText from(std::string text);
  // The next version: bytes `range` replaced by `text` (range within the text), as an edit of
  // this one (origin).
  DocumentText with_edit(ByteRange range, std::string_view text) const;
  // Makes `lines` when it is still to be made.
  void make_lines();
  // `lines`, or when it is still to be made an index made now (not kept: this is const, and
  // may be a copy read on another thread).
  std::shared_ptr<const LineIndex> line_index() const;
  // Needs `lines` (make_lines()).
  PositionMapper mapper(PositionEncoding encoding) const { return {*text, *lines, encoding}; }
};

// Keeps buffers for the next versions of a text of about `bytes` bytes (of 256 KiB and more),
// written once: the keystrokes after a document's open then copy its text into mapped pages
// (the open's text and the analysis holding it are freed only after the first keystroke).
void stock_text_buffers(size_t bytes);

// Applies `changes` (TextDocumentContentChangeEvent[]) in order to `current` (whose `lines`
// are made). On the first invalid change returns false with `error` naming it; `current` is
// then untouched. With `defer_lines`, when the last change has a range the result's line index
// is left to make_lines(): a keystroke's analysis does not need it (its re-parse makes its
// own), only the next change does, so the protocol thread makes it once the analysis is under
// way (at 10 MB ~0.2 ms, and a fresh 2.7 MB vector on one keystroke in fourteen).
bool apply_content_changes(const DocumentText& current, const json& changes,
                           PositionEncoding encoding, DocumentText* out, std::string* error,
                           bool defer_lines = false);

} // namespace blockls::lsp
