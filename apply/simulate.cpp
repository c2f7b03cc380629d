// The simulation of a plan, block by block, over an overlay: each action is run by its runner
// (apply/actions/), which sees the files as the earlier actions of the document left them. A
// failing block leaves the files as they were; what each block read is recorded.
#include "apply/simulate.h"

#include "apply/actions/action_host.h"
#include "apply/simulation_reuse.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace blockls::apply {
namespace {

using Kind = FileState::Kind;

// Records what a block reads of the state before it (the first read of each key: a block's
// own writes are in the overlay above this source). Contents are shared, not hashed: an apply
// compares them only for the blocks it runs.
class RecordingSource final : public FileSource {
public:
  RecordingSource(const FileSource& inner, std::map<std::string, Observation>* seen)
      : inner_(&inner), seen_(seen) {}
  FileState read(const std::string& path) const override {
    FileState s = inner_->read(path);
    seen_->try_emplace(path, Observation{s, {}});
    return s;
  }
  std::vector<std::string> list_tree(const std::string& dir) const override {
    std::vector<std::string> entries = inner_->list_tree(dir);
    seen_->try_emplace("tree:" + dir, Observation{{}, entries});
    return entries;
  }

private:
  const FileSource* inner_;
  std::map<std::string, Observation>* seen_;
};

// The files under the state of a plan, each read once (simulate_plan): the check writes
// nothing, so a file reads the same every time it is asked.
class MemoSource final : public FileSource {
public:
  explicit MemoSource(const FileSource& inner) : inner_(&inner) {}
  FileState read(const std::string& path) const override {
    auto it = reads_.find(path);
    if (it == reads_.end()) it = reads_.emplace(path, inner_->read(path)).first;
    return it->second;
  }
  std::vector<std::string> list_tree(const std::string& dir) const override {
    return inner_->list_tree(dir);
  }

private:
  const FileSource* inner_;
  mutable std::unordered_map<std::string, FileState> reads_;
};

// The files before the whole plan, as an EDIT_OVERLAP report reads them: a block that reads
// them depends on more than what it observed (see BlockSimulation::reusable).
class FlaggingSource final : public FileSource {
public:
  FlaggingSource(const FileSource& inner, bool* read) : inner_(&inner), read_(read) {}
  FileState read(const std::string& path) const override {
    *read_ = true;
    return inner_->read(path);
  }
  std::vector<std::string> list_tree(const std::string& dir) const override {
    *read_ = true;
    return inner_->list_tree(dir);
  }

private:
  const FileSource* inner_;
  bool* read_;
};

// Fills BlockSimulation::lists_tree and observed_paths from `observed`: a bit for every key
// and for every parent of one, as SimulationReuse looks a changed path up among them.
void summarize_observed(BlockSimulation* sim) {
  sim->lists_tree = false;
  sim->observed_paths = 0;
  for (const auto& entry : *sim->observed) {
    const std::string_view key = entry.first;
    if (key.starts_with("tree:"))
      sim->lists_tree = true;
    else
      for_each_path_prefix(
          key, [sim](std::string_view p) { sim->observed_paths |= observed_path_bit(p); });
  }
}

// What one block's simulation shares with the analyses that take it over, in one allocation
// (bundle_shared_values).
struct SharedBlockValues {
  std::map<std::string, Observation> observed;
  FileStates changes;
  boost::container::small_vector<nlohmann::json, 1> data;
  boost::container::small_vector<std::vector<FileEffect>, 1> effects;
};

// Moves the block's shared values (its observations, its changes, its actions' data and
// effects) into one allocation with one reference count: taking the block over copies them,
// and freeing the analysis it came from, often on the other core, releases them, so one
// counter per block is touched instead of one per value.
void bundle_shared_values(BlockSimulation* sim) {
  size_t values = !sim->observed.empty_value() + !sim->changes.empty_value();
  for (const ActionOutcome& o : sim->actions)
    values += !o.data.empty_value() + !o.effects.empty_value();
  if (values < 2) return;
  auto shared = std::make_shared<SharedBlockValues>();
  shared->data.resize(sim->actions.size());
  shared->effects.resize(sim->actions.size());
  const auto move_into = [&shared](auto* value, auto* slot) {
    if (value->empty_value()) return;
    *slot = std::move(value->edit());
    *value = {shared, slot};
  };
  move_into(&sim->observed, &shared->observed);
  move_into(&sim->changes, &shared->changes);
  for (size_t i = 0; i < sim->actions.size(); ++i) {
    move_into(&sim->actions[i].data, &shared->data[i]);
    move_into(&sim->actions[i].effects, &shared->effects[i]);
  }
}

// simulate_block, with the plan's memo of resolved paths (null: resolve every time).
BlockSimulation simulate_block_with(const SimulationInput& plan_input, int block,
                                    const FileSource& before, std::vector<Diagnostic>* diagnostics,
                                    Overlay* after, PathMemo* memo) {
  BlockSimulation sim;
  sim.block = block;
  sim.diagnostics_begin = static_cast<uint32_t>(diagnostics->size());
  bool read_original = false;
  SimulationInput input = plan_input;
  std::optional<FlaggingSource> original;
  if (plan_input.original) input.original = &original.emplace(*plan_input.original, &read_original);
  RecordingSource recording(before, &sim.observed.edit());
  Overlay files(recording);
  for (const PlannedAction& a : input.plan->actions_of(block)) {
    sim.block_id = a.block_id;
    if (sim.actions.empty()) sim.first_seq = a.seq;
    ActionOutcome out;
    ActionHost(input, a, &files, diagnostics, &out, memo).run();
    if (!out.success && sim.ok) {
      sim.ok = false;
      sim.failed_seq = a.seq;
    }
    sim.actions.push_back(std::move(out));
  }
  if (!sim.ok) {
    for (ActionOutcome& o : sim.actions) {
      o.effects = {};
      if (o.success) {
        o.success = false;
        o.code = "NOT_RUN";
        o.error = fmt::format("not run: action {} of {} failed, so the block changed nothing",
                              sim.failed_seq, block_of_actions(sim.block_id));
        o.data = {};
      }
    }
  } else {
    sim.changes = files.take_entries();
    if (after) after->merge(*sim.changes);
  }
  sim.diagnostics_end = static_cast<uint32_t>(diagnostics->size());
  sim.reusable = !read_original;
  summarize_observed(&sim);
  bundle_shared_values(&sim);
  return sim;
}
} // namespace

