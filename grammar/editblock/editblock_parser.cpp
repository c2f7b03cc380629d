// Aider's SEARCH/REPLACE edit blocks (see editblock_parser.h). Markers are matched on the
// trimmed line with Aider's tolerances (widths 5 to 9, `SEARCH>`, blanks around): each variant
// is accepted with an EDIT_MARKER_VARIANT note and a fix to the canonical marker. A part's
// text is its lines joined with "\n" plus a final "\n" when not empty.
#include "grammar/editblock/editblock_parser.h"

#include "grammar/editblock/editblock_line.h"
#include "grammar/syntax_code.h"

#include <algorithm>

namespace blockls {
namespace {

using editblock::Marker;

// The line that ends just before `begin` (the start of a line): [its begin, its text's end).
ByteRange line_before(std::string_view text, size_t begin) {
  size_t end = begin - 1; // the '\n' of that line
  if (end > 0 && text[end - 1] == '\r') --end;
  const size_t nl = begin >= 2 ? text.rfind('\n', begin - 2) : std::string_view::npos;
  const size_t b = nl == std::string_view::npos ? 0 : nl + 1;
  return {b, std::max(b, end)};
}

// A part [begin, end) of `text` (whole lines with their breaks) as a parameter value: the
// slice itself when it has no "\r" and ends with its "\n", else the lines without "\r"
// before "\n" plus a final "\n".
void set_part(Parameter& p, std::string_view text, size_t begin, size_t end) {
  if (begin == std::string_view::npos) {
    p.value_range = {end, end};
    return;
  }
  const std::string_view part = text.substr(begin, end - begin);
  p.value_range = {begin, end};
  if (part.find('\r') == std::string_view::npos && part.ends_with('\n')) return;
  std::string out;
  out.reserve(part.size() + 1);
  for (size_t i = 0; i < part.size(); ++i) {
    if (part[i] == '\r' && i + 1 < part.size() && part[i + 1] == '\n') continue;
    out += part[i];
  }
  if (!out.ends_with('\n')) out += '\n';
  p.value_is_slice = false;
  p.decoded = std::move(out);
}

} // namespace

std::optional<ByteRange> EditBlockParser::lookback_path(std::string_view text, size_t begin,
                                                        size_t floor) const {
  // Aider's find_filename: the nearest line that names a file, looking further back (three
  // lines at most) only through fence lines; among the names found the first with a `.`.
  std::optional<ByteRange> first, dotted;
  size_t at = begin;
  for (int n = 0; n < 3 && at > floor && at > 0; ++n) {
    const ByteRange r = line_before(text, at);
    if (r.begin < floor) break;
    at = r.begin;
    const std::string_view line = slice(text, r);
    if (editblock::classify(line).kind != Marker::none) break; // a marker names no file
    const editblock::Name name = editblock::filename_in(line);
    if (!name.empty()) {
      const ByteRange found{r.begin + name.begin, r.begin + name.end};
      if (!first) first = found;
      if (!dotted && slice(text, found).find('.') != std::string_view::npos) dotted = found;
    }
    if (!editblock::is_fence_line(line)) break;
  }
  return dotted ? dotted : first;
}

bool EditBlockParser::in_shell_fence(std::string_view text, size_t begin, size_t floor) {
  // The nearest fence line before the marker: a shell fence more than two lines up holds
  // commands (a SEARCH marker on one of the two lines after it makes it an edit's fence).
  size_t at = begin;
  for (int n = 1; n <= 1000 && at > floor && at > 0; ++n) {
    const ByteRange r = line_before(text, at);
    if (r.begin < floor) break;
    at = r.begin;
    const std::string_view line = editblock::trim(slice(text, r));
    if (line.starts_with("```")) return n > 2 && editblock::is_shell_fence(line);
  }
  return false;
}

void EditBlockParser::check_marker(const LineRef& line, ParseContext& ctx, bool canonical,
                                   std::string_view want) {
  if (canonical) return;
  const ByteRange r{line.begin, line.end};
  ctx.out->diagnostics.push_back(make_diagnostic(
      code::EDIT_MARKER_VARIANT, Dialect::editblock, block_, line.number, r,
      "Edit marker " + quote(line.text) + " is accepted, but the canonical form is " + quote(want),
      "Write " + quote(want) + " alone on its line",
      {Fix{"Rewrite as " + quote(want), true, {{r, std::string(want)}}}}));
}

bool EditBlockParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (line.phantom()) return false;
  const editblock::MarkerLine m = editblock::classify(line.text);
  if (m.kind != Marker::head) return false;
  const size_t floor = ctx.last_block_end();
  if (ctx.inside_fence && in_shell_fence(ctx.text, line.begin, floor)) return false;

