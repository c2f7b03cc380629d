// SimulationReuse (see simulation_reuse.h).
#include "apply/simulation_reuse.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace blockls::apply {
namespace {

using Kind = FileState::Kind;

// Stricter than Observation::operator==: a reused write keeps the mode it saw, so modes count.
bool same_observation(const Observation& a, const Observation& b) {
  return a.state.kind == b.state.kind && a.state.mode == b.state.mode && a.tree == b.tree &&
         (a.state.kind != Kind::file || a.state.content == b.state.content);
}

// The first element of sorted `items` for which `before` is false, searched from *cursor on
// (by bisection when the answer lies before it), which it then points at: a walk in order
// costs amortised O(1) per step instead of a binary search each.
template <class T, class Before>
typename std::vector<T>::const_iterator seek(const std::vector<T>& items, size_t* cursor,
                                             Before before) {
  auto it = items.begin() + static_cast<std::ptrdiff_t>(std::min(*cursor, items.size()));
  if (it != items.begin() && !before(*(it - 1)))
    it = std::partition_point(items.begin(), it, before);
  while (it != items.end() && before(*it))
    ++it;
  *cursor = static_cast<size_t>(it - items.begin());
  return it;
}

// Plan::actions_of(block), from *cursor on (see seek).
std::span<const PlannedAction> actions_in(const Plan& plan, int block, size_t* cursor) {
  const auto first =
      seek(plan.actions, cursor, [block](const PlannedAction& a) { return a.block < block; });
  auto last = first;
  while (last != plan.actions.end() && last->block == block)
    ++last;
  return {first, last};
}

} // namespace

// `now` is `before` moved by the block's shift.
bool SimulationReuse::shifted_by(ByteRange now, ByteRange before, const Match& m) {
  return static_cast<int64_t>(now.begin) == static_cast<int64_t>(before.begin) + m.bytes &&
         static_cast<int64_t>(now.end) == static_cast<int64_t>(before.end) + m.bytes;
}

bool SimulationReuse::shifted_by(uint32_t now, uint32_t before, const Match& m) {
  return static_cast<int64_t>(now) == static_cast<int64_t>(before) + m.lines;
}

SimulationReuse::SimulationReuse(const SimulationInput& input, const SimulationBase& base)
    : input_(&input), base_(&base),
      change_(base.change ? *base.change : find_change(base.text, input.text)),
      tracking_(base.changed_files != nullptr) {
  if (tracking_)
    for (const std::string& path : *base.changed_files)
      if (differ_.insert(path).second) differ_bits_ |= observed_path_bit(path);
}

void SimulationReuse::mark(const FileStates& changes) {
  if (!tracking_) return;
  for (const auto& entry : changes)
    if (differ_.insert(entry.first).second) differ_bits_ |= observed_path_bit(entry.first);
}

void SimulationReuse::pass_old_blocks(size_t old_index) {
  const auto& sims = base_->simulation->blocks;
  for (; next_old_ < old_index && next_old_ < sims.size(); ++next_old_)
    mark(*sims[next_old_].changes);
}

void SimulationReuse::ran(const BlockSimulation& now) {
  mark(*now.changes);
}

void SimulationReuse::settle(Overlay* state) {
  for (const FileStates* changes : unsettled_)
    state->merge(*changes);
  unsettled_.clear();
}

// A path reads differently when it, or a parent the overlay answers for, differs: Overlay::read
// lets a parent that is not a directory hide everything below it. A tree listing is compared
// whenever the block has one: an entry created in the directory is no path anyone recorded,
// so no list of changed files names it ("tree:" keys sort after every absolute path).
// The summary of the block's observations (BlockSimulation::observed_paths) answers most
// blocks without reading their map: no path that may differ has a bit among its paths.
bool SimulationReuse::may_differ(const BlockSimulation& old) const {
  if (!tracking_ || old.lists_tree) return true;
  if (differ_.empty()) return false;
  if (differ_bits_stale_) {
    differ_bits_ = 0;
    for (const std::string& path : differ_)
      differ_bits_ |= observed_path_bit(path);
    differ_bits_stale_ = false;
  }
  if ((differ_bits_ & old.observed_paths) == 0) return false;
  bool differs = false;
  for (const auto& entry : *old.observed) {
    for_each_path_prefix(entry.first,
                         [&](std::string_view p) { differs = differs || differ_.contains(p); });
    if (differs) return true;
  }
  return false;
}

