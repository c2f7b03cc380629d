// One call for the readers of the workspace (`check --root`, the language server): plan the
// valid blocks of a checked document, simulate them over the real files, and merge the
// workspace diagnostics into the document's diagnostics and block verdicts.
#pragma once

#include "apply/simulate.h"

namespace blockls::apply {

struct WorkspaceCheck {
  Plan plan;
  Simulation simulation;
};

// Read-only. `checked` gains the workspace diagnostics; a block with an error-severity one
// is no longer valid.
WorkspaceCheck check_workspace(std::string_view text, CheckedDocument* checked,
                               const ApplyConfig& config, const ActionCatalog& catalog,
                               const FileSource& files);

// Adds `extra` to the document's diagnostics (kept ordered) and updates the verdicts.
void merge_diagnostics(CheckedDocument* checked, std::vector<Diagnostic> extra);

} // namespace blockls::apply
