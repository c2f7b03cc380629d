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
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const LineIndex> lines;
  TextOrigin origin; // this version's id, and the edit that made it from the previous one

  static DocumentText from(std::string text);
  // The next version: bytes `range` replaced by `text` (range within the text), as an edit of
  // this one (origin).
  DocumentText with_edit(ByteRange range, std::string_view text) const;
  PositionMapper mapper(PositionEncoding encoding) const { return {*text, *lines, encoding}; }
};

// Keeps buffers for the next versions of a text of about `bytes` bytes (of 256 KiB and more),
// written once: the keystrokes after a document's open then copy its text into mapped pages
// (the open's text and the analysis holding it are freed only after the first keystroke).
void stock_text_buffers(size_t bytes);

// Applies `changes` (TextDocumentContentChangeEvent[]) in order to `current`. On the first
// invalid change returns false with `error` naming it; `current` is then untouched.
bool apply_content_changes(const DocumentText& current, const json& changes,
                           PositionEncoding encoding, DocumentText* out, std::string* error);

} // namespace blockls::lsp
