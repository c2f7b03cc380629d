// The seed's replacer edits (see replacer_parser.h). Markers are exact lines; every other line
// is explanation, path, or section text. Out-of-order markers are MALFORMED_EDIT, a missing
// `<<<END>>>` UNCLOSED_BLOCK (at the end of input, or where the next edit's EXPLANATION/FILE
// begins: the format has no other way to say an edit ended).
#include "grammar/replacer/replacer_parser.h"

#include "grammar/line_breaks.h"
#include "grammar/syntax_code.h"

#include <optional>
#include <string>

namespace blockls {
namespace {

using replacer::Marker;

std::string_view marker_text(Marker m) {
  switch (m) {
  case Marker::explanation:
    return replacer::kExplanation;
  case Marker::file:
    return replacer::kFile;
  case Marker::search:
    return replacer::kSearch;
  case Marker::replace:
    return replacer::kReplace;
  case Marker::overwrite:
    return replacer::kOverwrite;
  case Marker::end:
    return replacer::kEnd;
  case Marker::none:
    break;
  }
  return {};
}

} // namespace

bool ReplacerParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (line.phantom()) return false;
  const Marker m = replacer::classify(line.text);
  if (m == Marker::none || m == Marker::end) return false; // a stray END is prose
  open_block(line, ctx, m);
  return true;
}

void ReplacerParser::open_block(const LineRef& line, ParseContext& ctx, Marker m) {
  block_ = static_cast<int32_t>(ctx.out->blocks.size());
  Block& b = ctx.out->blocks.emplace_back(Dialect::replacer, ctx.out->allocator(), "", 1);
  b.era = Era::replacer;
  b.start_line = line.number;
  b.range = {line.begin, line.end};
  b.id_range = {line.begin, line.end};
  Command& c = b.commands[0];
  c.name_range = b.id_range;
  c.line = line.number;
  search_ = replace_ = overwrite_ = Section{};
  replace_orphan_ = false;
  fence_close_begin_ = npos;
  crlf_ = line.end < ctx.text.size() && ctx.text[line.end] == '\r';
  part_ = Part::explanation;
  if (m != Marker::explanation) on_marker(line, ctx, m);
}

void ReplacerParser::begin_section(Section& s, const LineRef& line, Part part) {
  s = Section{};
  s.seen = true;
  s.marker_next = line.next;
  s.marker_line = line.number;
  s.marker_begin = line.begin;
  s.marker_end = line.end;
  part_ = part;
}

void ReplacerParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (block_ < 0 || line.phantom()) return;
  {
    Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
    if (b.fence_close_line && *b.fence_close_line == line.number && fence_close_begin_ == npos)
      fence_close_begin_ = line.begin;
  }
  const Marker m = replacer::classify(line.text);
  const bool in_text = part_ == Part::search || part_ == Part::replace || part_ == Part::overwrite;
  if (in_text && (m == Marker::explanation || m == Marker::file)) {
    // The next edit begins: this one lacks its END, which belongs after its last text line
    // (blank lines before the next edit separate the two), or before its fence's closer.
    const Section& s = part_ == Part::search    ? search_
                       : part_ == Part::replace ? replace_
                                                : overwrite_;
    const size_t at = fence_close_begin_ != npos ? fence_close_begin_
                      : s.content_next != npos   ? s.content_next
                                                 : line.begin;
    unclosed(ctx, at, true);
    open_block(line, ctx, m);
    return;
  }
  ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
  if (m != Marker::none) {
    on_marker(line, ctx, m);
    return;
  }
  switch (part_) {
  case Part::explanation:
  case Part::after_path:
    return; // explanation text, or words after the path
  case Part::file: {
    const std::string_view path = replacer::trim(line.text);
    if (path.empty()) return;
    const size_t b = line.begin + static_cast<size_t>(path.data() - line.text.data());
    Command& c = ctx.out->blocks[static_cast<size_t>(block_)].commands[0];
    Parameter& p = c.params.emplace_back("path");
    p.name_range = p.value_range = {b, b + path.size()};
    p.line = line.number;
    part_ = Part::after_path;
    return;
  }
  case Part::search:
  case Part::replace:
  case Part::overwrite: {
    Section& s = part_ == Part::search ? search_ : part_ == Part::replace ? replace_ : overwrite_;
    if (s.first == npos) s.first = line.begin;
    s.text_end = line.end;
    const bool blank = replacer::is_blank(line.text);
    s.whitespace_only = s.whitespace_only && blank;
    if (!blank) {
      s.content_next = line.next;
      s.content_end = line.end;
    }
    return;
  }
  }
}

