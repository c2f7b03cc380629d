// `blockls stream`: reads a transcript from standard input as it arrives and writes one JSON
// event per line, flushed as each is known (docs/stream.md).
#pragma once

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
};

// Exit status as `check`: 0 no error, 1 errors, 2 the input could not be read (binary, too
// large, a read error); in that case no `done` event is written.
int run_stream(const StreamRequest& request, std::ostream& out, std::ostream& err);

} // namespace blockls::cli
