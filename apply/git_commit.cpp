// git add -A -- <paths>, then git commit -- <paths> (only those paths, whatever else is
// staged). Pathspecs are ":(literal)" so file names with glob characters stay literal.
//
// The repository is untrusted (docs/apply.md, "Threat model"): its .git/config, .git/hooks and
// any hook directory a block writes could make git run programs. Every git command here runs
// with hooks, fsmonitor, signing and auto-gc off (kNoPrograms), and with every filter driver
// the repository's own config defines made empty and required, so that git refuses a path that
// would need it instead of running the program (neutralized_filters).
#include "apply/git_commit.h"

#include "apply/exec_runner.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <sys/stat.h>

namespace blockls::apply {
namespace {

// Options before every git command: programs that git would start on its own, from the
// repository's config or files, are not run. `core.hooksPath=/dev/null` leaves git no hook to
// find (pre-commit, commit-msg, post-commit, post-index-change, reference-transaction...;
// --no-verify alone skips only the first two); `core.fsmonitor=false` turns off the fsmonitor
// hook or daemon; `commit.gpgsign=false` keeps gpg.program (or an SSH signing program) from
// running, and a passphrase prompt from hanging; `gc.auto=0` and `maintenance.auto=false` keep
// a commit from starting a background `git gc`.
constexpr const char* kNoPrograms[] = {
    "--no-pager",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
};

struct Git {
  std::string root;
  std::vector<std::string> overrides; // "-c", "filter.<name>.clean=", ...

  ProcessOutput operator()(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{"git"};
    argv.insert(argv.end(), std::begin(kNoPrograms), std::end(kNoPrograms));
    argv.insert(argv.end(), overrides.begin(), overrides.end());
    argv.insert(argv.end(), {"-C", root});
    argv.insert(argv.end(), args.begin(), args.end());
    return run_program(argv, root, std::chrono::seconds(60));
  }
};

// The fields of git's `-z` output: the pieces between NUL bytes (none after a final one).
std::vector<std::string> nul_fields(const std::string& out) {
  std::vector<std::string> fields;
  for (size_t pos = 0; pos < out.size();) {
    const size_t nul = out.find('\0', pos);
    fields.push_back(out.substr(pos, nul - pos));
    if (nul == std::string::npos) break;
    pos = nul + 1;
  }
  return fields;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.pop_back();
  return s;
}

// The filter drivers (`filter.<name>.clean`, `.smudge`, `.process`) that the repository's own
// config defines (scope local or worktree, includes followed), and the -c options that make
// each one empty and required: git then fails a path whose attributes name it ("clean filter
// failed") instead of running the program. Drivers of the user's global or system config (git
// LFS, for one) are the user's own programs and stay. False (with *error) when the config
// cannot be read or names a driver that -c cannot override.
bool neutralized_filters(const Git& git, std::vector<std::string>* overrides,
                         std::set<std::string>* names, std::string* error) {
  const ProcessOutput listed = git(
      {"config", "--show-scope", "-z", "--get-regexp", "^filter\\..*\\.(clean|smudge|process)$"});
  if (!listed.started || (listed.exit_code != 0 && listed.exit_code != 1)) {
    *error = fmt::format("could not read the repository's filter drivers: {}",
                         trim(listed.err.empty() ? listed.error : listed.err));
    return false;
  }
  // -z: scope NUL key [LF value] NUL, for each entry.
  const std::vector<std::string> fields = nul_fields(listed.out);
  for (size_t i = 0; i + 1 < fields.size(); i += 2) {
    const std::string& scope = fields[i];
    if (scope == "global" || scope == "system" || scope == "command") continue;
    const std::string key = fields[i + 1].substr(0, fields[i + 1].find('\n'));
    const size_t last = key.rfind('.');
    const std::string name = key.substr(7, last - 7); // between "filter." and ".clean"
    if (name.find('=') != std::string::npos) {
      *error = fmt::format("the repository's config defines a filter driver named '{}', which "
                           "blockls cannot switch off",
                           name);
      return false;
    }
    names->insert(name);
  }
  for (const std::string& name : *names)
    for (const char* var : {"clean=", "smudge=", "process=", "required=true"})
      overrides->insert(overrides->end(), {"-c", "filter." + name + "." + var});
  return true;
}

} // namespace

GitCommitResult git_commit_paths(const std::string& root, const std::vector<std::string>& paths,
                                 const std::string& message, bool* failed) {
  GitCommitResult r;
  *failed = false;
  Git git{root, {}};
  const ProcessOutput inside = git({"rev-parse", "--is-inside-work-tree"});
  if (!inside.started || inside.exit_code != 0 || trim(inside.out) != "true") {
    r.message = fmt::format("{} is not inside a git work tree; nothing committed", root);
    return r;
  }
  r.is_repo = true;
  std::set<std::string> filters;
  std::string filter_error;
  if (!neutralized_filters(git, &git.overrides, &filters, &filter_error)) {
    *failed = true;
    r.message = filter_error + "; nothing committed";
    return r;
  }
  // Why git may refuse a path: a filter driver of the repository's config that was not run.
  const std::string filter_note =
      filters.empty()
          ? std::string()
          : fmt::format(" (the repository's own config defines the filter driver{} {}, which "
                        "blockls does not run: commit such paths yourself)",
                        filters.size() == 1 ? "" : "s", fmt::join(filters, ", "));
  std::set<std::string> relative;
  for (const std::string& p : paths)
    if (p.size() > root.size() + 1 && p.compare(0, root.size() + 1, root + "/") == 0)
      relative.insert(p.substr(root.size() + 1));
  // Keep paths that exist now or that git knows (deleted, moved away).
  std::vector<std::string> specs;
  std::vector<std::string> ls{"ls-files", "-z", "--"};
  for (const std::string& p : relative)
    ls.push_back(":(literal)" + p);
  const std::vector<std::string> known = nul_fields(git(ls).out);
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
  const ProcessOutput added = git(add);
  if (!added.started || added.exit_code != 0) {
    *failed = true;
    r.message = fmt::format("git add failed: {}{}",
                            trim(added.err.empty() ? added.error : added.err), filter_note);
    return r;
  }
  std::vector<std::string> diff{"diff",          "--cached",      "--quiet",
                                "--no-ext-diff", "--no-textconv", "--"};
  diff.insert(diff.end(), specs.begin(), specs.end());
  if (git(diff).exit_code == 0) {
    r.message = "the applied changes are already committed; nothing to commit";
    return r;
  }
  std::vector<std::string> commit{"commit", "-q",    "--no-verify", "--no-gpg-sign",
                                  "-m",     message, "--"};
  commit.insert(commit.end(), specs.begin(), specs.end());
  const ProcessOutput done = git(commit);
  if (!done.started || done.exit_code != 0) {
    *failed = true;
    r.message = fmt::format("git commit failed: {}{}", trim(done.err.empty() ? done.out : done.err),
                            filter_note);
    return r;
  }
  r.committed = true;
  r.commit = trim(git({"rev-parse", "HEAD"}).out);
  r.message = fmt::format("committed {} path{} as {}", specs.size(), specs.size() == 1 ? "" : "s",
                          r.commit.substr(0, 12));
  return r;
}

} // namespace blockls::apply
