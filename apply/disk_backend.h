// The disk backend of the plan (`blockls apply`): per block, re-check against the files as
// they are now, journal the originals, perform the effects atomically, and roll the block
// back completely when anything fails.
#pragma once

#include "apply/journal.h"
#include "apply/simulate.h"

#include <string>
#include <vector>

namespace blockls::apply {

struct BlockRun {
  BlockSimulation sim; // results of the block as it ran (or why it did not)
  bool applied = false;
  std::string code;  // when !applied: the error kind (FILE_CHANGED, SEARCH_NOT_FOUND, ...)
  std::string error; // when !applied: one sentence
  std::vector<std::string> changed_files; // FILE_CHANGED: what differs from the check
  std::vector<std::string> touched;       // absolute paths the block changed (for git)
  bool exec_ran = false;                  // failed, but a command of it ran (its own changes stay)
};

// Runs one block of a document on disk. `checked` is the block's simulation at check time;
// every file it read must still be as it was, else nothing is written (FILE_CHANGED).
// `diagnostics` receives the workspace diagnostics of the re-check.
BlockRun run_block_on_disk(const SimulationInput& input, const BlockSimulation& checked,
                           StateDir& state, std::vector<Diagnostic>* diagnostics);

} // namespace blockls::apply
