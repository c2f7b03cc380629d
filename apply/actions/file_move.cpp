// file_move: the source must be a file; the destination may not be a directory and is
// overwritten when it exists (with a MOVE_OVERWRITES warning); a move onto itself does nothing.
// Neither may be read-only (FILE_READ_ONLY): moving a file away removes it from its place.
#include "apply/actions/runners.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_file_move(ActionHost& host) {
  const std::string_view action = host.planned().action;
  const auto from = host.resolve_param_path("old_path");
  const auto to = host.resolve_param_path("new_path");
  if (!from || !to) return;
  const FileState source = host.read_path(*from);
  if (source.kind == FileState::Kind::missing) {
    const std::string msg =
        fmt::format("{}: Source file not found '{}'", action, host.shown_path("old_path"));
    host.report("FILE_NOT_FOUND", "old_path", msg + " (nor created by an earlier action)",
                "Check the source path", msg);
    return;
  }
  if (!host.require_file("old_path", source, "source file")) return;
  if (!host.require_writable("old_path", source, host.shown_path("old_path"))) return;
  const FileState dest = host.read_path(*to);
  if (dest.kind == FileState::Kind::directory || dest.kind == FileState::Kind::other) {
    const std::string msg =
        dest.kind == FileState::Kind::directory
            ? fmt::format("{}: destination '{}' is a directory", action,
                          host.shown_path("new_path"))
            : fmt::format("{}: destination '{}' {}", action, host.shown_path("new_path"),
                          not_a_file_text(dest, host.max_file_bytes()));
    host.report(not_a_file_code(dest), "new_path", msg,
                std::string(not_a_file_hint(
                    dest, "Give the full destination path including the file name")),
                msg);
    return;
  }
  if (*from != *to && !host.require_writable("new_path", dest, host.shown_path("new_path"))) return;
  if (!host.parents_writable("new_path", *to)) return;
  host.set_data(
      {{"old_path", host.shown_path("old_path")}, {"new_path", host.shown_path("new_path")}});
  if (*from == *to) return;
  FileEffect e;
  e.kind = FileEffect::Kind::move;
  e.seq = host.planned().seq;
  e.path = *from;
  e.new_path = *to;
  e.before = source.content;
  e.mode = source.mode;
  if (dest.kind == FileState::Kind::file) {
    e.dest_before = dest.content;
    host.data()["overwrote"] = true;
    host.diag("MOVE_OVERWRITES", "new_path",
              fmt::format("{} exists and will be overwritten by {}", host.shown_path("new_path"),
                          host.shown_path("old_path")),
              "Delete or move the destination first if its content matters");
  }
  host.add_effect(std::move(e));
  host.create_parents(*to);
  host.set_state(*to, source);
  host.set_state(*from, {});
}

} // namespace blockls::apply
