// The `blockls` command line: subcommands, options and exit codes. main() only forwards
// here, so tests can run the real command in-process with their own streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace blockls::cli {

// Exit codes shared by every subcommand.
enum ExitCode { kExitOk = 0, kExitFindings = 1, kExitUsage = 2 };

// `args` excludes the program name. Standard input is read from fd 0 when a file is "-".
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

const char* version();

} // namespace blockls::cli
