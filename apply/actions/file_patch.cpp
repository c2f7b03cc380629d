// The `file_patch` action (a Codex `*** Update File:`) over the simulation's view of the
// files: the file must exist; its `hunks` (the update's lines, read again by the grammar's
// hunk reader, grammar/patch/patch_hunks.h) are located and applied by apply/patch_locate.h;
// with `new_path` the result is written there and the old file removed. A hunk not found is
// SEARCH_NOT_FOUND (with the closest region of the file as a hint), one found more than once
// SEARCH_AMBIGUOUS; the block is all or nothing, like every action.
#include "apply/actions/runners.h"
#include "apply/patch_locate.h"
#include "apply/text_match.h"
#include "grammar/patch/patch_hunks.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

// The closest region as a fix: each context and removed line of chunk `chunk` rewritten as
// the region's line (the region has as many lines), where the hunks are written verbatim in
// the transcript. Nothing when the lines cannot be mapped one to one.
std::optional<Fix> region_fix(ActionHost& host, std::string_view hunks, const patch::Chunk& chunk,
                              const ClosestRegion& region) {
  std::vector<std::string_view> want;
  for (size_t pos = 0; pos < region.text.size();) {
    const size_t nl = region.text.find('\n', pos);
    const size_t end = nl == std::string::npos ? region.text.size() : nl;
    want.push_back(std::string_view(region.text).substr(pos, end - pos));
    pos = end + 1;
  }
  if (want.size() != chunk.old_lines.size()) return std::nullopt;
  // The chunk's lines in the hunks text: after its `@@` line, if it has one.
  size_t pos = 0;
  for (size_t n = 0; n < chunk.first_line && pos != std::string_view::npos; ++n) {
    pos = hunks.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos) return std::nullopt;
  if (hunks.substr(pos).starts_with("@@")) pos = hunks.find('\n', pos) + 1;
  Fix fix{fmt::format("Use the text of lines {}-{} of the file ({})", region.first_line,
                      region.last_line, region.how),
          true,
          {}};
  size_t k = 0;
  while (k < want.size() && pos < hunks.size()) {
    const size_t nl = hunks.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? hunks.size() : nl;
    const std::string_view line = hunks.substr(pos, end - pos);
    if (line.empty() || line[0] == ' ' || line[0] == '-') {
      const std::string_view have = line.empty() ? line : line.substr(1);
      if (have != want[k]) {
        const auto range = host.value_range("hunks", line.empty() ? pos : pos + 1, end);
        if (!range) return std::nullopt;
        fix.edits.push_back({*range, (line.empty() ? " " : "") + std::string(want[k])});
      }
      ++k;
    } else if (line[0] != '+') {
      return std::nullopt;
    }
    pos = end + 1;
  }
  if (k != want.size() || fix.edits.empty()) return std::nullopt;
  return fix;
}

} // namespace

void run_file_patch(ActionHost& host) {
  const std::string_view action = host.planned().action;
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  std::optional<std::string> dest;
  const std::string new_path = host.value("new_path");
  const bool moves = host.planned().param("new_path") != nullptr;
  if (moves) {
    dest = host.resolve_param_path("new_path");
    if (!dest) return;
  }
  const std::optional<FileState> before = host.writable_file("path", *path);
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
  const PatchOutcome r = apply_chunks(before->content.str(), *chunks, shown);
  if (r.status == PatchOutcome::Status::not_found) {
    std::string hint = "The context and removed lines must match the file (blanks at the ends "
                       "of lines and Unicode punctuation aside)";
    const auto region = closest_region(before->content.str(), r.needle);
    if (region)
      hint = fmt::format("The closest text is at lines {}-{} of the file ({})", region->first_line,
                         region->last_line, region->how);
    host.report("SEARCH_NOT_FOUND", "hunks",
                fmt::format("Hunk {} of the update of {}: {}", r.chunk + 1, shown, r.message),
                std::move(hint), fmt::format("{}: {}", action, r.message));
    // Only when the chunk's own lines were not found (not its `@@ context` line).
    if (region && r.message.starts_with("Failed to find expected lines"))
      if (auto fix = region_fix(host, hunks, (*chunks)[r.chunk], *region))
        host.add_fix(std::move(*fix));
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
      const std::string msg = fmt::format("{}: '{}' {}", action, host.shown_path("new_path"),
                                          not_a_file_text(target, host.max_file_bytes()));
      host.report(not_a_file_code(target), "new_path", msg,
                  std::string(not_a_file_hint(target, "Name a file")), msg);
      return;
    }
    if (!host.require_writable("new_path", target, host.shown_path("new_path"))) return;
    host.write_file(*dest, target, FileContent(r.text));
    host.remove_file(*path, *before);
    data["new_path"] = host.shown_path("new_path");
  } else {
    host.write_file(*path, *before, FileContent(r.text));
  }
  host.set_data(std::move(data));
}

} // namespace blockls::apply
