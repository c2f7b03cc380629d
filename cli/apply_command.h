// `blockls apply`: run the valid blocks of transcripts against a directory (or show what would
// change with --dry-run), and `--recover` of interrupted runs.
#pragma once

#include "cli/input.h"
#include "grammar/dialect_set.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {
class ActionCatalog;
namespace apply {
struct ApplyConfig;
struct FileEffect;
} // namespace apply
} // namespace blockls

namespace blockls::cli {

struct ApplyRequest {
  std::vector<std::string> files;
  unsigned jobs = 0; // transcripts checked at once (0: one per core); applying stays in order
  std::string root;
  std::string format = "text"; // text | json
  bool dry_run = false;
  bool allow_exec = false;
  bool git_commit = false;
  bool recover = false;
  double exec_timeout_seconds = 30;
  std::vector<std::string> deny;         // extra deny globs
  std::vector<std::string> allow_roots;  // extra allowed roots
  std::optional<uint64_t> max_file_size; // --max-file-size (else apply::kDefaultMaxFileBytes)
  DialectSet dialects = DialectSet::all();
  const ActionCatalog* catalog = nullptr;
  InputLimits limits;
};

int run_apply(const ApplyRequest& request, std::ostream& out, std::ostream& err);

// The apply configuration of a request (root, allowed roots, deny globs, exec); false after
// printing why (as `blockls COMMAND: ...`) when the root cannot be used.
bool make_apply_config(const ApplyRequest& request, apply::ApplyConfig* config, std::ostream& err,
                       std::string_view command);

// The unified diff of simulated effects, paths relative to the root (what --dry-run prints).
std::string effects_diff(const apply::ApplyConfig& config,
                         const std::vector<apply::FileEffect>& effects);

} // namespace blockls::cli
