// Reuse of an earlier simulation after an edit (simulate_plan with a SimulationBase): a block
// outside the edited bytes, with the same planned actions, that observes the same state as it
// did then, would run exactly as it ran; its simulation is taken over with its positions
// shifted and its changes replayed on the state, instead of running its actions again.
#pragma once

#include "apply/simulate.h"
#include "grammar/router/incremental_parse.h"

#include <span>

namespace blockls::apply {

class SimulationReuse {
public:
  SimulationReuse(const SimulationInput& input, const SimulationBase& base);

  // When block `block` of the new document can be reused: appends its simulation to `sim`
  // (with its diagnostics), applies its changes to `state` (the state before it) and returns
  // true. Otherwise changes nothing and returns false.
  bool reuse(int block, Overlay* state, Simulation* sim) const;

private:
  // The base's simulation of the block that new block `block` was before the edit, and the
  // shift of its bytes and lines; null when it has none or the edit touched it.
  struct Match {
    const BlockSimulation* old = nullptr;
    int64_t bytes = 0, lines = 0;
  };
  Match match(int block) const;
  // The same actions, numbered the same, every position of theirs moved by the block's shift.
  bool same_actions(std::span<const PlannedAction> now, const Match& m) const;
  static bool shifted_by(ByteRange now, ByteRange before, const Match& m);
  static bool shifted_by(uint32_t now, uint32_t before, const Match& m);

  const SimulationInput* input_;
  const SimulationBase* base_;
  TextChange change_;
};

} // namespace blockls::apply
