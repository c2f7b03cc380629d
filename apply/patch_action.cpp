// file_patch (see patch_action.h).
#include "apply/patch_action.h"

#include "apply/patch_locate.h"
#include "apply/text_match.h"
#include "grammar/patch/patch_hunks.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

void run_file_patch(ActionHost& host) {
  const std::string& action = host.planned().action;
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  std::optional<std::string> dest;
  const std::string new_path = host.value("new_path");
  const bool moves = host.planned().param("new_path") != nullptr;
  if (moves) {
    dest = host.resolve_param_path("new_path");
    if (!dest) return;
  }
  const std::optional<FileState> before = host.existing_file("path", *path);
  if (!before) return;
  const std::string shown = host.shown_path("path");
  const std::string hunks = host.value("hunks");
  std::string error;
  const auto chunks = patch::parse_hunks(hunks, shown, &error);
  if (!chunks) {
    // The grammar reports malformed hunks; a hand-built command may still carry them.
    host.report("MALFORMED_EDIT", "hunks", error, "Fix the hunks of the update",
                fmt::format("{}: {}", action, error));
    return;
  }
  const PatchOutcome r = apply_chunks(before->content, *chunks, shown);
  if (r.status == PatchOutcome::Status::not_found) {
    std::string hint = "The context and removed lines must match the file (blanks at the ends "
                       "of lines and Unicode punctuation aside)";
    if (const auto region = closest_region(before->content, r.needle))
      hint = fmt::format("The closest text is at lines {}-{} of the file ({})", region->first_line,
                         region->last_line, region->how);
    host.report("SEARCH_NOT_FOUND", "hunks",
                fmt::format("Hunk {} of the update of {}: {}", r.chunk + 1, shown, r.message),
                std::move(hint), fmt::format("{}: {}", action, r.message));
    return;
  }
  if (r.status == PatchOutcome::Status::ambiguous) {
    const std::string lines = fmt::format("{}", fmt::join(r.lines, ", "));
    host.report("SEARCH_AMBIGUOUS", "hunks",
                fmt::format("{}, at lines {}; it must occur once", r.message, lines),
                "Add a '@@ context' line or more context lines so that the hunk matches once",
                fmt::format("{}: {} (lines {})", action, r.message, lines));
    return;
  }
  nlohmann::json data = {{"path", shown}, {"hunks", chunks->size()}};
  if (moves && *dest != *path) {
    const FileState target = host.read_path(*dest);
    if (target.kind == FileState::Kind::directory || target.kind == FileState::Kind::other) {
      const std::string msg =
          fmt::format("{}: '{}' is a directory, not a file", action, host.shown_path("new_path"));
      host.report("NOT_A_FILE", "new_path", msg, "Name a file", msg);
      return;
    }
    host.write_file(*dest, target, r.text);
    host.remove_file(*path, *before);
    data["new_path"] = host.shown_path("new_path");
  } else {
    host.write_file(*path, *before, r.text);
  }
  host.set_data(std::move(data));
}

} // namespace

bool run_patch_action(ActionHost& host) {
  if (host.planned().action != "file_patch") return false;
  run_file_patch(host);
  return true;
}

} // namespace blockls::apply
