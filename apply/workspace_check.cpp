// check_workspace: plan + simulate + merge.
#include "apply/workspace_check.h"

#include <algorithm>

namespace blockls::apply {

void merge_diagnostics(CheckedDocument* checked, std::vector<Diagnostic> extra) {
  for (Diagnostic& d : extra) {
    if (d.block >= 0 && static_cast<size_t>(d.block) < checked->verdicts.size()) {
      BlockVerdict& v = checked->verdicts[d.block];
      if (is_error(d.severity)) {
        ++v.error_count;
        v.valid = false;
      } else {
        ++v.warning_count;
      }
    }
    checked->diagnostics.push_back(std::move(d));
  }
  sort_by_position(checked->diagnostics);
}

WorkspaceCheck check_workspace(std::string_view text, CheckedDocument* checked,
                               const ApplyConfig& config, const ActionCatalog& catalog,
                               const FileSource& files) {
  WorkspaceCheck out;
  out.plan = build_plan(text, *checked, catalog);
  const SimulationInput input{text, checked, &out.plan, &config};
  out.simulation = simulate_plan(input, files);
  merge_diagnostics(checked, out.simulation.diagnostics);
  return out;
}

} // namespace blockls::apply