SimulationReuse::Match SimulationReuse::match(int block) const {
  const auto& sims = base_->simulation->blocks;
  // A block outside the re-parsed window is the base's block there, moved by the window's
  // shift: found without reading the blocks of either document (two streams of cache misses
  // per block of a large transcript).
  if (const ReparseWindow* w = base_->window) {
    const bool before = static_cast<uint32_t>(block) < w->first_block;
    if (before || static_cast<uint32_t>(block) >= w->new_block_end) {
      const int64_t old_block = before ? block : block - w->block_delta();
      const auto sim = seek(sims, &old_sim_cursor_,
                            [old_block](const BlockSimulation& s) { return s.block < old_block; });
      if (sim == sims.end() || sim->block != old_block) return {};
      return {&*sim, before ? 0 : w->byte_delta(), before ? 0 : w->line_delta()};
    }
  }
  const Block& now = input_->checked->parsed.blocks[static_cast<size_t>(block)];
  size_t old_begin = 0;
  if (now.range.end <= change_.begin)
    old_begin = now.range.begin; // wholly before the edit
  else if (now.range.begin >= change_.new_end)
    old_begin = now.range.begin - change_.new_end + change_.old_end; // wholly after it
  else
    return {};
  // Blocks are asked in order, so both searches go on from where the last one stopped.
  const auto& old_blocks = base_->checked->parsed.blocks;
  const auto it = seek(old_blocks, &old_block_cursor_,
                       [old_begin](const Block& b) { return b.range.begin < old_begin; });
  if (it == old_blocks.end() || it->range.begin != old_begin ||
      it->range.size() != now.range.size() || it->dialect != now.dialect)
    return {};
  const int old_block = static_cast<int>(it - old_blocks.begin());
  const auto sim = seek(sims, &old_sim_cursor_,
                        [old_block](const BlockSimulation& s) { return s.block < old_block; });
  if (sim == sims.end() || sim->block != old_block) return {};
  return {&*sim, static_cast<int64_t>(now.range.begin) - static_cast<int64_t>(old_begin),
          static_cast<int64_t>(now.start_line) - static_cast<int64_t>(it->start_line)};
}

bool SimulationReuse::same_value(std::string_view now, std::string_view before) const {
  if (now.size() != before.size()) return false;
  const auto at = [](std::string_view value, std::string_view text) -> std::optional<size_t> {
    const auto v = reinterpret_cast<uintptr_t>(value.data());
    const auto t = reinterpret_cast<uintptr_t>(text.data());
    if (v < t || v - t > text.size() || text.size() - (v - t) < value.size()) return std::nullopt;
    return v - t;
  };
  const std::optional<size_t> n = at(now, input_->text), o = at(before, base_->text);
  if (n && o) {
    if (*n + now.size() <= change_.begin && *o == *n) return true;
    if (*n >= change_.new_end && *o == *n - change_.new_end + change_.old_end) return true;
  }
  return now == before;
}

bool SimulationReuse::copied(int block, const Match& m) const {
  const ReparseWindow* w = base_->window;
  if (!w) return false;
  if (static_cast<uint32_t>(block) < w->first_block)
    return m.old->block == block && m.bytes == 0 && m.lines == 0;
  if (static_cast<uint32_t>(block) >= w->new_block_end)
    return m.old->block == block - w->block_delta() && m.bytes == w->byte_delta() &&
           m.lines == w->line_delta();
  return false;
}