void ReplacerParser::on_marker(const LineRef& line, ParseContext& ctx, Marker m) {
  const bool in_text = part_ == Part::search || part_ == Part::replace || part_ == Part::overwrite;
  const ByteRange here{line.begin, line.end};
  switch (m) {
  case Marker::explanation:
  case Marker::none:
    return; // (an EXPLANATION while in text ends the edit: see on_line)
  case Marker::file:
    part_ = Part::file;
    return;
  case Marker::search:
  case Marker::overwrite:
    if (in_text) {
      malformed(ctx, line.number, here,
                "Edit marker " + quote(marker_text(m)) + " inside a " +
                    (part_ == Part::search    ? "SEARCH"
                     : part_ == Part::replace ? "REPLACE"
                                              : "OVERWRITE") +
                    " section: the edit is not closed by " + quote(replacer::kEnd),
                "Close the edit with " + quote(replacer::kEnd) + " and begin the next one with " +
                    quote(replacer::kFile));
      return;
    }
    if (m == Marker::search)
      begin_section(search_, line, Part::search);
    else
      begin_section(overwrite_, line, Part::overwrite);
    return;
  case Marker::replace:
    if (part_ == Part::search) {
      begin_section(replace_, line, Part::replace);
      return;
    }
    malformed(ctx, line.number, here,
              "Edit marker " + quote(replacer::kReplace) + " without a " +
                  quote(replacer::kSearch) + " section before it",
              "Write " + quote(replacer::kSearch) +
                  " and the exact text to replace before the REPLACE text");
    if (in_text) return; // kept as text
    replace_orphan_ = true;
    begin_section(replace_, line, Part::replace);
    return;
  case Marker::end: {
    if (part_ == Part::search)
      malformed(ctx, search_.marker_line, {search_.marker_begin, search_.marker_end},
                "Edit marker " + quote(replacer::kSearch) + " without its " +
                    quote(replacer::kReplace) + ": " + quote(replacer::kEnd) + " came first",
                "Write " + quote(replacer::kReplace) + " and the replacement text before " +
                    quote(replacer::kEnd));
    else if (!in_text) {
      const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
      malformed(ctx, b.start_line, b.id_range,
                "Edit has no " + quote(replacer::kSearch) + " or " + quote(replacer::kOverwrite) +
                    " section before " + quote(replacer::kEnd),
                "Write the change as SEARCH/REPLACE or OVERWRITE after the path");
    }
    close_block(ctx, line.number);
    return;
  }
  }
}

void ReplacerParser::malformed(ParseContext& ctx, uint32_t line, ByteRange r, std::string message,
                               std::string hint) {
  ctx.out->diagnostics.push_back(make_diagnostic(code::MALFORMED_EDIT, Dialect::replacer, block_,
                                                 line, r, std::move(message), std::move(hint)));
}

void ReplacerParser::unclosed(ParseContext& ctx, size_t at, bool before_line) {
  const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  const std::string nl = crlf_ ? "\r\n" : "\n";
  const bool closable = part_ == Part::replace || part_ == Part::overwrite;
  std::vector<Fix> fixes;
  if (closable) {
    // Before a line: the marker and its break; at the end of input: on a line of its own.
    const bool ends_nl = !ctx.text.empty() && ctx.text.back() == '\n';
    const std::string end(replacer::kEnd);
    const std::string text = before_line || ends_nl ? end + nl : nl + end;
    fixes.push_back(Fix{"Insert " + quote(replacer::kEnd), true, {{{at, at}, text}}});
  }
  const std::string where = before_line && fence_close_begin_ == at
                                ? "before its Markdown fence closes"
                            : before_line ? "before the next edit begins"
                                          : "before the end of input";
  Diagnostic d = make_diagnostic(
      code::UNCLOSED_BLOCK, Dialect::replacer, block_, b.start_line, b.id_range,
      "Edit is not closed: expected " + quote(replacer::kEnd) + " " + where,
      closable ? "Add " + quote(replacer::kEnd) + " on its own line where the edit's text ends"
               : "Finish the edit: SEARCH/REPLACE or OVERWRITE text, then " + quote(replacer::kEnd),
      std::move(fixes));
  d.line_dependent = before_line;
  ctx.out->diagnostics.push_back(std::move(d));
  close_block(ctx, std::nullopt);
}

void ReplacerParser::add_text(ParseContext& ctx, Command& c, std::string_view name,
                              const Section& s) {
  const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  Parameter& p = c.params.emplace_back(name);
  p.name_range = s.seen ? ByteRange{s.marker_begin, s.marker_end} : b.id_range;
  p.line = s.seen ? s.marker_line : b.start_line;
  if (s.first == npos) {
    const size_t at = s.seen ? s.marker_next : b.range.end;
    p.value_range = {at, at};
    return;
  }
  p.value_range = {s.first, s.text_end};
  const std::string_view v = slice(ctx.text, p.value_range);
  if (v.find('\r') == std::string_view::npos) return;
  p.value_is_slice = false;
  p.decoded = crlf_to_lf(v);
}

void ReplacerParser::close_block(ParseContext& ctx, std::optional<uint32_t> end_line) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  b.end_line = end_line;
  Command& c = b.commands[0];
  if (overwrite_.seen && !search_.seen && !replace_.seen) {
    c.name = "file_write";
    add_text(ctx, c, "content", overwrite_);
  } else {
    c.name = "file_replace_text";
    add_text(ctx, c, "old_text", search_);
    add_text(ctx, c, "new_text", replace_);
    if (replace_.seen && replace_.first != npos && replace_.whitespace_only) {
      // The seed's "blank line and a space": an empty replacement.
      Parameter& p = c.params.back();
      p.value_is_slice = false;
      p.decoded = std::string();
      const size_t lines_end = ctx.text.find('\n', replace_.text_end);
      const size_t cut_end =
          lines_end == std::string_view::npos ? replace_.text_end : lines_end + 1;
      const ByteRange r{replace_.marker_begin, replace_.marker_end};
      ctx.out->diagnostics.push_back(make_diagnostic(
          code::REPLACE_WHITESPACE_ONLY, Dialect::replacer, block_, replace_.marker_line, r,
          "The REPLACE text holds only whitespace: it is read as an empty replacement (the SEARCH "
          "text is deleted)",
          "Leave the REPLACE section empty: " + quote(replacer::kEnd) + " right after " +
              quote(replacer::kReplace),
          {Fix{"Empty the REPLACE section", true, {{{replace_.first, cut_end}, ""}}}}));
    }
  }
  block_ = -1;
}

void ReplacerParser::finish(ParseContext& ctx) {
  if (block_ < 0) return;
  unclosed(ctx, fence_close_begin_ != npos ? fence_close_begin_ : ctx.text.size(),
           fence_close_begin_ != npos);
}

} // namespace blockls
