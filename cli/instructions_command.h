// `blockls instructions DIALECT`: prints the format instructions of a registered dialect (the
// text a prompt author pastes into a system prompt) followed by its example block.
#pragma once

#include <iosfwd>
#include <string>

namespace blockls::cli {

// Prints the instructions of `dialect` (a registered name or alias) to `out`; exit status 0,
// or 2 with a message naming the registered dialects on `err` when it is unknown.
int run_instructions(const std::string& dialect, std::ostream& out, std::ostream& err);

} // namespace blockls::cli
