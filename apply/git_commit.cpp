// git add -A -- <paths>, then git commit -- <paths> (only those paths, whatever else is
// staged). Pathspecs are ":(literal)" so file names with glob characters stay literal.
#include "apply/git_commit.h"

#include "apply/exec_runner.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <sys/stat.h>

namespace blockls::apply {
namespace {

ProcessOutput git(const std::string& root, std::vector<std::string> args) {
  std::vector<std::string> argv{"git", "-C", root};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, root, std::chrono::seconds(60));
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

GitCommitResult git_commit_paths(const std::string& root, const std::vector<std::string>& paths,
                                 const std::string& message, bool* failed) {
  GitCommitResult r;
  *failed = false;
  const ProcessOutput inside = git(root, {"rev-parse", "--is-inside-work-tree"});
  if (!inside.started || inside.exit_code != 0 || trim(inside.out) != "true") {
    r.message = fmt::format("{} is not inside a git work tree; nothing committed", root);
    return r;
  }
  r.is_repo = true;
  std::set<std::string> relative;
  for (const std::string& p : paths)
    if (p.size() > root.size() + 1 && p.compare(0, root.size() + 1, root + "/") == 0)
      relative.insert(p.substr(root.size() + 1));
  // Keep paths that exist now or that git knows (deleted, moved away).
  std::vector<std::string> specs;
  std::vector<std::string> ls{"ls-files", "-z", "--"};
  for (const std::string& p : relative)
    ls.push_back(":(literal)" + p);
  const ProcessOutput tracked = git(root, ls);
  std::set<std::string> known;
  for (size_t pos = 0; pos < tracked.out.size();) {
    const size_t nul = tracked.out.find('\0', pos);
    known.insert(tracked.out.substr(pos, nul - pos));
    if (nul == std::string::npos) break;
    pos = nul + 1;
  }
  for (const std::string& p : relative) {
    struct stat st {};
    const bool exists = ::lstat((root + "/" + p).c_str(), &st) == 0;
    const bool is_known = std::any_of(known.begin(), known.end(), [&](const std::string& k) {
      return k == p || (k.size() > p.size() && k.compare(0, p.size() + 1, p + "/") == 0);
    });
    if (exists || is_known) specs.push_back(":(literal)" + p);
  }
  if (specs.empty()) {
    r.message = "no changed path to commit";
    return r;
  }
  std::vector<std::string> add{"add", "-A", "--"};
  add.insert(add.end(), specs.begin(), specs.end());
  const ProcessOutput added = git(root, add);
  if (!added.started || added.exit_code != 0) {
    *failed = true;
    r.message =
        fmt::format("git add failed: {}", trim(added.err.empty() ? added.error : added.err));
    return r;
  }
  std::vector<std::string> diff{"diff", "--cached", "--quiet", "--"};
  diff.insert(diff.end(), specs.begin(), specs.end());
  if (git(root, diff).exit_code == 0) {
    r.message = "the applied changes are already committed; nothing to commit";
    return r;
  }
  std::vector<std::string> commit{"commit", "-q", "-m", message, "--"};
  commit.insert(commit.end(), specs.begin(), specs.end());
  const ProcessOutput done = git(root, commit);
  if (!done.started || done.exit_code != 0) {
    *failed = true;
    r.message = fmt::format("git commit failed: {}", trim(done.err.empty() ? done.out : done.err));
    return r;
  }
  r.committed = true;
  r.commit = trim(git(root, {"rev-parse", "HEAD"}).out);
  r.message = fmt::format("committed {} path{} as {}", specs.size(), specs.size() == 1 ? "" : "s",
                          r.commit.substr(0, 12));
  return r;
}

} // namespace blockls::apply
