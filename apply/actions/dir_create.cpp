// dir_create: creates the directory and its missing parents; an existing directory is fine,
// an existing file is not.
#include "apply/actions/runners.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_dir_create(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const FileState s = host.read_path(*path);
  host.set_data({{"path", host.shown_path("path")}});
  if (s.kind == FileState::Kind::directory) return;
  if (s.kind != FileState::Kind::missing) {
    const std::string msg = fmt::format("{}: '{}' exists and is not a directory",
                                        host.planned().action, host.shown_path("path"));
    host.report("NOT_A_FILE", "path", msg, "Choose another name or delete the file first", msg);
    return;
  }
  if (!host.parents_writable("path", *path)) return;
  FileEffect e;
  e.kind = FileEffect::Kind::make_dir;
  e.seq = host.planned().seq;
  e.path = *path;
  host.add_effect(std::move(e));
  host.create_parents(*path);
  host.set_state(*path, {FileState::Kind::directory, {}, 0});
}

} // namespace blockls::apply
