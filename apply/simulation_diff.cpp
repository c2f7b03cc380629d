// simulation_difference (see simulation_diff.h).
#include "apply/simulation_diff.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

bool same_state(const FileState& a, const FileState& b) {
  return a.kind == b.kind && a.mode == b.mode && a.content == b.content;
}

bool same_effect(const FileEffect& a, const FileEffect& b) {
  return a.kind == b.kind && a.seq == b.seq && a.path == b.path && a.new_path == b.new_path &&
         a.before == b.before && a.dest_before == b.dest_before && a.after == b.after &&
         a.mode == b.mode && a.code == b.code && a.lang == b.lang && a.cwd == b.cwd &&
         a.tree.size() == b.tree.size() &&
         std::equal(a.tree.begin(), a.tree.end(), b.tree.begin(), [](const auto& x, const auto& y) {
           return x.first == y.first && same_state(x.second, y.second);
         });
}

// "" when the same; else the first field that differs.
std::string diagnostic_difference(const Diagnostic& a, const Diagnostic& b) {
  if (a.code != b.code || a.severity != b.severity || a.dialect != b.dialect) return "code";
  if (a.block != b.block) return fmt::format("block {} / {}", a.block, b.block);
  if (a.line != b.line) return fmt::format("line {} / {}", a.line + 1, b.line + 1);
  if (a.range.begin != b.range.begin || a.range.end != b.range.end)
    return fmt::format("range {}-{} / {}-{}", a.range.begin, a.range.end, b.range.begin,
                       b.range.end);
  if (a.message != b.message) return "message: " + a.message + " / " + b.message;
  if (a.fix_hint != b.fix_hint) return "hint: " + a.fix_hint + " / " + b.fix_hint;
  if (!(a.fixes == b.fixes)) return "fixes";
  if (a.line_dependent != b.line_dependent) return "line_dependent";
  if (a.across_blocks != b.across_blocks) return "across_blocks";
  return "";
}

std::string block_difference(const BlockSimulation& a, const BlockSimulation& b) {
  if (a.block != b.block || a.block_id != b.block_id) return "block index or id";
  if (a.ok != b.ok || a.failed_seq != b.failed_seq) return "verdict";
  if (a.first_seq != b.first_seq) return "first_seq";
  if (a.reusable != b.reusable) return "reusable";
  if (a.diagnostics_begin != b.diagnostics_begin || a.diagnostics_end != b.diagnostics_end)
    return "diagnostic range";
  if (a.actions.size() != b.actions.size()) return "action count";
  for (size_t i = 0; i < a.actions.size(); ++i) {
    const ActionOutcome& x = a.actions[i];
    const ActionOutcome& y = b.actions[i];
    if (!x.action || !y.action || x.action->seq != y.action->seq ||
        x.action->line != y.action->line)
      return fmt::format("action {}: planned action", i);
    if (result_json(x) != result_json(y)) return fmt::format("action {}: result", i);
    if (x.effects->size() != y.effects->size() ||
        !std::equal(x.effects->begin(), x.effects->end(), y.effects->begin(), same_effect))
      return fmt::format("action {}: effects", i);
  }
  if (a.observed->size() != b.observed->size() ||
      !std::equal(a.observed->begin(), a.observed->end(), b.observed->begin(),
                  [](const auto& x, const auto& y) {
                    return x.first == y.first && same_state(x.second.state, y.second.state) &&
                           x.second.tree == y.second.tree;
                  }))
    return "observations";
  if (a.lists_tree != b.lists_tree || a.observed_paths != b.observed_paths)
    return "summary of the observations";
  if (a.changes->size() != b.changes->size() ||
      !std::equal(a.changes->begin(), a.changes->end(), b.changes->begin(),
                  [](const auto& x, const auto& y) {
                    return x.first == y.first && same_state(x.second, y.second);
                  }))
    return "changes";
  return "";
}

} // namespace

std::string simulation_difference(const Simulation& a, const Simulation& b) {
  if (a.blocks.size() != b.blocks.size())
    return fmt::format("{} blocks against {}", a.blocks.size(), b.blocks.size());
  for (size_t i = 0; i < a.blocks.size(); ++i)
    if (std::string d = block_difference(a.blocks[i], b.blocks[i]); !d.empty())
      return fmt::format("block {} ({}): {}", a.blocks[i].block, a.blocks[i].block_id, d);
  if (a.diagnostics.size() != b.diagnostics.size())
    return fmt::format("{} diagnostics against {}", a.diagnostics.size(), b.diagnostics.size());
  for (size_t i = 0; i < a.diagnostics.size(); ++i)
    if (std::string d = diagnostic_difference(a.diagnostics[i], b.diagnostics[i]); !d.empty())
      return fmt::format("diagnostic {} ({} at line {}): {}", i, a.diagnostics[i].code,
                         a.diagnostics[i].line + 1, d);
  return "";
}

} // namespace blockls::apply
