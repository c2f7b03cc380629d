// file_write and file_append: the file is created (with its missing parents) or replaced, or
// the content is added at its end. A replaced file keeps its line endings and its mode; a
// read-only one is not touched (FILE_READ_ONLY).
#include "apply/actions/runners.h"
#include "apply/text_match.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

// The two actions differ only in what becomes of an existing file's text.
void write(ActionHost& host, bool append) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const FileState before = host.read_path(*path);
  if (before.kind == FileState::Kind::directory || before.kind == FileState::Kind::other) {
    const std::string msg =
        fmt::format("{}: '{}' {}", host.planned().action, host.shown_path("path"),
                    not_a_file_text(before, host.max_file_bytes()));
    host.report(not_a_file_code(before), "path", msg,
                std::string(not_a_file_hint(before, "Name a file")), msg);
    return;
  }
  if (!host.require_writable("path", before, host.shown_path("path"))) return;
  if (!host.parents_writable("path", *path)) return;
  std::string text = host.value("content");
  // A replaced file keeps its line endings.
  if (before.kind == FileState::Kind::file && uses_crlf(before.content)) text = to_crlf(text);
  const size_t bytes = text.size();
  host.write_file(*path, before,
                  append && before.kind == FileState::Kind::file
                      ? before.content.splice(before.content.size(), before.content.size(), text)
                      : FileContent(text));
  host.set_data({{"path", host.shown_path("path")}, {"bytesWritten", bytes}});
}

} // namespace

void run_file_write(ActionHost& host) {
  write(host, false);
}

void run_file_append(ActionHost& host) {
  write(host, true);
}

} // namespace blockls::apply
