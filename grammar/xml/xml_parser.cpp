// XML directives (see xml_parser.h). A line is read tag by tag: between parameters only child
// tags and the directive's closing tag count (other text on a later line ends the directive
// unclosed: a tool call never holds prose); inside a value only its own closing tag and the
// directive's count (and, for a short value, another parameter's closing tag: MISMATCHED_TAG).
#include "grammar/xml/xml_parser.h"

#include "grammar/line_breaks.h"
#include "grammar/syntax_code.h"
#include "grammar/xml/xml_diff.h"
#include "grammar/xml/xml_tag.h"

#include <algorithm>
#include <cstring>

namespace blockls {
namespace {

// True when `written` is a misspelling of the tag name `name`: one edit apart (two for names
// of more than five letters), compared without case. Optimal string alignment distance.
bool near_miss(std::string_view written, std::string_view name) {
  if (written.empty() || written.size() > 32 || name.size() > 32) return false;
  const size_t limit = name.size() > 5 ? 2 : 1;
  const size_t n = written.size(), m = name.size();
  if ((n > m ? n - m : m - n) > limit) return false;
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  size_t d[33][33];
  for (size_t i = 0; i <= n; ++i)
    d[i][0] = i;
  for (size_t j = 0; j <= m; ++j)
    d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const bool same = lower(written[i - 1]) == lower(name[j - 1]);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(written[i - 1]) == lower(name[j - 2]) &&
          lower(written[i - 2]) == lower(name[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m] != 0 && d[n][m] <= limit;
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// `r` without surrounding blanks and line breaks.
ByteRange trimmed(std::string_view text, ByteRange r) {
  while (r.begin < r.end && (is_blank(text[r.begin]) || text[r.begin] == '\n'))
    ++r.begin;
  while (r.end > r.begin && (is_blank(text[r.end - 1]) || text[r.end - 1] == '\n'))
    --r.end;
  return r;
}

// `r` without one leading and one trailing line break (Cline's reading of file content).
ByteRange raw_value(std::string_view text, ByteRange r) {
  if (r.begin < r.end && text[r.begin] == '\n')
    ++r.begin;
  else if (r.begin + 1 < r.end && text[r.begin] == '\r' && text[r.begin + 1] == '\n')
    r.begin += 2;
  if (r.end > r.begin && text[r.end - 1] == '\n') {
    --r.end;
    if (r.end > r.begin && text[r.end - 1] == '\r') --r.end;
  }
  return r;
}

// Fills the parameter's value: the slice, or its text with CRLF line breaks made LF.
void set_value(std::string_view text, Parameter& p, ByteRange r) {
  p.value_range = r;
  const std::string_view v = slice(text, r);
  if (v.find('\r') == std::string_view::npos) return;
  p.value_is_slice = false;
  p.decoded = crlf_to_lf(v);
}

std::string tag_text(std::string_view name, bool closing) {
  std::string s = closing ? "</" : "<";
  s.append(name);
  s += '>';
  return s;
}

Diagnostic validation_diagnostic(std::string_view code, Severity severity, int32_t block,
                                 uint32_t line, ByteRange range, std::string message,
                                 std::string hint) {
  Diagnostic d(Dialect::xml);
  d.code = code;
  d.severity = severity;
  d.block = block;
  d.line = line;
  d.range = range;
  d.message = std::move(message);
  d.fix_hint = std::move(hint);
  return d;
}

} // namespace

bool XmlParser::try_start(const LineRef& line, ParseContext& ctx) {
  // Inside a Markdown fence nothing is a directive (spec: a fence suppresses tags).
  if (line.phantom() || ctx.inside_fence || line.text.size() < 3) return false;
  if (line.text[0] != '<') return try_start_mid_line(line, ctx);
  xml::Tag tag;
  if (!xml::read_tag(line.text, 0, tag) || tag.closing) return false;
  bool near = false;
  const xml::Tool* tool = xml::find_tool(tag.name);
  if (!tool) {
    tool = xml::near_tool(tag.name);
    near = true;
  }
  if (!tool) return false; // any other tag is text
  open_block(line, ctx, 0, tag.name, *tool, near);
  scan(line, ctx, tag.end);
  return true;
}

// A directive after text on its line (`We need the file.<read_file>`, as models write them):
// only on a line that ends with a tag (xml::may_open_mid_line, the router's prose filter asks
// the same), at the first opening tag of a known tool (a near miss is prose here) outside an
// inline code span (`` `<read_file>` ``, ```` ```x``` ```` are code) and an HTML comment.
bool XmlParser::try_start_mid_line(const LineRef& line, ParseContext& ctx) {
  const std::string_view t = line.text;
  if (!xml::may_open_mid_line(t)) return false;
  MarkdownFence opener; // a fence's opening line (```` ~~~ <read_file> ````) is no directive
  opener.observe(t);
  if (opener.open()) return false;
  size_t span = 0; // the backtick run that opened the inline code span we are in (0: none)
  for (size_t i = 0; i < t.size();) {
    if (t[i] == '`') {
      size_t run = i;
      while (run < t.size() && t[run] == '`')
        ++run;
      const size_t n = run - i;
      // A run opens a span when no span is open; only a run of the same length closes it.
      // (An unclosed span at the line's end: CommonMark reads its backticks as text, but
      // a directive after an opening run is rare enough to stay prose.)
      span = span == 0 ? n : span == n ? 0 : span;
      i = run;
      continue;
    }
    if (t[i] == '<' && span == 0) {
      if (t.substr(i, 4) == "<!--") { // an HTML comment: its tags are text
        const size_t close = t.find("-->", i + 4);
        if (close == std::string_view::npos) return false;
        i = close + 3;
        continue;
      }
      xml::Tag tag;
      if (xml::read_tag(t, i, tag) && !tag.closing) {
        if (const xml::Tool* tool = xml::find_tool(tag.name)) {
          open_block(line, ctx, i, tag.name, *tool, false);
          scan(line, ctx, tag.end);
          return true;
        }
      }
    }
    ++i;
  }
  return false;
}

void XmlParser::open_block(const LineRef& line, ParseContext& ctx, size_t at, std::string_view name,
                           const xml::Tool& tool, bool near) {
  block_ = static_cast<int32_t>(ctx.out->blocks.size());
  Block& b = ctx.out->blocks.emplace_back(Dialect::xml, ctx.out->allocator(), "");
  b.era = Era::xml;
  b.start_line = line.number;
  const size_t begin = line.begin + at;
  b.range = {begin, line.end};
  b.id_range = {begin, begin + name.size() + 2};
  tool_ = &tool;
  near_ = near;
  open_name_ = {begin + 1, begin + 1 + name.size()};
  close_name_ = {};
  start_line_ = line.number;
  in_param_ = false;
  reopenable_ = false;
  last_close_ = npos;
  children_.clear();
  crlf_ = line.end < ctx.text.size() && ctx.text[line.end] == '\r';
}

std::optional<OpenValue> XmlParser::open_value() const {
  // (A value closed but reopenable_ is still streamed: its lines may yet go on.)
  if (block_ < 0 || !(in_param_ || reopenable_) || value_lines_begin_ == npos || !cur_.param)
    return std::nullopt;
  if (cur_.param->kind == xml::ValueKind::diff) {
    // build() makes each of the diff's blocks one command, in order (a diff tool's only
    // commands): old_text and new_text, on the line of the block's SEARCH marker.
    const std::optional<xml::DiffReader::Open> open = diff_lines_.open();
    if (!open) return std::nullopt;
    return OpenValue{open->block,
                     open->replace ? "new_text" : "old_text",
                     cur_.line + 1 + open->marker_line,
                     open->lines,
                     false,
                     false};
  }
  if (tool_->params.size() > 1 && tool_->params[1].kind == xml::ValueKind::diff)
    return std::nullopt;
  // The name build() gives the parameter.
  const std::string_view name = tool_->action.empty() ? cur_.param->tag : cur_.param->catalog;
  if (name.empty()) return std::nullopt;
  return OpenValue{0, name, cur_.line, {value_lines_begin_, value_lines_end_}, false, false};
}

void XmlParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (block_ < 0 || line.phantom()) return;
  scan(line, ctx, 0);
}

void XmlParser::scan(const LineRef& line, ParseContext& ctx, size_t from) {
  const std::string_view t = line.text;
  const std::string_view written = slice(ctx.text, open_name_);
  const auto closes_directive = [&](std::string_view name) {
    return name == tool_->name || name == written;
  };
  size_t pos = from;
  while (block_ >= 0) {
    if (in_param_) {
      xml::Tag open;
      if (pos == 0 && !value_fence_.open() && !t.empty() && t[0] == '<' &&
          xml::read_tag(t, 0, open) && !open.closing && xml::find_tool(open.name)) {
        // A tool's opening tag at column 0 inside a value (outside a fence of the value): the
        // value was never closed (a model cut off mid-call); the directive ends here rather
        // than swallow the transcript. The line is offered again as a start line (the router
        // records a resume point before it).
        unclosed(ctx, line.begin, true);
        declined_ = true;
        return;
      }
      if (pos == 0 && cur_.param && cur_.param->kind == xml::ValueKind::trimmed &&
          t.find_first_not_of(" \t\r\v\f") == std::string_view::npos) {
        // A short value (a path, a flag) never holds a blank line: the call was cut off inside
        // it (`<requires_approval>false</requires_`, then the reply ended).
        unclosed(ctx, line.begin, true);
        declined_ = true;
        return;
      }
      if (pos == 0) value_fence_.observe(t); // a file's README may show a tool call in a fence
      // Only closing tags matter inside a value.
      const std::string_view own = slice(ctx.text, cur_.tag);
      bool ended = false;
      for (size_t lt = t.find("</", pos); lt != npos; lt = t.find("</", lt + 2)) {
        xml::Tag tag;
        if (!xml::read_tag(t, lt, tag)) continue;
        const ByteRange tag_name{line.begin + lt + 2, line.begin + lt + 2 + tag.name.size()};
        if (tag.name == own) {
          cur_.value.end = line.begin + lt;
          if (cur_.param) children_.push_back(cur_);
          in_param_ = false;
          // A value taken up again: the whole lines before this closing tag are its for sure.
          if (last_close_ != npos) value_lines_end_ = std::max(value_lines_end_, unsure_end_);
          reopenable_ = cur_.param && cur_.param->to_last_close;
          last_close_ = npos;
          close_line_ = line.number;
          pos = tag.end;
          ended = true;
          break;
        }
        if (closes_directive(tag.name) && last_close_ != npos) {
          // A value taken up again after its closing tag ends at the last one (Cline's
          // reading): what follows it was outside the value, and is ignored as Cline does.
          cur_.value.end = last_close_;
          children_.push_back(cur_);
          in_param_ = false;
          last_close_ = npos;
          close_name_ = tag_name;
          close_at(line, ctx);
          return;
        }
        if (closes_directive(tag.name)) {
          // The value was never closed: its closing tag belongs before the directive's.
          cur_.value.end = line.begin + lt;
          if (cur_.param) children_.push_back(cur_);
          report(ctx, make_diagnostic(
                          code::MISMATCHED_TAG, Dialect::xml, block_, line.number, tag_name,
                          "Parameter " + quote(tag_text(own, false)) + " is not closed before " +
                              quote(tag_text(tag.name, true)),
                          "Close it with " + quote(tag_text(own, true)),
                          {Fix{"Insert " + quote(tag_text(own, true)),
                               true,
                               {{{line.begin + lt, line.begin + lt}, tag_text(own, true)}}}}));
          in_param_ = false;
          close_name_ = tag_name;
          close_at(line, ctx);
          return;
        }
        const bool short_value = cur_.param && cur_.param->kind == xml::ValueKind::trimmed;
        if (short_value && (xml::any_tool_param(tag.name) || near_miss(tag.name, own))) {
          // `<path>a.txt</content>`: a short value closed by another parameter's tag (this
          // tool's or another's: `content` is no parameter of replace_in_file, but a path
          // holds no `</content>` either; read on, the diff's own tags would be taken for
          // the path's and the mistake reported lines below where it is). Or `</pat>`, its
          // own closing tag misspelt: read on, the value would run into the next parameter,
          // whose closing tag would be blamed instead.
          cur_.value.end = line.begin + lt;
          children_.push_back(cur_);
          report(ctx,
                 make_diagnostic(code::MISMATCHED_TAG, Dialect::xml, block_, line.number, tag_name,
                                 "Parameter " + quote(tag_text(own, false)) + " is closed by " +
                                     quote(tag_text(tag.name, true)),
                                 "Close it with " + quote(tag_text(own, true)),
                                 {Fix{"Change the closing tag to " + quote(tag_text(own, true)),
                                      true,
                                      {{tag_name, std::string(own)}}}}));
          in_param_ = false;
          pos = tag.end;
          ended = true;
          break;
        }
      }
      if (!ended) { // the value goes on
        if (pos == 0 && value_lines_begin_ != npos) {
          // (In a value taken up again, a line is the value's only once another closing tag
          // follows it: the directive may end first, the value at the last one.)
          (last_close_ != npos ? unsure_end_ : value_lines_end_) = line.end;
          if (cur_.param->kind == xml::ValueKind::diff)
            diff_lines_.line(t, {line.begin, line.end}, line.next);
        }
        return;
      }
      continue;
    }
    while (pos < t.size() && is_blank(t[pos]))
      ++pos;
    if (pos >= t.size()) return;
    xml::Tag tag;
    const bool at_tag = t[pos] == '<' && xml::read_tag(t, pos, tag);
    if (reopenable_) {
      // After such a value's closing tag: a parameter, the directive's end (or another tool's
      // tag, handled below) keep the value closed; other text on the closing tag's line, or a
      // later line's other tag (the markup of an XML or HTML file), is file content. A later
      // line of text is not: the directive lacks its end and prose follows (as before).
      const bool keeps_closed =
          at_tag &&
          (tag.closing ? closes_directive(tag.name) || xml::find_tool(tag.name)
                       : xml::find_param(*tool_, tag.name) ||
                             (pos == 0 && (xml::find_tool(tag.name) || xml::near_tool(tag.name))));
      const bool content = !keeps_closed && (at_tag || line.number == close_line_);
      reopenable_ = false;
      if (content) {
        reopen(line, ctx, pos);
        continue;
      }
    }
    if (at_tag) {
      const ByteRange tag_name{line.begin + pos + (tag.closing ? 2 : 1),
                               line.begin + pos + (tag.closing ? 2 : 1) + tag.name.size()};
      if (tag.closing && closes_directive(tag.name)) {
        close_name_ = tag_name;
        close_at(line, ctx);
        return;
      }
      if (!tag.closing && pos == 0 && !xml::find_param(*tool_, tag.name) &&
          (xml::find_tool(tag.name) || xml::near_tool(tag.name))) {
        // The next directive begins: this one lacks its closing tag (the line is offered
        // again as a start line, as above).
        unclosed(ctx, line.begin, true);
        declined_ = true;
        return;
      }
      if (tag.closing && xml::find_tool(tag.name)) {
        // `<write_to_file>` … `</replace_in_file>`: closed by another tool's tag.
        report(ctx,
               make_diagnostic(code::MISMATCHED_TAG, Dialect::xml, block_, line.number, tag_name,
                               "Directive " + quote(tag_text(written, false)) + " is closed by " +
                                   quote(tag_text(tag.name, true)),
                               "Close it with " + quote(tag_text(written, true)),
                               {Fix{"Change the closing tag to " + quote(tag_text(written, true)),
                                    true,
                                    {{tag_name, std::string(written)}}}}));
        close_name_ = tag_name;
        close_at(line, ctx);
        return;
      }
      pos = tag.end;
      if (tag.closing) continue; // a stray closing tag between parameters
      cur_ = Child{xml::find_param(*tool_, tag.name),
                   tag_name,
                   {line.begin + tag.end, line.begin + tag.end},
                   line.number};
      in_param_ = true;
      value_fence_ = MarkdownFence();
      // Streamed as whole lines when the opening tag ends its line (the value's first line
      // break is not part of it: raw_value drops it).
      const bool whole_lines =
          tag.end == t.size() && line.has_newline && cur_.param &&
          (cur_.param->kind == xml::ValueKind::raw || cur_.param->kind == xml::ValueKind::diff);
      value_lines_begin_ = value_lines_end_ = whole_lines ? line.next : npos;
      diff_lines_ = xml::DiffReader();
      if (!cur_.param)
        report(ctx, validation_diagnostic(
                        "UNKNOWN_PARAM", Severity::parameter_warning, block_, line.number, tag_name,
                        "Unknown parameter '" + std::string(tag.name) + "' for " +
                            std::string(tool_->name) + "; it is ignored",
                        "Remove it or rename it to a parameter of " + std::string(tool_->name)));
      continue;
    }
    // Text between parameters: after the opening tag it is ignored; on a later line the
    // directive has ended without its closing tag.
    if (line.number == start_line_) return;
    unclosed(ctx, line.begin, true);
    declined_ = true;
    return;
  }
}

void XmlParser::reopen(const LineRef& line, ParseContext& ctx, size_t pos) {
  last_close_ = children_.back().value.end;
  children_.pop_back(); // cur_ is that child
  in_param_ = true;
  unsure_end_ = value_lines_end_;
  if (pos == 0 && value_lines_begin_ != npos) {
    // Streamed: the lines since the closing tag's (it included) are whole lines of the value,
    // once another closing tag follows.
    size_t end = line.begin;
    if (end > 0 && ctx.text[end - 1] == '\n') --end;
    if (end > 0 && ctx.text[end - 1] == '\r') --end;
    unsure_end_ = std::max(unsure_end_, end);
  }
}

void XmlParser::close_at(const LineRef& line, ParseContext& ctx) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  b.range.end = line.end;
  b.end_line = line.number;
  build(ctx);
}

void XmlParser::yield(const LineRef& line, ParseContext& ctx) {
  unclosed(ctx, line.begin, true);
}

void XmlParser::unclosed(ParseContext& ctx, size_t at, bool before_line) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  const std::string nl = crlf_ ? "\r\n" : "\n";
  const std::string written(slice(ctx.text, open_name_));
  std::string insert;
  // A value taken up again after its closing tag (last_close_) ends there: closed already.
  const bool param_open = in_param_ && last_close_ == npos;
  if (param_open) insert += tag_text(slice(ctx.text, cur_.tag), true) + nl;
  insert += tag_text(written, true);
  const bool ends_nl = !ctx.text.empty() && ctx.text.back() == '\n';
  insert = before_line || ends_nl ? insert + nl : nl + insert;
  Diagnostic d = make_diagnostic(
      code::UNCLOSED_BLOCK, Dialect::xml, block_, start_line_, b.id_range,
      "Directive " + quote(tag_text(written, false)) + " is not closed: expected " +
          quote(tag_text(written, true)) + " " +
          (before_line ? "before the text that follows it" : "before the end of input"),
      "Close the directive with " + quote(tag_text(written, true)),
      {Fix{"Insert the closing tag" + std::string(param_open ? "s" : ""),
           true,
           {{{at, at}, insert}}}});
  d.line_dependent = before_line;
  report(ctx, std::move(d));
  if (in_param_) {
    cur_.value.end = last_close_ != npos ? last_close_ : before_line ? at : ctx.text.size();
    if (cur_.param) children_.push_back(cur_);
    in_param_ = false;
  }
  build(ctx);
}

