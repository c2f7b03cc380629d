// file_read_numbered: the file's lines (all, or `lines`) each after its number, right-aligned
// to the widest number shown. clada reads an empty file as empty, whatever lines were asked
// for; a read past the end fails but returns the lines that exist.
#include "apply/actions/runners.h"
#include "apply/line_actions.h"

#include <algorithm>
#include <fmt/format.h>

namespace blockls::apply {

void run_file_read_numbered(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const auto file = host.existing_file("path", *path);
  if (!file) return;
  const std::string_view* lines_param = host.planned().param("lines");
  std::optional<LineRange> range;
  if (lines_param) {
    range = lines_param_range(host, *lines_param);
    if (!range) return;
  }
  const std::string shown = host.shown_path("path");
  // clada reads an empty file as empty, whatever lines were asked for.
  if (file->content.empty()) {
    host.set_data({{"path", shown}, {"content", ""}});
    return;
  }
  const FileLines lines = split_lines(file->content.str());
  const size_t count = lines.lines.size();
  const LineRange want = range.value_or(LineRange{1, count});
  const size_t last = std::min(want.last, count);
  const std::string delimiter =
      host.planned().param("delimiter") ? host.value("delimiter") : std::string(": ");
  // Numbers are right-aligned to the widest number shown.
  const size_t width = fmt::format("{}", last).size();
  std::string content;
  for (size_t n = want.first; n <= last; ++n) {
    const auto [begin, end] = lines.lines[n - 1];
    if (n > want.first) content += '\n';
    content += fmt::format("{:>{}}", n, width);
    content += delimiter;
    content.append(file->content.str(), begin, end - begin);
  }
  if (want.last > count) {
    const std::string spec(trim_spaces(*lines_param));
    host.report("LINE_OUT_OF_RANGE", "lines",
                fmt::format("{} past the end of {}, which has {}", lines_asked(spec), shown,
                            plural_lines(count)),
                fmt::format("Ask for lines within 1-{} (the file as the earlier actions of this "
                            "transcript leave it)",
                            count),
                fmt::format("{}: Requested lines {} but file only has {}", host.planned().action,
                            spec, plural_lines(count)));
  }
  host.set_data({{"path", shown}, {"content", content}});
}

} // namespace blockls::apply
