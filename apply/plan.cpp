// Building the plan from a checked document. Only blocks whose verdict is valid contribute;
// the catalog resolves dialect names and aliases to canonical names.
#include "apply/plan.h"

#include "grammar/dialects.h"

#include <algorithm>

namespace blockls::apply {

const std::string_view* PlannedAction::param(std::string_view name) const {
  const auto it = params.find(name);
  return it == params.end() ? nullptr : &it->second.text;
}

std::span<const PlannedAction> Plan::actions_of(int block) const {
  const auto first = std::lower_bound(actions.begin(), actions.end(), block,
                                      [](const PlannedAction& a, int b) { return a.block < b; });
  auto last = first;
  while (last != actions.end() && last->block == block)
    ++last;
  return {first, last};
}

namespace {

// The index of each block's first error-severity diagnostic (-1: none), in one pass: looking
// it up block by block made a transcript with many broken blocks quadratic.
std::vector<int32_t> first_error_of_each_block(const CheckedDocument& checked) {
  std::vector<int32_t> first(checked.parsed.blocks.size(), -1);
  for (size_t i = 0; i < checked.diagnostics.size(); ++i) {
    const Diagnostic& d = checked.diagnostics[i];
    if (d.block >= 0 && static_cast<size_t>(d.block) < first.size() && is_error(d.severity) &&
        first[static_cast<size_t>(d.block)] < 0)
      first[static_cast<size_t>(d.block)] = static_cast<int32_t>(i);
  }
  return first;
}

} // namespace

Plan build_plan(std::string_view text, const CheckedDocument& checked, const ActionCatalog& catalog,
                PlanRange range, std::vector<PlannedAction>* spare) {
  Plan plan;
  size_t written = 0; // actions of the plan; those after them in `actions` are spare ones
  if (spare && !spare->empty()) {
    plan.actions = std::move(*spare);
    spare->clear();
  }
  const std::vector<Block>& blocks = checked.parsed.blocks;
  plan.total_blocks = blocks.size();
  size_t seq = range.first_seq;
  std::vector<int32_t> first_error; // filled at the first invalid block
  plan.actions.reserve(std::min(range.last, blocks.size()) - std::min(range.first, blocks.size()));
  for (size_t b = range.first; b < std::min(range.last, blocks.size()); ++b) {
    const Block& block = blocks[b];
    const std::string_view action_param = dialect_info(block.dialect).catalog.action_param;
    if (b >= checked.verdicts.size() || !checked.verdicts[b].valid) {
      SkippedBlock s{static_cast<int>(b), block.id, block.start_line, "INVALID_BLOCK",
                     "the block is not valid"};
      if (first_error.empty()) first_error = first_error_of_each_block(checked);
      if (const int32_t i = first_error[b]; i >= 0) {
        s.code = std::string(checked.diagnostics[static_cast<size_t>(i)].code);
        s.message = checked.diagnostics[static_cast<size_t>(i)].message;
      }
      plan.skipped.push_back(std::move(s));
      continue;
    }
    if (dialect_info(block.dialect).catalog.never_run) {
      const std::string name = block.commands.empty() ? "" : std::string(block.commands[0].name);
      plan.not_run.push_back({static_cast<int>(b), block.id, block.start_line, "",
                              "command input for '" + name + "' (" +
                                  std::string(dialect_name(block.dialect)) +
                                  "): checked, never run"});
      continue;
    }
    bool any = false;
    for (size_t c = 0; c < block.commands.size(); ++c) {
      const Command& command = block.commands[c];
      const ActionSpec* spec = catalog.find(block.dialect, command.name);
      if (!spec) continue; // cannot happen for a valid block
      // Built in place: an action is ~400 bytes with its inline maps, a move is a copy of them.
      // A spare one has every field set below but its parameters.
      PlannedAction& a =
          written < plan.actions.size() ? plan.actions[written] : plan.actions.emplace_back();
      a.params.clear();
      ++written;
      a.seq = ++seq;
      a.block = static_cast<int>(b);
      a.block_id = block.id;
      a.command = static_cast<int>(c);
      a.dialect = block.dialect;
      a.spec = spec;
      a.action = spec->name;
      a.line = command.line;
      a.name_range = command.name_range;
      for (const Parameter& p : command.params) {
        if (!action_param.empty() && p.name == action_param)
          continue; // names the command (NESL's `action`)
        const ParamSpec* ps = spec->find_param(block.dialect, p.name);
        if (!ps) continue; // unknown parameters are ignored (a warning was reported)
        const std::string_view value = p.value(text);
        auto [it, inserted] = a.params.emplace(ps->name, PlannedValue{value, &p});
        if (inserted) continue;
        // A repeated multi-line path parameter (TELT READ_FILES) collects one path per line.
        if (ps->multiline_paths) {
          std::string joined;
          joined.reserve(it->second.text.size() + 1 + value.size());
          joined.append(it->second.text).append(1, '\n').append(value);
          it->second.text = plan.joined.emplace_back(std::move(joined));
        } else {
          it->second.text = value;
        }
        it->second.param = &p;
      }
      any = true;
    }
    if (any) plan.planned_blocks.push_back(static_cast<int>(b));
  }
  plan.actions.erase(plan.actions.begin() + static_cast<std::ptrdiff_t>(written),
                     plan.actions.end());
  return plan;
}

} // namespace blockls::apply