void XmlParser::finish(ParseContext& ctx) {
  if (block_ < 0) return;
  unclosed(ctx, ctx.text.size(), false);
}

void XmlParser::report(ParseContext& ctx, Diagnostic d) {
  ctx.out->diagnostics.push_back(std::move(d));
}

void XmlParser::add_param(ParseContext& ctx, Command& c, std::string_view name,
                          const Child& child) {
  Parameter& p = c.params.emplace_back(name);
  p.name_range = child.tag;
  p.line = child.line;
  set_value(ctx.text, p,
            child.param->kind == xml::ValueKind::trimmed ? trimmed(ctx.text, child.value)
                                                         : raw_value(ctx.text, child.value));
}

void XmlParser::add_diff_commands(ParseContext& ctx, Block& b, const Child* path,
                                  const Child* diff) {
  const auto command = [&](uint32_t line, ByteRange name_range) -> Command& {
    Command& c = b.commands.emplace_back(near_ ? std::string_view(slice(ctx.text, open_name_))
                                               : tool_->action);
    c.line = line;
    c.name_range = name_range;
    if (path) add_param(ctx, c, "path", *path);
    return c;
  };
  if (!diff) {
    report(ctx, validation_diagnostic("MISSING_PARAM", Severity::command_error, block_, start_line_,
                                      open_name_, "Missing required parameter: diff",
                                      "Add <diff> with the SEARCH/REPLACE blocks"));
  } else {
    const ByteRange body = raw_value(ctx.text, diff->value);
    xml::ParsedDiff parsed = xml::parse_diff(ctx.text, body);
    // The diff's first line, counted once: the reader numbers its markers' lines from there
    // (counting from the block's start for each problem was quadratic in a malformed diff).
    uint32_t body_line = start_line_;
    for (size_t i = b.range.begin; i < body.begin; ++i)
      body_line += ctx.text[i] == '\n';
    for (xml::DiffProblem& problem : parsed.problems) {
      const bool at_marker = problem.at.size() > 0;
      report(ctx, make_diagnostic(code::MALFORMED_EDIT, Dialect::xml, block_,
                                  at_marker ? body_line + problem.line : diff->line,
                                  at_marker ? problem.at : diff->tag, std::move(problem.message),
                                  std::move(problem.hint)));
    }
    for (const xml::DiffBlock& d : parsed.blocks) {
      const uint32_t line = body_line + d.line;
      Command& c = command(line, d.marker);
      for (const auto& [name, range] : {std::pair{std::string_view("old_text"), d.old_text},
                                        std::pair{std::string_view("new_text"), d.new_text}}) {
        Parameter& p = c.params.emplace_back(name);
        p.name_range = name == "old_text" ? d.marker : d.replace_marker;
        p.line = line;
        set_value(ctx.text, p, range);
      }
    }
    if (!parsed.blocks.empty()) return;
  }
  // No block to apply: one command with empty texts, so that only the problem above is said.
  Command& c = command(start_line_, open_name_);
  for (const std::string_view name : {std::string_view("old_text"), std::string_view("new_text")}) {
    Parameter& p = c.params.emplace_back(name);
    p.name_range = open_name_;
    p.line = start_line_;
    p.value_range = {open_name_.end, open_name_.end};
    p.value_is_slice = false;
  }
}

