// The first difference between two simulations of the same document, field by field: the oracle
// of incremental workspace checks (a simulation that reuses an earlier one must equal a full
// one), shared by the unit test and the fuzz target.
#pragma once

#include "apply/simulate.h"

#include <string>

namespace blockls::apply {

// "" when `a` and `b` have the same blocks (ids, verdicts, outcomes as result_json shows them,
// effects, observations, changes, reusability, diagnostic ranges) and the same diagnostics
// (code, severity, block, line, range, message, hint, fixes); else what differs first.
std::string simulation_difference(const Simulation& a, const Simulation& b);

} // namespace blockls::apply
