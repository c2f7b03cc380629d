// Text rendering of diagnostics with a small source excerpt.
#include "cli/text_report.h"

#include "diagnostics/source_view.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

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

// Runs of printable ASCII (the bulk of any transcript) are found a byte at a time with no
// decoding and copied in one append; only a control byte or a non-ASCII byte is decoded.
void append_printable(std::string* out, std::string_view text) {
  const auto plain = [](unsigned char u) { return (u >= 0x20 && u < 0x7f) || u == '\t'; };
  for (size_t i = 0; i < text.size();) {
    size_t run = i;
    while (run < text.size() && plain(static_cast<unsigned char>(text[run])))
      ++run;
    out->append(text.data() + i, run - i);
    if (run == text.size()) break;
    i = run;
    const unicode::Decoded d = unicode::decode(text, i);
    const unsigned char u = static_cast<unsigned char>(text[i]);
    if (!d.valid)
      out->append("\xEF\xBF\xBD"); // U+FFFD, one per invalid byte as the positions count them
    else if (u < 0x20 || u == 0x7f)
      fmt::format_to(std::back_inserter(*out), "\\x{:02x}", u);
    else
      out->append(text.substr(i, d.length));
    i += d.length;
  }
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(&out, text);
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

namespace {

constexpr size_t kSpillBytes = size_t{1} << 20;

// Everything is appended to `buffer`, handed to `*out` (when there is one) a megabyte at a
// time: no string per line, part or escape (a 40 MB transcript gives some megabytes of report).
void write_text_diagnostics(std::string& buffer, std::ostream* out, const std::string& path,
                            std::string_view text, const CheckedDocument& checked,
                            const TextStyle& style) {
  const auto put = [&](std::string_view s) { buffer.append(s); };
  const auto to = [&] { return std::back_inserter(buffer); };
  // `code` before and the reset after a painted part, when colour is on.
  const auto begin_paint = [&](const char* code) {
    if (style.color) put(code);
  };
  const auto end_paint = [&] {
    if (style.color) put("\033[0m");
  };
  const SourceView view{text, checked.parsed.lines};
  const uint32_t total = checked.parsed.lines.line_count();
  // The name as given may hold control bytes (an escape sequence) or invalid UTF-8.
  const std::string shown_path = checked.diagnostics.empty() ? std::string() : printable(path);
  std::string shown; // a line's text as printed, to measure it (reused)
  for (const Diagnostic& d : checked.diagnostics) {
    const OutwardPosition pos = view.start_of(d);
    begin_paint("\033[1m");
    fmt::format_to(to(), "{}:{}:{}:", shown_path, pos.line, pos.column);
    end_paint();
    put(" ");
    begin_paint(severity_color(d.severity));
    fmt::format_to(to(), "{}:", severity_word(d.severity));
    end_paint();
    put(" ");
    append_printable(&buffer, d.message);
    put(" ");
    begin_paint("\033[2m");
    fmt::format_to(to(), "[{}]", d.code);
    end_paint();
    put("\n");
    const uint32_t first = d.line >= 2 ? d.line - 2 : 0;
    const uint32_t last = std::min(total, d.line + 3);
    const size_t width = fmt::formatted_size("{}", std::max(last, d.line + 1));
    for (uint32_t l = first; l < last; ++l) {
      const std::string_view content = view.line_content(l);
      fmt::format_to(to(), "{}{:>{}} | ", l == d.line ? " > " : "   ", l + 1, width);
      append_printable(&buffer, content);
      put("\n");
      if (l == d.line) {
        const size_t start = checked.parsed.lines.line_start(l);
        const size_t begin = std::clamp(d.range.begin, start, start + content.size());
        const size_t end = std::clamp(d.range.end, begin, start + content.size());
        put("   ");
        buffer.append(width, ' ');
        put(" | ");
        // Padded and underlined in terminal cells of the line as printed (escapes, U+FFFD,
        // wide characters 2, combining marks 0); a tab pads with a tab, to expand alike, and
        // is underlined to the next tab stop (every 8 cells from the start of the row; the
        // excerpt's row and this one have the same prefix).
        size_t column = 3 + width + 3;
        shown.clear();
        append_printable(&shown, content.substr(0, begin - start));
        for (size_t i = 0; i < shown.size();) {
          const unicode::Decoded c = unicode::decode(shown, i);
          const bool tab = c.codepoint == '\t';
          const size_t cells = tab ? 8 - column % 8 : unicode::display_width(c.codepoint);
          buffer.append(tab ? 1 : cells, tab ? '\t' : ' ');
          column += cells;
          i += c.length;
        }
        shown.clear();
        append_printable(&shown, text.substr(begin, end - begin));
        size_t marks = 0;
        for (size_t i = 0; i < shown.size();) {
          const unicode::Decoded c = unicode::decode(shown, i);
          const size_t cells =
              c.codepoint == '\t' ? 8 - column % 8 : unicode::display_width(c.codepoint);
          marks += cells;
          column += cells;
          i += c.length;
        }
        begin_paint(severity_color(d.severity));
        buffer.append(std::max<size_t>(1, marks), '^');
        end_paint();
        put("\n");
      }
    }
    if (d.line >= total) fmt::format_to(to(), " > {:>{}} | <end of input>\n", d.line + 1, width);
    if (!d.fix_hint.empty()) {
      put("  ");
      begin_paint("\033[1;32m");
      put("hint:");
      end_paint();
      put(" ");
      append_printable(&buffer, d.fix_hint);
      put("\n");
    }
    for (const Fix& f : d.fixes) {
      put("  ");
      begin_paint("\033[32m");
      put("fix:");
      end_paint();
      put(" ");
      append_printable(&buffer, f.title);
      put(f.preferred ? " (preferred)\n" : "\n");
    }
    if (out && buffer.size() >= kSpillBytes) {
      out->write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
}

} // namespace

void print_text_diagnostics(std::ostream& out, const std::string& path, std::string_view text,
                            const CheckedDocument& checked, const TextStyle& style) {
  std::string buffer;
  buffer.reserve(kSpillBytes + (kSpillBytes >> 2));
  write_text_diagnostics(buffer, &out, path, text, checked, style);
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

void append_text_diagnostics(std::string* out, const std::string& path, std::string_view text,
                             const CheckedDocument& checked, const TextStyle& style) {
  write_text_diagnostics(*out, nullptr, path, text, checked, style);
}

} // namespace blockls::cli