void XmlParser::build(ParseContext& ctx) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  const std::string_view written = slice(ctx.text, open_name_);
  if (near_) {
    Diagnostic d =
        validation_diagnostic("UNKNOWN_COMMAND", Severity::command_error, block_, start_line_,
                              open_name_, "Unknown command '" + std::string(written) + "'",
                              "Did you mean '" + std::string(tool_->name) + "'?");
    if (b.end_line) {
      Fix fix{"Change '" + std::string(written) + "' to '" + std::string(tool_->name) + "'",
              true,
              {{open_name_, std::string(tool_->name)}}};
      if (slice(ctx.text, close_name_) != tool_->name)
        fix.edits.push_back({close_name_, std::string(tool_->name)});
      d.fixes.push_back(std::move(fix));
    }
    report(ctx, std::move(d));
  }
  const Child* path = nullptr;
  const Child* diff = nullptr;
  for (const Child& c : children_) {
    if (c.param->tag == "path") path = &c;
    if (c.param->kind == xml::ValueKind::diff) diff = &c;
  }
  if (tool_->params.size() > 1 && tool_->params[1].kind == xml::ValueKind::diff) {
    add_diff_commands(ctx, b, path, diff);
  } else {
    const bool catalog = !tool_->action.empty();
    Command& c = b.commands.emplace_back(near_ || !catalog ? written : tool_->action);
    c.line = start_line_;
    c.name_range = open_name_;
    for (const Child& child : children_) {
      const std::string_view name = catalog ? child.param->catalog : child.param->tag;
      if (!name.empty()) add_param(ctx, c, name, child);
    }
    if (!tool_->implied_param.empty() && catalog) {
      Parameter& p = c.params.emplace_back(tool_->implied_param);
      p.name_range = open_name_;
      p.line = start_line_;
      p.value_range = {open_name_.end, open_name_.end};
      p.value_is_slice = false;
      p.decoded = std::string(tool_->implied_value);
    }
    if (!catalog) // no catalog action checks the parameters: the table's required ones
      for (const xml::ToolParam& tp : tool_->params) {
        if (!tp.required) continue;
        bool seen = false;
        for (const Child& child : children_)
          seen = seen || child.param == &tp;
        if (!seen)
          report(ctx, validation_diagnostic("MISSING_PARAM", Severity::command_error, block_,
                                            start_line_, open_name_,
                                            "Missing required parameter: " + std::string(tp.tag),
                                            "Add <" + std::string(tp.tag) + "> with its value"));
      }
  }
  block_ = -1;
  reopenable_ = false;
  last_close_ = npos;
}

} // namespace blockls
