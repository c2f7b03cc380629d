// The whole-process benchmarks' child run (files_benchmark, hostile_benchmark): what a user
// waits for, from fork to exit.
#pragma once

#include <string>
#include <vector>

namespace blockls::bench {

// Runs BINARY with ARGS, its standard output to /dev/null and its standard input from
// `stdin_path` (empty: inherited), and returns its wall time in seconds; negative when it could
// not run or exited with status 2 or more (a usage or I/O error, not findings).
// `peak_rss_kb`, when given, receives the child's peak resident set size (kB, from wait4).
double time_process(const std::string& binary, const std::vector<std::string>& args,
                    const std::string& stdin_path = {}, long* peak_rss_kb = nullptr);

} // namespace blockls::bench
