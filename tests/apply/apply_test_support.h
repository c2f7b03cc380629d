// Helpers of the apply tests: temporary roots, a snapshot of a directory tree (to prove that
// nothing outside the root changed, or that a dry run wrote nothing), and rewriting the
// `/tmp/<case>/` paths of the clada/slupe cases into a temporary root.
#pragma once

#include "apply/config.h"
#include "apply/disk_backend.h"
#include "apply/plan.h"
#include "apply/workspace_check.h"
#include "diagnostics/check.h"
#include "grammar/model.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::test {

// path (relative to `dir`) -> "file:<content>" / "dir:<mode>" / "link:<target>" (+ mode for files).
using TreeSnapshot = std::map<std::string, std::string>;
TreeSnapshot snapshot_tree(const std::string& dir);

// Every "/tmp/<segment>/" becomes "<root>/".
std::string rewrite_tmp_paths(const std::string& text, const std::string& root);

// Creates `path`'s parent directories and writes `text`.
void put_file(const std::string& path, const std::string& text);
std::string get_file(const std::string& path); // "<missing>" when absent
// Removes everything inside `dir` (not `dir` itself).
void empty_dir(const std::string& dir);
// Sets `path`'s mtime and atime an hour back (not following a symlink): out of any racy
// window, as a file or directory nobody touched for a while is.
void age(const std::string& path);

// A fresh temporary directory as the apply root (canonical path in `dir`), removed afterwards.
struct TempRoot {
  std::string dir;
  apply::ApplyConfig config;
  TempRoot();
  ~TempRoot();
  TempRoot(const TempRoot&) = delete;
  TempRoot& operator=(const TempRoot&) = delete;
};

// The diagnostics of `text` checked against the files under `root` (what `check --root` and
// the language server with a folder open report).
std::vector<Diagnostic> check_in(const std::string& text, const TempRoot& root);

// A transcript checked, then checked against the files (check_workspace), kept together: the
// workspace check points into the text and the checked document, so they stay where they are.
struct WorkspaceChecked {
  std::string text;
  CheckedDocument checked;
  apply::WorkspaceCheck ws;
};
std::unique_ptr<WorkspaceChecked> check_with_workspace(const std::string& text,
                                                       const apply::ApplyConfig& config);

// Runs block `block` of a checked transcript on disk (apply's re-check, journal and writes),
// holding the root's state directory for the run; its diagnostics go to `diags`.
apply::BlockRun run_checked_block_on_disk(const WorkspaceChecked& c,
                                          const apply::ApplyConfig& config,
                                          std::vector<Diagnostic>* diags, size_t block = 0);

// The first diagnostic with `code`, or null.
const Diagnostic* find_code(const std::vector<Diagnostic>& ds, std::string_view code);

// "" when two plans of the same text are the same, field by field (every action's number,
// block, id, command, dialect, spec, name, line, name range and parameters: names, values and
// where their source is; the skipped, not-run and planned blocks); else what differs first.
std::string plan_difference(const apply::Plan& a, const apply::Plan& b);

} // namespace blockls::test