  const std::optional<ByteRange> named = lookback_path(ctx.text, line.begin, floor);
  has_path_ = named || has_last_path_;
  path_ = named ? *named : has_last_path_ ? last_path_ : ByteRange{};
  if (named) {
    last_path_ = path_;
    has_last_path_ = true;
  }

  block_ = static_cast<int32_t>(ctx.out->blocks.size());
  Block& b = ctx.out->blocks.emplace_back(Dialect::editblock, ctx.out->allocator(), "", 1);
  b.era = Era::editblock;
  b.start_line = line.number;
  b.range = {line.begin, line.end};
  const std::string_view t = editblock::trim(line.text);
  const size_t marker_begin = line.begin + static_cast<size_t>(t.data() - line.text.data());
  b.id_range = {marker_begin, marker_begin + t.size()};
  Command& c = b.commands[0];
  c.name_range = b.id_range;
  c.line = line.number;
  if (named) {
    Parameter& p = c.params.emplace_back("path");
    p.name_range = p.value_range = *named;
    p.line = line.number;
    // Read from the source (value_range), not copied; value_is_slice stays false, as it
    // always was for the path.
    p.value_is_slice = false;
    p.source = Parameter::Source::range;
  } else if (has_path_) {
    Parameter& p = c.params.emplace_back("path");
    p.name_range = p.value_range = {line.begin, line.begin}; // reused: written elsewhere
    p.line = line.number;
    p.value_is_slice = false;
    p.decoded = std::string(slice(ctx.text, path_));
  }

  part_ = Part::search;
  search_begin_ = search_end_ = replace_begin_ = replace_end_ = fence_close_begin_ = npos;
  crlf_ = line.end < ctx.text.size() && ctx.text[line.end] == '\r';
  check_marker(line, ctx, m.canonical, editblock::kHead);
  return true;
}

void EditBlockParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (block_ < 0 || line.phantom()) return;
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  if (b.fence_close_line && *b.fence_close_line == line.number && fence_close_begin_ == npos)
    fence_close_begin_ = line.begin;
  b.range.end = line.end;
  const editblock::MarkerLine m = editblock::classify(line.text);
  if (part_ == Part::search) {
    if (m.kind == Marker::divider) {
      check_marker(line, ctx, m.canonical, editblock::kDivider);
      search_end_ = line.begin;
      part_ = Part::replace;
      return;
    }
    if (search_begin_ == npos) search_begin_ = line.begin;
    search_end_ = line.next;
    return;
  }
  // Aider ends the REPLACE text at `>>>>>>> REPLACE` or at a second `=======`.
  if (m.kind == Marker::updated || m.kind == Marker::divider) {
    check_marker(line, ctx, m.canonical && m.kind == Marker::updated, editblock::kUpdated);
    replace_end_ = line.begin;
    close_block(ctx, line.number);
    return;
  }
  if (replace_begin_ == npos) replace_begin_ = line.begin;
  replace_end_ = line.next;
}

void EditBlockParser::close_block(ParseContext& ctx, std::optional<uint32_t> end_line) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  b.end_line = end_line;
  Command& c = b.commands[0];
  const bool append = search_begin_ == npos;
  c.name = append ? "file_append" : "file_replace_text";
  const size_t search_end = search_end_ == npos ? b.range.end : search_end_;
  if (!append) {
    Parameter& p = c.params.emplace_back("old_text");
    p.name_range = b.id_range;
    p.line = b.start_line;
    set_part(p, ctx.text, search_begin_, search_end);
  }
  // Always given (empty when the input ended before `=======`): the block's one error is
  // then its missing marker, not a missing parameter too.
  Parameter& p = c.params.emplace_back(append ? "content" : "new_text");
  p.name_range = b.id_range;
  p.line = b.start_line;
  if (part_ == Part::replace)
    set_part(p, ctx.text, replace_begin_, replace_end_ == npos ? b.range.end : replace_end_);
  else
    p.value_range = {b.range.end, b.range.end};
  block_ = -1;
}

