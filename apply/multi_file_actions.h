// Actions over several files at once from clada's unified-design.yaml: files_replace_all_text
// (paths: one per line; old_text; new_text). clada lists it as "tentative" and no tool ran it,
// so its result follows the schema's `returns`: data {results: [{path, replacements_made}]}.
// A block is all or nothing, so one missing file fails the whole action.
#pragma once

#include "apply/action_host.h"

namespace blockls::apply {

// Runs host.planned() when it is a multi-file action; false (nothing done) for other actions.
bool run_multi_file_action(ActionHost& host);

} // namespace blockls::apply
