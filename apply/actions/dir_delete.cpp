// dir_delete: removes the directory and everything below it. Never a root itself, and never
// a tree that holds a denied path (a nested .git) or a read-only file: the whole delete is
// refused then.
#include "apply/actions/runners.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_dir_delete(ActionHost& host) {
  const std::string_view action = host.planned().action;
  const ApplyConfig& config = host.config();
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  for (const std::string& root : config.allowed_roots) {
    if (*path != root && *path != config.root) continue;
    const std::string msg =
        fmt::format("{}: '{}' is the root itself", action, host.shown_path("path"));
    host.report("PATH_DENIED", "path", msg, "Delete the directories inside the root instead", msg);
    return;
  }
  const FileState s = host.read_path(*path);
  if (s.kind == FileState::Kind::missing) {
    const std::string msg =
        fmt::format("{}: directory not found '{}'", action, host.shown_path("path"));
    host.report("FILE_NOT_FOUND", "path", msg, "Check the path", msg);
    return;
  }
  if (s.kind != FileState::Kind::directory) {
    const std::string msg =
        fmt::format("{}: '{}' is not a directory", action, host.shown_path("path"));
    host.report("NOT_A_FILE", "path", msg, "Use file_delete for files", msg);
    return;
  }
  FileEffect e;
  e.kind = FileEffect::Kind::remove_dir;
  e.seq = host.planned().seq;
  e.path = *path;
  e.mode = s.mode;
  for (const std::string& entry : host.list_tree(*path)) {
    // Denied paths inside (e.g. a nested .git) make the whole delete denied.
    const ResolvedPath r = resolve_path(config, entry);
    if (r.verdict == PathVerdict::denied) {
      host.report("PATH_DENIED", "path",
                  fmt::format("{} contains {}: {}", host.shown_path("path"), entry, r.reason),
                  "Delete the other entries one by one", fmt::format("{}: {}", action, r.reason));
      return;
    }
    // A read-only file inside is refused as file_delete refuses it (named as the path was
    // written, then the rest of the entry's path).
    FileState state = host.read_path(entry);
    if (!host.require_writable("path", state, host.shown_path("path") + entry.substr(path->size())))
      return;
    e.tree.emplace_back(entry, std::move(state));
  }
  for (const auto& [entry, state] : e.tree)
    host.set_state(entry, {});
  host.set_state(*path, {});
  host.add_effect(std::move(e));
  host.set_data({{"path", host.shown_path("path")}});
}

} // namespace blockls::apply