bool SimulationReuse::copied_actions(int block, const Match& m,
                                     std::span<const PlannedAction>* actions) const {
  const std::vector<PlannedAction>& old_plan = base_->plan->actions;
  const std::vector<PlannedAction>& plan = input_->plan->actions;
  const size_t n = m.old->actions.size();
  if (n == 0 || plan.empty()) return false;
  // The place of its first action in the base's plan (compared as addresses: a pointer
  // elsewhere, which a base simulated from its plan never holds, is no error but a miss).
  const auto first = reinterpret_cast<uintptr_t>(m.old->actions[0].action);
  const auto old_begin = reinterpret_cast<uintptr_t>(old_plan.data());
  if (first < old_begin || (first - old_begin) % sizeof(PlannedAction) != 0) return false;
  size_t index = (first - old_begin) / sizeof(PlannedAction);
  if (index > old_plan.size() || old_plan.size() - index < n) return false;
  // Every planned action of a block before the window is at the same place in both plans,
  // every one after it at the same distance from the end.
  if (static_cast<uint32_t>(block) >= base_->window->new_block_end) {
    index += plan.size();
    if (index < old_plan.size()) return false;
    index -= old_plan.size();
  }
  if (index > plan.size() || plan.size() - index < n) return false;
  // build_plan numbers the actions one by one from the first: the old numbers are the new
  // ones when the block's first action is numbered as the base's was.
  if (plan.front().seq + index != m.old->first_seq) return false;
  *actions = {plan.data() + index, n};
  new_action_cursor_ = index + n;
  old_action_cursor_lags_ = true;
  return true;
}

// The same actions, numbered the same: the messages and effects of the old simulation quote
// the action numbers and block ids, and its outcome follows from the actions' parameters.
bool SimulationReuse::same_actions(std::span<const PlannedAction> now, const Match& m,
                                   bool copied) const {
  // A copy of the old block (each of its ranges on its side of the re-parsed window, so moved
  // by the block's shift, and its values the same bytes) planned as the old one was: only the
  // numbering, which counts the actions of the blocks before it, can differ. Comparing its
  // parameters would read each one's source in both documents, and finding its old actions
  // would read the base's plan: a cache miss apiece.
  if (copied) {
    if (now.size() != m.old->actions.size()) return false;
    for (size_t i = 0; i < now.size(); ++i)
      if (now[i].seq != m.old->first_seq + i) return false;
    old_action_cursor_lags_ = true;
    return true;
  }
  if (old_action_cursor_lags_) {
    const int block = m.old->block;
    old_action_cursor_ = static_cast<size_t>(
        std::partition_point(base_->plan->actions.begin(), base_->plan->actions.end(),
                             [block](const PlannedAction& a) { return a.block < block; }) -
        base_->plan->actions.begin());
    old_action_cursor_lags_ = false;
  }
  const std::span<const PlannedAction> before =
      actions_in(*base_->plan, m.old->block, &old_action_cursor_);
  if (now.size() != before.size() || now.size() != m.old->actions.size()) return false;
  // The base's own plan (a re-check of the same text): nothing to compare.
  if (now.data() == before.data() && m.bytes == 0 && m.lines == 0) return true;
  // The same values, and every position the diagnostics may use moved with the block: a
  // value can come from outside it (an Aider edit's path named before its fence or by an
  // earlier edit).
  // (The names are the catalog's: the same name is almost always the same view of it.)
  const auto same_params = [&](const SmallMap<PlannedValue>& x, const SmallMap<PlannedValue>& y) {
    if (x.size() != y.size()) return false;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
      if ((i->first.data() != j->first.data() && i->first != j->first) ||
          !same_value(i->second.text, j->second.text) ||
          !shifted_by(i->second.value_range(), j->second.value_range(), m) ||
          !shifted_by(i->second.line(), j->second.line(), m))
        return false;
    return true;
  };
  for (auto a = now.begin(), b = before.begin(); a != now.end(); ++a, ++b)
    // Cheap fields first; the same spec is the same action name (build_plan takes it there).
    if (a->seq != b->seq || a->spec != b->spec || a->dialect != b->dialect ||
        !shifted_by(a->name_range, b->name_range, m) || !shifted_by(a->line, b->line, m) ||
        a->block_id != b->block_id || !same_params(a->params, b->params))
      return false;
  return true;
}