std::string block_of_actions(const std::string& block_id) {
  return block_id.empty() ? "its block" : "block " + block_id;
}

BlockSimulation simulate_block(const SimulationInput& input, int block, const FileSource& before,
                               std::vector<Diagnostic>* diagnostics, Overlay* after) {
  return simulate_block_with(input, block, before, diagnostics, after, nullptr);
}

Simulation simulate_plan(const SimulationInput& input, const FileSource& source,
                         const SimulationOptions& options) {
  Simulation sim;
  const MemoSource files(source);
  PathMemo local_paths;
  PathMemo* paths = options.paths ? options.paths : &local_paths;
  Overlay state(files);
  SimulationInput with_original = input;
  with_original.original = &files;
  std::optional<SimulationReuse> reuse;
  if (options.base) reuse.emplace(with_original, *options.base);
  BlockWriter out(&sim.blocks, options.spare, input.plan->planned_blocks.size());
  for (int block : input.plan->planned_blocks) {
    if (reuse && reuse->reuse(block, &state, &sim, &out)) continue;
    if (reuse) reuse->settle(&state);
    const BlockSimulation& now =
        out.add(simulate_block_with(with_original, block, state, &sim.diagnostics, &state, paths));
    if (reuse) reuse->ran(now);
  }
  out.finish();
  return sim;
}

uint64_t observed_path_bit(std::string_view path) {
  return uint64_t{1} << (std::hash<std::string_view>{}(path)&63);
}

Observation observe(const FileSource& source, const std::string& key) {
  if (key.starts_with("tree:")) return {{}, source.list_tree(key.substr(5))};
  return {source.read(key), {}};
}

bool Observation::operator==(const Observation& other) const {
  if (state.kind != other.state.kind || tree != other.tree) return false;
  return state.kind != Kind::file || state.content == other.state.content;
}

} // namespace blockls::apply
