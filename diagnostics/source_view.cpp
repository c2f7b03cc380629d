// Excerpts and positions for reports; all conversions go through LineIndex.
#include "diagnostics/source_view.h"

#include "grammar/unicode.h"

#include <algorithm>

namespace blockls {

OutwardPosition SourceView::position(uint32_t line, size_t offset) const {
  if (line >= lines.line_count()) return {line + 1, 1};
  const size_t start = lines.line_start(line);
  offset = std::clamp(offset, start, std::max(start, text.size()));
  const size_t column = unicode::utf16_length(text.substr(start, offset - start));
  return {line + 1, static_cast<uint32_t>(column + 1)};
}

OutwardPosition SourceView::end_of(const Diagnostic& d) const {
  if (d.range.end <= d.range.begin || d.line >= lines.line_count()) return start_of(d);
  const uint32_t end_line = lines.line_of(d.range.end);
  return position(std::max(end_line, d.line), d.range.end);
}

size_t SourceView::utf16_length(ByteRange range) const {
  if (range.end <= range.begin || range.begin >= text.size()) return 0;
  return unicode::utf16_length(text.substr(range.begin, std::min(range.end, text.size()) - range.begin));
}

std::string_view SourceView::line_content(uint32_t line) const {
  if (line >= lines.line_count()) return {};
  return lines.line_text(text, line);
}

std::string SourceView::nesl_context(uint32_t line) const {
  const uint32_t total = lines.line_count();
  constexpr uint32_t kWindow = 5;
  uint32_t first = line >= 2 ? line - 2 : 0;
  uint32_t last = std::min(total, first + kWindow); // exclusive
  if (last - first < kWindow) first = last >= kWindow ? last - kWindow : 0;
  std::string out;
  for (uint32_t l = first; l < last; ++l) {
    if (l > first) out.push_back('\n');
    // split("\n") keeps a "\r" before the break.
    const size_t begin = lines.line_start(l);
    const size_t end = l + 1 < total ? lines.line_start(l + 1) - 1 : text.size();
    out.append(text.substr(begin, end - begin));
  }
  return out;
}

std::string SourceView::context_window(uint32_t line) const {
  const uint32_t total = lines.line_count();
  const uint32_t first = line >= 2 ? line - 2 : 0;
  const uint32_t last = std::min(total, line + 3); // exclusive
  std::string out;
  for (uint32_t l = first; l < last; ++l) {
    if (!out.empty()) out.push_back('\n');
    out += "line " + std::to_string(l + 1) + ": ";
    out.append(lines.line_text(text, l));
    if (l == line) out += "  <-- ERROR HERE";
  }
  if (line >= total) { // end-of-input errors: mark the virtual line past the end
    if (!out.empty()) out.push_back('\n');
    out += "line " + std::to_string(line + 1) + ": <end of input>  <-- ERROR HERE";
  }
  return out;
}

} // namespace blockls
