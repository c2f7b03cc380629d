// Unified diff on top of dtl (Debian's libdtl-dev): the line sequence diff and hunk
// composition come from dtl; we split lines and write the headers and hunks.
#include "fixits/unified_diff.h"

#include <dtl/dtl.hpp>
#include <sstream>
#include <vector>

namespace blockls {
namespace {

using Element = std::pair<std::string, dtl::elemInfo>;

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

// A hunk's range as diff(1) writes it: an empty range starts at the line before it (so an
// empty file is `0,0`, which GNU patch and git apply require); dtl gives the line after it.
std::string hunk_range(long long start, long long count) {
  return std::to_string(count == 0 && start > 0 ? start - 1 : start) + "," + std::to_string(count);
}

void print_lines(std::ostream& out, const std::vector<Element>& lines) {
  for (const Element& e : lines)
    out << (e.second.type == dtl::SES_ADD      ? '+'
            : e.second.type == dtl::SES_DELETE ? '-'
                                               : ' ')
        << e.first << '\n';
}

// A `---`/`+++` header's name: followed by a TAB when it holds a blank, as git writes it, since
// GNU patch and git apply read such a name up to the TAB (without it, patch -p1 took
// `a/sp ace.txt` for a file named `sp`).
std::string header_name(const std::string& label) {
  return label.find_first_of(" \t") == std::string::npos ? label : label + "\t";
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
  out << "--- " << header_name(from_label) << '\n' << "+++ " << header_name(to_label) << '\n';
  for (const auto& hunk : diff.getUniHunks()) {
    out << "@@ -" << hunk_range(hunk.a, hunk.b) << " +" << hunk_range(hunk.c, hunk.d) << " @@\n";
    print_lines(out, hunk.common[0]);
    print_lines(out, hunk.change);
    print_lines(out, hunk.common[1]);
  }
  return out.str();
}

} // namespace blockls
