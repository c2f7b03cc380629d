// The one apply loop: the blocks of a checked transcript, in order, each run on disk all or
// nothing (simulate, journal, perform, commit or roll back — disk_backend.h), or only
// simulated (dry run). `blockls apply`, `blockls stream --apply` and the language server's
// disk backend all go through run_blocks(); what they print or reply is theirs.
#pragma once

#include "apply/disk_backend.h"
#include "apply/journal.h"
#include "apply/plan.h"
#include "apply/simulate.h"

#include <string>
#include <vector>

namespace blockls::apply {

enum class BlockStatus {
  applied,   // every action ran (dry run: would run)
  failed,    // valid, but it could not run (workspace check, changed file, I/O): nothing changed
  skipped,   // invalid: its first error is the reason; nothing ran
  not_run,   // command input (checked and shown, never run)
  no_actions // valid, but it asks for nothing
};

const char* status_name(BlockStatus status); // "applied", "failed", ...

struct BlockOutcome {
  int block = -1; // index into checked->parsed.blocks
  std::string block_id;
  uint32_t line = 0; // 0-based start line
  BlockStatus status = BlockStatus::no_actions;
  std::string code;  // failed / skipped: the error kind (FILE_CHANGED, a diagnostic code, ...)
  std::string error; // failed / skipped: one sentence; not_run: what the block is
  std::vector<std::string> changed_files; // failed with FILE_CHANGED: what differs
  std::vector<std::string> touched;       // applied on disk: the absolute paths it changed
  ActionOutcomes actions;                 // applied / failed: each action's result (and,
                                          // in a dry run, the effects it would have)
  bool exec_ran = false;                  // failed, but a command of it ran (its own changes stay)
};

// One block to run, and optionally its simulation at check time (a simulation with !ok makes
// the block fail with its first failing action; one with ok is re-checked against the disk).
// Without a simulation the block is simulated just before it runs, over `RunInput::source`.
struct BlockRequest {
  int block = -1;
  const BlockSimulation* simulation = nullptr;
};

struct RunInput {
  SimulationInput document; // text, checked, plan (of that text) and config; all required
  // Dry run: nothing is written and no state directory is needed; blocks are only simulated.
  bool dry_run = false;
  // Where blocks without a simulation are simulated (null: the disk). A dry run should pass
  // an Overlay that it also gives as `simulated`, so that later blocks see earlier ones.
  const FileSource* source = nullptr;
  // Receives the simulated effects of each block run_blocks simulates with success (a dry
  // run's running state); may be null.
  Overlay* simulated = nullptr;
  // Receives the workspace diagnostics of the simulations run_blocks makes (blocks without a
  // simulation); those of the re-check just before a block runs are not kept. May be null.
  std::vector<Diagnostic>* diagnostics = nullptr;
};

// Runs `blocks` (ascending) in order and says what became of each, one outcome per request.
// `state` must be open (prepare_state) unless `input.dry_run`.
std::vector<BlockOutcome> run_blocks(const RunInput& input, const std::vector<BlockRequest>& blocks,
                                     StateDir* state);

// Opens the root's state directory (taking its lock) and rolls back what an interrupted run
// left; `recovered` gets one message per rolled-back block. False (and `error`) when the
// state directory cannot be used or a journal cannot be trusted.
bool prepare_state(StateDir& state, const ApplyConfig& config, std::vector<std::string>* recovered,
                   std::string* error);

} // namespace blockls::apply
