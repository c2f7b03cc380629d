// file_read_numbered and file_replace_lines over the simulation's view of the files. Results
// and messages follow clada's fs-ops cases (tests/data/apply/cases/*numbered*, *lines*): an
// empty file has no lines; a read past the end fails but returns the lines that exist; a
// replacement keeps the line break after the last replaced line and the file's line endings.
#include "apply/line_actions.h"

#include "apply/text_match.h"

#include <algorithm>
#include <fmt/format.h>

namespace blockls::apply {
namespace {

constexpr std::string_view kSpaces = " \t\r\n";

std::string_view trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(kSpaces);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpaces) - b + 1);
}

// A line number: decimal digits only, at least 1, small enough to be a real line.
std::optional<size_t> line_number(std::string_view s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  size_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  if (n == 0) return std::nullopt;
  return n;
}

std::string plural_lines(size_t n) {
  return fmt::format("{} line{}", n, n == 1 ? "" : "s");
}

// "line 4 is" / "lines 23-43 are": what was asked for, as a diagnostic's subject.
std::string asked(std::string_view spec) {
  return spec.find('-') == std::string_view::npos ? fmt::format("line {} is", spec)
                                                  : fmt::format("lines {} are", spec);
}

// The `lines` parameter parsed, or the action failed with INVALID_LINE_RANGE.
std::optional<LineRange> range_of(ActionHost& host, std::string_view spec_text) {
  const LineSpec spec = parse_line_spec(spec_text);
  if (spec.range) return spec.range;
  const bool reversed = spec.error.starts_with("Invalid line range");
  host.report("INVALID_LINE_RANGE", "lines",
              reversed ? fmt::format("the line range '{}' starts after it ends", spec_text)
                       : fmt::format("'{}' is not a line number or a range of lines", spec_text),
              "Write one line number (\"4\") or a range (\"23-43\"), counting from 1",
              fmt::format("{}: {}", host.planned().action, spec.error));
  return std::nullopt;
}

void run_read_numbered(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const auto file = host.existing_file("path", *path);
  if (!file) return;
  const std::string* lines_param = host.planned().param("lines");
  std::optional<LineRange> range;
  if (lines_param) {
    range = range_of(host, *lines_param);
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
    const std::string spec(trimmed(*lines_param));
    host.report(
        "LINE_OUT_OF_RANGE", "lines",
        fmt::format("{} past the end of {}, which has {}", asked(spec), shown, plural_lines(count)),
        fmt::format("Ask for lines within 1-{} (the file as the earlier actions of this "
                    "transcript leave it)",
                    count),
        fmt::format("{}: Requested lines {} but file only has {}", host.planned().action, spec,
                    plural_lines(count)));
  }
  host.set_data({{"path", shown}, {"content", content}});
}

void run_replace_lines(ActionHost& host) {
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const auto file = host.existing_file("path", *path);
  if (!file) return;
  const auto range = range_of(host, host.value("lines"));
  if (!range) return;
  const FileLines lines = split_lines(file->content.str());
  const size_t count = lines.lines.size();
  const std::string shown = host.shown_path("path");
  if (range->last > count) {
    const std::string spec(trimmed(host.value("lines")));
    host.report("LINE_OUT_OF_RANGE", "lines",
                fmt::format("{} outside {}, which has {}", asked(spec), shown, plural_lines(count)),
                count == 0 ? std::string("The file is empty: write it with file_write instead")
                           : fmt::format("Replace lines within 1-{} (the file as the earlier "
                                         "actions of this transcript leave it)",
                                         count),
                fmt::format("{}: Line range {} is out of bounds (file has {} lines)",
                            host.planned().action, spec, count));
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
  host.write_file(*path, *file, std::move(after));
  host.set_data({{"path", shown}, {"lines_replaced", range->last - range->first + 1}});
}

} // namespace

LineSpec parse_line_spec(std::string_view spec) {
  const std::string_view s = trimmed(spec);
  const size_t dash = s.find('-');
  if (dash == std::string_view::npos) {
    if (const auto n = line_number(s)) return {LineRange{*n, *n}, {}};
    return {std::nullopt, fmt::format("Invalid line specification '{}'", spec)};
  }
  const auto first = line_number(trimmed(s.substr(0, dash)));
  const auto last = line_number(trimmed(s.substr(dash + 1)));
  if (!first || !last) return {std::nullopt, fmt::format("Invalid line specification '{}'", spec)};
  if (*first > *last)
    return {std::nullopt, fmt::format("Invalid line range '{}' (start must be <= end)", spec)};
  return {LineRange{*first, *last}, {}};
}

FileLines split_lines(std::string_view content) {
  FileLines out;
  size_t pos = 0;
  while (pos < content.size()) {
    const size_t nl = content.find('\n', pos);
    if (nl == std::string_view::npos) {
      out.lines.emplace_back(pos, content.size());
      break;
    }
    const size_t end = nl > pos && content[nl - 1] == '\r' ? nl - 1 : nl;
    out.lines.emplace_back(pos, end);
    pos = nl + 1;
  }
  return out;
}

bool run_line_action(ActionHost& host) {
  const std::string& name = host.planned().action;
  if (name == "file_read_numbered")
    run_read_numbered(host);
  else if (name == "file_replace_lines")
    run_replace_lines(host);
  else
    return false;
  return true;
}

} // namespace blockls::apply
