// file_read: the file's content as the earlier actions of the transcript leave it.
#include "apply/actions/runners.h"

namespace blockls::apply {

void run_file_read(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const std::optional<FileState> s = host.existing_file("path", *path);
  if (!s) return;
  host.set_data({{"path", host.shown_path("path")}, {"content", s->content.str()}});
}

} // namespace blockls::apply
