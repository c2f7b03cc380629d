// Reuse of an earlier simulation after an edit (simulate_plan with a SimulationBase): a block
// outside the edited bytes, with the same planned actions, that observes the same state as it
// did then, would run exactly as it ran; its simulation is taken over with its positions
// shifted and its changes replayed on the state, instead of running its actions again.
#pragma once

#include "apply/simulate.h"
#include "grammar/router/incremental_parse.h"

#include <set>
#include <span>
#include <string>
#include <vector>

namespace blockls::apply {

// Writes a simulation's blocks in order over the spare blocks it was given
// (SimulationOptions::spare) while there are some, then after them; finish() drops the spare
// blocks left over.
class BlockWriter {
public:
  BlockWriter(std::vector<BlockSimulation>* blocks, std::vector<BlockSimulation>* spare,
              size_t count);
  BlockSimulation& copy_of(const BlockSimulation& block); // `block` must be no spare block
  BlockSimulation& add(BlockSimulation&& block);
  void finish();

private:
  std::vector<BlockSimulation>* blocks_;
  size_t written_ = 0;
};

class SimulationReuse {
public:
  SimulationReuse(const SimulationInput& input, const SimulationBase& base);

  // When block `block` of the new document can be reused: appends its simulation to `sim`
  // (with its diagnostics), records its changes to be applied to `state` (the state before
  // it) by settle(), and returns true. Otherwise returns false and changes nothing but what it
  // tracks; the block is then simulated (after settle()) and ran() told about it. Blocks are
  // asked in plan order.
  // The block is written by `out` into sim->blocks.
  bool reuse(int block, Overlay* state, Simulation* sim, BlockWriter* out);
  // `now` was simulated (not reused): the paths it changed may now differ from the base.
  void ran(const BlockSimulation& now);
  // Applies the changes of the blocks taken over since the last call to `state`: only a
  // block that reads the state needs them, so after the last such block none are replayed
  // (an edit in prose, or in one of the last blocks, replays nothing).
  void settle(Overlay* state);

private:
  // The base's simulation of the block that new block `block` was before the edit, and the
  // shift of its bytes and lines; null when it has none or the edit touched it.
  struct Match {
    const BlockSimulation* old = nullptr;
    int64_t bytes = 0, lines = 0;
  };
  Match match(int block) const;
  // Whether the re-parse made new block `block` as a copy of m.old's block moved by m's shift
  // (SimulationBase::window): its planned actions are then the old ones, moved.
  bool copied(int block, const Match& m) const;
  // For a copy (copied()): its actions in the new plan, found from the old simulation's
  // pointers into the base's plan without reading either plan, when numbered as the old ones
  // were (true). False: look them up and compare (same_actions).
  bool copied_actions(int block, const Match& m, std::span<const PlannedAction>* actions) const;
  // The same actions, numbered the same, every position of theirs moved by the block's shift.
  // `copied`: the block is a copy of the old one (copied()), only the numbers are compared.
  bool same_actions(std::span<const PlannedAction> now, const Match& m, bool copied) const;
  static bool shifted_by(ByteRange now, ByteRange before, const Match& m);
  static bool shifted_by(uint32_t now, uint32_t before, const Match& m);
  // The same value: compared byte by byte, unless both are the same slice of the unchanged
  // text (outside the edit, at the same place in both documents).
  bool same_value(std::string_view now, std::string_view before) const;

  // Whether what `old` observed could read differently now: some observation key is (or is
  // below) a path that may differ between the two states before the block.
  bool may_differ(const BlockSimulation& old) const;
  // Every path changed by the base's blocks from next_old_ up to (not including) `old_index`
  // may now differ: those blocks were not taken over, so their changes are not in the state.
  void pass_old_blocks(size_t old_index);
  void mark(const FileStates& changes);

  const SimulationInput* input_;
  const SimulationBase* base_;
  TextChange change_;
  // When the base's changed files are known: the paths whose state may differ between the
  // state before the current block and the base's state before its counterpart. Observations
  // of other paths need not be read again. Unknown (every observation compared) otherwise.
  bool tracking_ = false;
  std::set<std::string, std::less<>> differ_;
  // observed_path_bit of every path in differ_ (kept up to date lazily: differ_bits_stale_).
  mutable uint64_t differ_bits_ = 0;
  mutable bool differ_bits_stale_ = false;
  size_t next_old_ = 0; // the base's blocks before this one are accounted for
  // Changes of blocks taken over, in order: the base's, which outlives this.
  std::vector<const FileStates*> unsettled_;
  // Where match() found the last block (mutable: a search position, not a result).
  mutable size_t old_block_cursor_ = 0, old_sim_cursor_ = 0;
  mutable size_t old_action_cursor_ = 0, new_action_cursor_ = 0; // the same in the plans
  // A copied block's actions are not looked up in the base's plan (same_actions), so the
  // cursor in it may lag behind: the next lookup there starts with a bisection.
  mutable bool old_action_cursor_lags_ = false;
};

} // namespace blockls::apply
