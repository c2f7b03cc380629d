// The one apply loop (see run.h).
#include "apply/run.h"

#include <algorithm>

namespace blockls::apply {
namespace {

// The entry of `list` (sorted by block) for `block`, or null.
const SkippedBlock* find_block(const std::vector<SkippedBlock>& list, int block) {
  auto it = std::lower_bound(list.begin(), list.end(), block,
                             [](const SkippedBlock& s, int b) { return s.block < b; });
  return it != list.end() && it->block == block ? &*it : nullptr;
}

// The first failing action of a simulation that is not ok: its code and error.
void take_failure(const BlockSimulation& sim, BlockOutcome* out) {
  for (const ActionOutcome& o : sim.actions)
    if (o.action->seq == sim.failed_seq) {
      out->code = o.code;
      out->error = o.error;
    }
}

BlockOutcome run_one(const RunInput& input, const BlockRequest& request, StateDir* state) {
  const SimulationInput& doc = input.document;
  const Plan& plan = *doc.plan;
  BlockOutcome out;
  out.block = request.block;
  const Block& block = doc.checked->parsed.blocks[static_cast<size_t>(request.block)];
  out.block_id = block.id;
  out.line = block.start_line;
  if (const SkippedBlock* s = find_block(plan.skipped, request.block)) {
    out.status = BlockStatus::skipped;
    out.code = s->code;
    out.error = s->message;
    return out;
  }
  if (const SkippedBlock* s = find_block(plan.not_run, request.block)) {
    out.status = BlockStatus::not_run;
    out.error = s->message;
    return out;
  }
  if (!std::binary_search(plan.planned_blocks.begin(), plan.planned_blocks.end(), request.block)) {
    out.status = BlockStatus::no_actions;
    return out;
  }

  // The block's simulation: the caller's (from the check), else one over the files now.
  BlockSimulation now;
  const BlockSimulation* sim = request.simulation;
  if (!sim) {
    DiskSource disk(doc.config->max_file_bytes);
    std::vector<Diagnostic> dropped; // simulate_block always reports somewhere
    now = simulate_block(doc, request.block, input.source ? *input.source : disk,
                         input.diagnostics ? input.diagnostics : &dropped, input.simulated);
    sim = &now;
  }
  if (input.dry_run || !sim->ok) {
    out.status = sim->ok ? BlockStatus::applied : BlockStatus::failed;
    out.actions = sim->actions;
    if (!sim->ok) take_failure(*sim, &out);
    return out;
  }

  std::vector<Diagnostic> recheck;
  BlockRun run = run_block_on_disk(doc, *sim, *state, &recheck);
  out.status = run.applied ? BlockStatus::applied : BlockStatus::failed;
  out.code = std::move(run.code);
  out.error = std::move(run.error);
  out.changed_files = std::move(run.changed_files);
  out.touched = std::move(run.touched);
  out.exec_ran = run.exec_ran;
  out.actions = std::move(run.sim.actions);
  return out;
}

} // namespace

const char* status_name(BlockStatus status) {
  switch (status) {
  case BlockStatus::applied:
    return "applied";
  case BlockStatus::failed:
    return "failed";
  case BlockStatus::skipped:
    return "skipped";
  case BlockStatus::not_run:
    return "not_run";
  case BlockStatus::no_actions:
    return "no_actions";
  }
  return "?";
}

std::vector<BlockOutcome> run_blocks(const RunInput& input, const std::vector<BlockRequest>& blocks,
                                     StateDir* state) {
  std::vector<BlockOutcome> outcomes;
  outcomes.reserve(blocks.size());
  for (const BlockRequest& request : blocks)
    outcomes.push_back(run_one(input, request, state));
  return outcomes;
}

bool prepare_state(StateDir& state, const ApplyConfig& config, std::vector<std::string>* recovered,
                   std::string* error) {
  return state.open(config, error) && state.recover(recovered, error);
}

} // namespace blockls::apply
