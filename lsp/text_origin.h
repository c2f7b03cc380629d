// Where a version of a document's text came from: the version it was edited from and the span
// the edit changed. The analysis of an edited text needs that span (the re-check and the
// simulation start from it); knowing it saves comparing two whole texts per keystroke.
#pragma once

#include "grammar/router/incremental_parse.h"

#include <cstdint>

namespace blockls::lsp {

struct TextOrigin {
  uint64_t id = 0;      // this version's text (unique in the process; 0: none)
  uint64_t from_id = 0; // the text it was edited from (0: not known, e.g. a full-text change)
  // Covers every difference from that text (meaningful only when from_id is set).
  TextChange change;

  // A fresh id, never given out before.
  static uint64_t next_id();
};

// The smallest change covering `first` (a -> b) then `second` (b -> c), as a change a -> c.
TextChange compose_changes(const TextChange& first, const TextChange& second);

} // namespace blockls::lsp