BlockWriter::BlockWriter(std::vector<BlockSimulation>* blocks, std::vector<BlockSimulation>* spare,
                         size_t count)
    : blocks_(blocks) {
  if (spare && !spare->empty()) {
    *blocks = std::move(*spare);
    spare->clear();
  }
  blocks->reserve(count);
}

// Assigned over a spare block: what the two share (the values of a block taken over twice)
// costs no reference count.
BlockSimulation& BlockWriter::copy_of(const BlockSimulation& block) {
  if (written_ < blocks_->size()) return (*blocks_)[written_++] = block;
  ++written_;
  return blocks_->emplace_back(block);
}

BlockSimulation& BlockWriter::add(BlockSimulation&& block) {
  if (written_ < blocks_->size()) return (*blocks_)[written_++] = std::move(block);
  ++written_;
  return blocks_->emplace_back(std::move(block));
}

void BlockWriter::finish() {
  blocks_->erase(blocks_->begin() + static_cast<std::ptrdiff_t>(written_), blocks_->end());
}

bool SimulationReuse::reuse(int block, Overlay* state, Simulation* sim, BlockWriter* out) {
  const Match m = match(block);
  if (!m.old) return false;
  const size_t old_index = static_cast<size_t>(m.old - base_->simulation->blocks.data());
  // The blocks a few places on are likely taken over too: their reference counts (one per
  // block, bundle_shared_values) are loaded while this one is looked at.
  if (constexpr size_t ahead = 8; old_index + ahead < base_->simulation->blocks.size())
    base_->simulation->blocks[old_index + ahead].observed.prefetch_count();
  if (old_index < next_old_) return false; // its changes are already counted as differing
  pass_old_blocks(old_index);
  if (!m.old->reusable) return false;
  std::span<const PlannedAction> actions;
  const bool copy = copied(block, m);
  if (!copy || !copied_actions(block, m, &actions)) {
    actions = actions_in(*input_->plan, block, &new_action_cursor_);
    if (!same_actions(actions, m, copy)) return false;
  }
  const auto& old_diagnostics = base_->simulation->diagnostics;
  if (m.lines != 0)
    for (uint32_t i = m.old->diagnostics_begin; i < m.old->diagnostics_end; ++i)
      if (old_diagnostics[i].line_dependent) return false;
  if (may_differ(*m.old)) {
    settle(state);
    for (const auto& [key, seen] : *m.old->observed)
      if (!same_observation(observe(*state, key), seen)) return false;
  }
  // Taken over: after it, the paths it changed hold the same in both states.
  next_old_ = old_index + 1;
  if (tracking_ && !differ_.empty())
    for (const auto& entry : *m.old->changes)
      if (differ_.erase(entry.first) != 0) differ_bits_stale_ = true;

  // Copied in place (a BlockSimulation is ~250 bytes with its inline outcome).
  BlockSimulation& now = out->copy_of(*m.old);
  now.block = block;
  for (size_t i = 0; i < now.actions.size(); ++i)
    now.actions[i].action = &actions[i];
  now.diagnostics_begin = static_cast<uint32_t>(sim->diagnostics.size());
  for (uint32_t i = m.old->diagnostics_begin; i < m.old->diagnostics_end; ++i) {
    sim->diagnostics.push_back(old_diagnostics[i]);
    shift_diagnostic(sim->diagnostics.back(), m.bytes, m.lines, block - m.old->block);
  }
  now.diagnostics_end = static_cast<uint32_t>(sim->diagnostics.size());
  unsettled_.push_back(&*m.old->changes);
  ++sim->reused_blocks;
  return true;
}

} // namespace blockls::apply
