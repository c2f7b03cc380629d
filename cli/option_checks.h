// Range checks for the numeric command-line options. CLI11 alone turns "-1" into the largest
// unsigned value ("unlimited") and lets NaN, infinities and out-of-range numbers through; these
// validators make each of them a usage error (exit 2) with a message that names the range.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace blockls::cli {

// A whole number in decimal digits (an optional leading '+'), from `min` to `max` inclusive.
CLI::Validator whole_number(int64_t min, int64_t max);

// A finite decimal number above 0 and at most `max`.
CLI::Validator positive_number(double max);

// A value that is not empty (`--deny ''` once denied nothing, silently): `what` names it.
CLI::Validator not_empty(const std::string& what);

// The options given, for a usage message: "--a", "--a and --b", "--a, --b and --c".
std::string list_options(const std::vector<std::string>& options);

} // namespace blockls::cli
