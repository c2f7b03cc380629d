// `blockls apply --git-commit`: commit exactly the paths a run changed, with git itself, so
// that changes the user had staged or made elsewhere are never swept into the commit.
#pragma once

#include <string>
#include <vector>

namespace blockls::apply {

struct GitCommitResult {
  bool committed = false;
  bool is_repo = false;
  std::string message; // what happened, one sentence (or the git error)
  std::string commit;  // the new commit id
};

// `paths` are absolute paths inside `root`. Nothing happens when `root` is not in a git work
// tree or none of the paths has a change.
GitCommitResult git_commit_paths(const std::string& root, const std::vector<std::string>& paths,
                                 const std::string& message, bool* failed);

} // namespace blockls::apply
