// The plan: the actions of a document's valid blocks, in document order, with canonical action
// and parameter names (whatever dialect or alias the transcript used) and where each value came
// from, so workspace diagnostics and fixes can point back into the transcript.
#pragma once

#include "apply/small_map.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

struct ParamSource {
  const Parameter* param = nullptr; // the (last) parameter the value came from
  ByteRange value_range;            // the value in the transcript
  uint32_t line = 0;                // 0-based line of the parameter
};

struct PlannedAction {
  size_t seq = 0; // 1-based, document order over all planned actions
  int block = -1; // index into the parsed blocks
  std::string block_id;
  int command = 0; // index into the block's commands
  Dialect dialect = Dialect::telt;
  const ActionSpec* spec = nullptr;
  std::string action;            // canonical name ("file_write")
  SmallMap<std::string> params;  // canonical name -> value
  SmallMap<ParamSource> sources; // canonical name -> where it came from
  uint32_t line = 0;             // 0-based line of the command (TELT) or block start (NESL)
  ByteRange name_range;          // the command name / action value in the transcript

  const std::string* param(std::string_view name) const;
};

struct SkippedBlock {
  int block = -1;
  std::string block_id;
  uint32_t line = 0; // 0-based start line
  std::string code;  // the first error's code
  std::string message;
};

struct Plan {
  std::vector<PlannedAction> actions; // in document order, so sorted by block
  std::vector<SkippedBlock> skipped;  // blocks that are not valid, in document order
  // Valid blocks of a dialect that is checked and shown, never run (command input), in
  // document order; `code` is empty, `message` says what the block is.
  std::vector<SkippedBlock> not_run;
  std::vector<int> planned_blocks; // valid blocks with at least one action, in order
  size_t total_blocks = 0;

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

// `text` must be the text `checked` was computed from.
Plan build_plan(std::string_view text, const CheckedDocument& checked, const ActionCatalog& catalog,
                PlanRange range = {});

} // namespace blockls::apply