void EditBlockParser::finish(ParseContext& ctx) {
  if (block_ < 0) return;
  const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  const std::string nl = crlf_ ? "\r\n" : "\n";
  const bool in_search = part_ == Part::search;
  const std::string expected =
      in_search ? "Expected `=======`" : "Expected `>>>>>>> REPLACE` or `=======`";
  std::string missing =
      in_search ? std::string(editblock::kDivider) + nl + std::string(editblock::kUpdated)
                : std::string(editblock::kUpdated);
  const std::string what =
      in_search ? "the `=======` and `>>>>>>> REPLACE` lines" : "the `>>>>>>> REPLACE` line";
  const std::string path = has_path_ ? " for " + quote(slice(ctx.text, path_)) : "";
  const ByteRange head{b.range.begin, b.id_range.end};
  // Closing the edit is a fix only when its REPLACE text is there: inserting the markers after
  // SEARCH text alone (or after an empty REPLACE) would turn a cut-off edit into one that
  // deletes the SEARCH text from the file, which `fix`, a code action or the feedback's
  // corrected block must never suggest.
  const bool closable = !in_search && replace_begin_ != npos &&
                        (fence_close_begin_ == npos || replace_begin_ < fence_close_begin_);
  const std::string hint = closable ? "Add " + what + " where the edit's text ends"
                           : in_search
                               ? "Add " + what +
                                     " where the edit's text ends, with the replacement text "
                                     "between them"
                               : "Write the replacement text after `=======`, then " + what;
  const bool at_fence = fence_close_begin_ != npos;
  const bool ends_nl = !ctx.text.empty() && ctx.text.back() == '\n';
  std::vector<Fix> fixes;
  if (closable) {
    Fix f;
    f.title =
        (at_fence ? "Insert " : "Append ") + what + (at_fence ? " before the closing fence" : "");
    f.preferred = true;
    f.edits.push_back(at_fence ? TextEdit{{fence_close_begin_, fence_close_begin_}, missing + nl}
                               : TextEdit{{ctx.text.size(), ctx.text.size()},
                                          ends_nl ? missing + nl : nl + missing});
    fixes.push_back(std::move(f));
  }
  Diagnostic d(Dialect::editblock);
  if (at_fence) {
    // The fence around the edit closed before its marker: the edit ends there.
    d = make_diagnostic(code::MALFORMED_EDIT, Dialect::editblock, block_, b.start_line, head,
                        "Edit block" + path + " is malformed: " + expected +
                            " before the Markdown fence closes at line " +
                            std::to_string(*b.fence_close_line + 1),
                        hint, std::move(fixes));
    d.line_dependent = true;
  } else {
    d = make_diagnostic(code::UNCLOSED_BLOCK, Dialect::editblock, block_, b.start_line, head,
                        "Edit block" + path + " is not closed: " + expected +
                            " before the end of input",
                        hint, std::move(fixes));
  }
  ctx.out->diagnostics.push_back(std::move(d));
  close_block(ctx, std::nullopt);
}

void EditBlockParser::resume(std::string_view, const std::vector<Block>& earlier, size_t count) {
  // The last edit that names its path: an edit that reuses one (a decoded copy) reuses the
  // path of the last edit that named one before it, so both give the same path.
  for (size_t i = count; i-- > 0;) {
    const Block& b = earlier[i];
    if (b.dialect != Dialect::editblock || b.commands.empty()) continue;
    for (const Parameter& p : b.commands[0].params) {
      if (p.name != "path" || p.source != Parameter::Source::range) continue;
      last_path_ = p.value_range;
      has_last_path_ = true;
      return;
    }
  }
}

} // namespace blockls
