// file_replace_lines: the text from the first line's start to the last line's end is replaced
// by new_content; the line break after the last replaced line stays, and the replacement is
// written with the file's line endings.
#include "apply/actions/runners.h"
#include "apply/line_actions.h"
#include "apply/text_match.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_file_replace_lines(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const auto file = host.writable_file("path", *path);
  if (!file) return;
  const auto range = lines_param_range(host, host.value("lines"));
  if (!range) return;
  const FileLines lines = split_lines(file->content.str());
  const size_t count = lines.lines.size();
  const std::string shown = host.shown_path("path");
  if (range->last > count) {
    const std::string spec(trim_spaces(host.value("lines")));
    host.report(
        "LINE_OUT_OF_RANGE", "lines",
        fmt::format("{} outside {}, which has {}", lines_asked(spec), shown, plural_lines(count)),
        count == 0 ? std::string("The file is empty: write it with file_write instead")
                   : fmt::format("Replace lines within 1-{} (the file as the earlier "
                                 "actions of this transcript leave it)",
                                 count),
        fmt::format("{}: Line range {} is out of bounds (file has {} lines)", host.planned().action,
                    spec, count));
    return;
  }
  // The text from the first line's start to the last line's end (its line break stays) is
  // replaced by new_content, written with the file's line endings.
  std::string replacement = host.value("new_content");
  if (uses_crlf(file->content)) replacement = to_crlf(to_lf(replacement));
  const size_t begin = lines.lines[range->first - 1].first;
  const size_t end = lines.lines[range->last - 1].second;
  std::string after = file->content.str().substr(0, begin);
  after += replacement;
  after.append(file->content.str(), end, std::string::npos);
  host.write_file(*path, *file, FileContent(after));
  host.set_data({{"path", shown}, {"lines_replaced", range->last - range->first + 1}});
}

} // namespace blockls::apply
