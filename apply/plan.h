// The plan: the actions of a document's valid blocks, in document order, with canonical action
// and parameter names (whatever dialect or alias the transcript used) and where each value came
// from, so workspace diagnostics and fixes can point back into the transcript.
#pragma once

#include "apply/small_map.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

// A planned parameter: its value and the (last) parameter of the checked document it came
// from (a pointer, not a copy of its range and line: an action is built on every keystroke,
// and its size is most of what writing the plan costs).
struct PlannedValue {
  // A view of the transcript, of a decoded value of the checked document, or of the plan's
  // own storage (a value joined from several lines).
  std::string_view text;
  const Parameter* param = nullptr;

  // Where the value is in the transcript, and the parameter's 0-based line.
  ByteRange value_range() const { return param ? param->value_range : ByteRange{}; }
  uint32_t line() const { return param ? param->line : 0; }
};

struct PlannedAction {
  size_t seq = 0;            // 1-based, document order over all planned actions
  int block = -1;            // index into the parsed blocks
  std::string_view block_id; // the block's, in the checked document
  int command = 0;           // index into the block's commands
  Dialect dialect = Dialect::telt;
  const ActionSpec* spec = nullptr;
  std::string_view action;       // canonical name ("file_write"), the catalog's
  SmallMap<PlannedValue> params; // canonical name (the catalog's) -> value and its source
  uint32_t line = 0;             // 0-based line of the command (TELT) or block start (NESL)
  ByteRange name_range;          // the command name / action value in the transcript

  // The value of parameter `name`, or null.
  const std::string_view* param(std::string_view name) const;

  // User-provided, so that `actions.emplace_back()` (value-initialisation) only runs the
  // member initialisers instead of first zeroing the whole object (a `rep stos` of its ~230
  // bytes, slow to start, for every action of the transcript on every keystroke).
  PlannedAction() noexcept {}
  // Never throws (the views and inline maps move without allocating), so that the plan's
  // vector moves its actions when it grows instead of copying them.
  PlannedAction(PlannedAction&&) noexcept = default;
  PlannedAction& operator=(PlannedAction&&) noexcept = default;
  PlannedAction(const PlannedAction&) = default;
  PlannedAction& operator=(const PlannedAction&) = default;
};

struct SkippedBlock {
  int block = -1;
  std::string block_id;
  uint32_t line = 0; // 0-based start line
  std::string code;  // the first error's code
  std::string message;
};

// A plan's values are views of the transcript, of the checked document and of the catalog it
// was built from: it must not outlive them. Moved, never copied (values may be views of
// `joined`, which a copy would not carry).
struct Plan {
  Plan() = default;
  Plan(Plan&&) noexcept = default;
  Plan& operator=(Plan&&) noexcept = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  std::vector<PlannedAction> actions; // in document order, so sorted by block
  std::vector<SkippedBlock> skipped;  // blocks that are not valid, in document order
  // Valid blocks of a dialect that is checked and shown, never run (command input), in
  // document order; `code` is empty, `message` says what the block is.
  std::vector<SkippedBlock> not_run;
  std::vector<int> planned_blocks; // valid blocks with at least one action, in order
  size_t total_blocks = 0;
  // Values joined from several parameters (a multi-line path list), which no other text holds;
  // a deque, so that the views of them survive its growth and the plan's moves.
  std::deque<std::string> joined;

  // The actions of block `block`: one run of `actions`, found by bisection (so going through
  // every block's actions is linear, not quadratic, in the plan's size).
  std::span<const PlannedAction> actions_of(int block) const;
};

// Which blocks a plan covers: [first, last) of the document's, their actions numbered from
// first_seq + 1. The plan of one block whose predecessors' plan is known (stream --apply,
// block by block) costs that block, not the document.
struct PlanRange {
  size_t first = 0;
  size_t last = SIZE_MAX;
  size_t first_seq = 0; // the actions of the blocks before `first`
};

// `text` must be the text `checked` was computed from. `spare`: the actions of a plan nobody
// reads any more (the language server's superseded analysis), moved out and cleared here: the
// plan's actions are written over them, in their storage, instead of into new storage while
// they are destroyed one by one. Whatever they hold, the plan is the same as without them.
Plan build_plan(std::string_view text, const CheckedDocument& checked, const ActionCatalog& catalog,
                PlanRange range = {}, std::vector<PlannedAction>* spare = nullptr);

} // namespace blockls::apply
