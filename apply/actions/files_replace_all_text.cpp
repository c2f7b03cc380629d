// files_replace_all_text, from clada's unified-design.yaml (paths: one per line; old_text;
// new_text). clada lists it as "tentative" and no tool ran it, so its result follows the
// schema's `returns`: data {results: [{path, replacements_made}]}. Every listed file must
// exist (a block is all or nothing, so one missing file fails the whole action); each gets
// every occurrence of old_text replaced (line endings aside, as for file_replace_all_text), in
// the order listed, so a file listed twice is replaced twice.
#include "apply/actions/runners.h"
#include "apply/text_match.h"

#include <fmt/format.h>
#include <vector>

namespace blockls::apply {
namespace {

constexpr std::string_view kSpaces = " \t\r\n";

std::string_view trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(kSpaces);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpaces) - b + 1);
}

struct ListedFile {
  std::string shown;    // as written, trimmed
  std::string absolute; // resolved
};

} // namespace

void run_files_replace_all_text(ActionHost& host) {
  const std::string_view action = host.planned().action;
  const std::string paths = host.value("paths");
  std::vector<ListedFile> files;
  bool failed = false;
  // Every line is checked (and reported) before anything is replaced.
  for (size_t pos = 0; pos <= paths.size();) {
    const size_t nl = paths.find('\n', pos);
    const size_t end = nl == std::string::npos ? paths.size() : nl;
    const std::string_view line = trimmed(std::string_view(paths).substr(pos, end - pos));
    if (!line.empty()) {
      const std::optional<ByteRange> range = host.value_range("paths", pos, end);
      if (const auto abs = host.resolve_listed_path("paths", line, range)) {
        const FileState s = host.read_path(*abs);
        if (s.kind == FileState::Kind::file) {
          if (host.require_writable("paths", s, line, range))
            files.push_back({std::string(line), *abs});
          else
            failed = true;
        } else {
          failed = true;
          const bool missing = s.kind == FileState::Kind::missing;
          const std::string_view hint =
              "Check the path; earlier actions of this transcript are taken into account";
          host.report(
              missing ? "FILE_NOT_FOUND" : not_a_file_code(s), "paths",
              missing ? fmt::format("file not found '{}'", line)
                      : fmt::format("'{}' {}", line, not_a_file_text(s, host.max_file_bytes())),
              std::string(missing ? hint : not_a_file_hint(s, hint)),
              fmt::format("{}: {} '{}'", action,
                          missing ? "file not found" : (s.too_large ? "too large" : "not a file"),
                          line),
              range);
        }
      } else {
        failed = true;
      }
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  if (failed) return;
  if (files.empty()) {
    const std::string msg = fmt::format("{}: No paths provided", action);
    host.report("EMPTY_PATH", "paths", msg, "List one path per line", msg);
    return;
  }
  const std::string old_text = host.value("old_text");
  if (old_text.empty()) {
    const std::string msg = fmt::format("{}: old_text cannot be empty", action);
    host.report("EMPTY_SEARCH", "old_text", msg, "Give the exact text to replace", msg);
    return;
  }
  nlohmann::json results = nlohmann::json::array();
  for (const ListedFile& f : files) {
    const FileState before = host.read_path(f.absolute);
    const Occurrences occ = find_occurrences(before.content, old_text);
    std::string new_text = host.value("new_text");
    if (occ.crlf_converted || uses_crlf(before.content)) new_text = to_crlf(new_text);
    if (!occ.offsets.empty()) {
      std::string after;
      size_t pos = 0;
      for (size_t off : occ.offsets) {
        after.append(before.content.str(), pos, off - pos);
        after += new_text;
        pos = off + occ.length;
      }
      after.append(before.content.str(), pos, std::string::npos);
      host.write_file(f.absolute, before, FileContent(after));
    }
    results.push_back({{"path", f.shown}, {"replacements_made", occ.offsets.size()}});
  }
  host.set_data({{"results", std::move(results)}});
}

} // namespace blockls::apply
