// The lines of a file and of a `lines` parameter, for file_read_numbered and
// file_replace_lines (apply/actions/). Results and messages follow clada's fs-ops cases
// (tests/data/apply/cases/*numbered*, *lines*): an empty file has no lines.
#include "apply/line_actions.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

constexpr std::string_view kSpaces = " \t\r\n";

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

} // namespace

std::string_view trim_spaces(std::string_view s) {
  const size_t b = s.find_first_not_of(kSpaces);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpaces) - b + 1);
}

LineSpec parse_line_spec(std::string_view spec) {
  const std::string_view s = trim_spaces(spec);
  const size_t dash = s.find('-');
  if (dash == std::string_view::npos) {
    if (const auto n = line_number(s)) return {LineRange{*n, *n}, {}};
    return {std::nullopt, fmt::format("Invalid line specification '{}'", spec)};
  }
  const auto first = line_number(trim_spaces(s.substr(0, dash)));
  const auto last = line_number(trim_spaces(s.substr(dash + 1)));
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

std::string plural_lines(size_t n) {
  return fmt::format("{} line{}", n, n == 1 ? "" : "s");
}

std::string lines_asked(std::string_view spec) {
  return spec.find('-') == std::string_view::npos ? fmt::format("line {} is", spec)
                                                  : fmt::format("lines {} are", spec);
}

std::optional<LineRange> lines_param_range(ActionHost& host, std::string_view spec_text) {
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

} // namespace blockls::apply
