// The `file_patch` action (a Codex `*** Update File:`) over the simulation's view of the
// files: the file must exist; its `hunks` (the update's lines, read again by the grammar's
// hunk reader, grammar/patch/patch_hunks.h) are located and applied by apply/patch_locate.h;
// with `new_path` the result is written there and the old file removed. A hunk not found is
// SEARCH_NOT_FOUND (with the closest region of the file as a hint), one found more than once
// SEARCH_AMBIGUOUS; the block is all or nothing, like every action.
#pragma once

#include "apply/action_host.h"

namespace blockls::apply {

// Runs host.planned() when it is file_patch; false (nothing done) for other actions.
bool run_patch_action(ActionHost& host);

} // namespace blockls::apply
