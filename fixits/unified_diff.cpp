// Unified diff on top of dtl (Debian's libdtl-dev): the line sequence diff and hunk
// composition come from dtl; we only split lines and write the headers.
#include "fixits/unified_diff.h"

#include <dtl/dtl.hpp>
#include <sstream>
#include <vector>

namespace blockls {
namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      lines.emplace_back(std::string(text.substr(pos)) + "\n\\ No newline at end of file");
      break;
    }
    lines.emplace_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

} // namespace

std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& from_label, const std::string& to_label) {
  if (before == after) return {};
  const std::vector<std::string> a = split_lines(before), b = split_lines(after);
  dtl::Diff<std::string, std::vector<std::string>> diff(a, b);
  diff.compose();
  diff.composeUnifiedHunks();
  std::ostringstream out;
  out << "--- " << from_label << '\n' << "+++ " << to_label << '\n';
  diff.printUnifiedFormat(out);
  return out.str();
}

} // namespace blockls
