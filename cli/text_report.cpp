// Text rendering of diagnostics with a small source excerpt.
#include "cli/text_report.h"

#include "diagnostics/source_view.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <fmt/format.h>

namespace blockls::cli {
namespace {

const char* severity_color(Severity s) {
  switch (s) {
  case Severity::block_fatal:
  case Severity::command_error:
    return "\033[1;31m";
  case Severity::parameter_warning:
    return "\033[1;35m";
  case Severity::syntax_info:
    return "\033[1;36m";
  }
  return "";
}

} // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unicode::Decoded d = unicode::decode(text, i);
    const unsigned char u = static_cast<unsigned char>(text[i]);
    if (!d.valid)
      out += "\xEF\xBF\xBD"; // U+FFFD, one per invalid byte as the positions count them
    else if ((u < 0x20 && u != '\t') || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out.append(text.substr(i, d.length));
    i += d.length;
  }
  return out;
}

std::string_view severity_word(Severity severity) {
  switch (severity) {
  case Severity::block_fatal:
  case Severity::command_error:
    return "error";
  case Severity::parameter_warning:
    return "warning";
  case Severity::syntax_info:
    return "info";
  }
  return "error";
}

void print_text_diagnostics(std::ostream& out, const std::string& path, std::string_view text,
                            const CheckedDocument& checked, const TextStyle& style) {
  const SourceView view{text, checked.parsed.lines};
  const auto paint = [&](const char* code, std::string_view s) {
    return style.color ? fmt::format("{}{}\033[0m", code, s) : std::string(s);
  };
  const uint32_t total = checked.parsed.lines.line_count();
  for (const Diagnostic& d : checked.diagnostics) {
    const OutwardPosition pos = view.start_of(d);
    out << paint("\033[1m", fmt::format("{}:{}:{}:", path, pos.line, pos.column)) << ' '
        << paint(severity_color(d.severity), fmt::format("{}:", severity_word(d.severity))) << ' '
        << printable(d.message) << ' ' << paint("\033[2m", fmt::format("[{}]", d.code)) << '\n';
    const uint32_t first = d.line >= 2 ? d.line - 2 : 0;
    const uint32_t last = std::min(total, d.line + 3);
    const size_t width = std::to_string(std::max(last, d.line + 1)).size();
    for (uint32_t l = first; l < last; ++l) {
      const std::string_view content = view.line_content(l);
      out << (l == d.line ? " > " : "   ") << fmt::format("{:>{}}", l + 1, width) << " | "
          << printable(content) << '\n';
      if (l == d.line) {
        const size_t start = checked.parsed.lines.line_start(l);
        const size_t begin = std::clamp(d.range.begin, start, start + content.size());
        const size_t end = std::clamp(d.range.end, begin, start + content.size());
        std::string pad;
        // One pad column per character as printable() shows it (an invalid byte is one U+FFFD).
        const std::string_view before = content.substr(0, begin - start);
        for (size_t i = 0; i < before.size(); i += unicode::decode(before, i).length)
          pad.push_back(before[i] == '\t' ? '\t' : ' ');
        const size_t marks =
            std::max<size_t>(1, unicode::codepoint_count(text.substr(begin, end - begin)));
        out << "   " << std::string(width, ' ') << " | " << pad
            << paint(severity_color(d.severity), std::string(marks, '^')) << '\n';
      }
    }
    if (d.line >= total)
      out << " > " << fmt::format("{:>{}}", d.line + 1, width) << " | <end of input>\n";
    if (!d.fix_hint.empty())
      out << "  " << paint("\033[1;32m", "hint:") << ' ' << printable(d.fix_hint) << '\n';
    for (const Fix& f : d.fixes)
      out << "  " << paint("\033[32m", "fix:") << ' ' << printable(f.title)
          << (f.preferred ? " (preferred)" : "") << '\n';
  }
}

} // namespace blockls::cli
