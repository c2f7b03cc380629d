// `blockls stream`: reads a transcript from standard input as it arrives and writes one JSON
// event per line, flushed as each is known (docs/stream.md).
#pragma once

#include "cli/apply_command.h"
#include "cli/input.h"
#include "grammar/dialect_set.h"

#include <iosfwd>

namespace blockls {
class ActionCatalog;
}

namespace blockls::cli {

struct StreamRequest {
  DialectSet dialects = DialectSet::all();
  const ActionCatalog* catalog = nullptr;
  InputLimits limits;
  int input_fd = 0; // standard input
  // --apply: run each valid block as it closes against `apply_options.root` (its root, allowed
  // roots, deny globs, exec and dry-run settings; files and format are unused).
  bool apply = false;
  ApplyRequest apply_options;
};

// Exit status as `check`: 0 no error, 1 errors, 2 the input could not be read (binary, too
// large, a read error); in that case no `done` event is written. With --apply, also 1 when a
// valid block could not be applied and 2 when that was an I/O error (or the root or its state
// directory cannot be used: then nothing is read).
int run_stream(const StreamRequest& request, std::ostream& out, std::ostream& err);

} // namespace blockls::cli
