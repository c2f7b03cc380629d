// file_delete: the file must exist (or be created by an earlier action) and not be read-only;
// directories are dir_delete's.
#include "apply/actions/runners.h"

namespace blockls::apply {

void run_file_delete(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const std::optional<FileState> before = host.writable_file("path", *path);
  if (!before) return;
  host.remove_file(*path, *before);
  host.set_data({{"path", host.shown_path("path")}});
}

} // namespace blockls::apply
