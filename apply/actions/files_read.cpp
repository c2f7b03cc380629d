// files_read: `paths` lists one path per line; every file is read, and the missing ones are
// reported each on its own line (where the value is written verbatim) and fail the action.
#include "apply/actions/runners.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_files_read(ActionHost& host) {
  const std::string value = host.value("paths");
  std::vector<std::string> shown_paths, contents, missing;
  bool failed_policy = false;
  for (size_t pos = 0; pos <= value.size();) {
    const size_t nl = value.find('\n', pos);
    const size_t end = nl == std::string::npos ? value.size() : nl;
    const std::string line = value.substr(pos, end - pos);
    const std::optional<ByteRange> range = host.value_range("paths", pos, end);
    if (!trim_path(line).empty()) {
      const std::string p(trim_path(line));
      if (const auto abs = host.resolve_listed_path("paths", p, range)) {
        const FileState s = host.read_path(*abs);
        shown_paths.push_back(p);
        if (s.kind == FileState::Kind::file) {
          contents.push_back(s.content.str());
        } else {
          missing.push_back(p);
          const bool not_found = s.kind == FileState::Kind::missing;
          const std::string_view hint =
              "Check the path; earlier actions of this transcript are taken into account";
          host.diag(not_found ? "FILE_NOT_FOUND" : not_a_file_code(s), "paths",
                    not_found
                        ? fmt::format("file not found '{}'", p)
                        : fmt::format("'{}' {}", p, not_a_file_text(s, host.max_file_bytes())),
                    std::string(not_found ? hint : not_a_file_hint(s, hint)), range);
        }
      } else {
        failed_policy = true;
      }
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  if (failed_policy) return;
  if (shown_paths.empty()) {
    const std::string msg = fmt::format("{}: No paths provided", host.planned().action);
    host.report("EMPTY_PATH", "paths", msg, "List one path per line", msg);
    return;
  }
  if (!missing.empty()) {
    std::string msg =
        fmt::format("{}: Failed to read {} file(s):", host.planned().action, missing.size());
    for (const std::string& m : missing)
      msg += fmt::format("\n  {}: file not found", m);
    host.fail("FILE_NOT_FOUND", msg);
    return;
  }
  host.set_data({{"paths", shown_paths}, {"content", contents}});
}

} // namespace blockls::apply
