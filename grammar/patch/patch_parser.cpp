// Codex patch envelopes (see patch_parser.h). Messages are Codex's own wording; every
// malformed line is MALFORMED_EDIT on that line, a missing `*** End Patch` UNCLOSED_BLOCK on
// the `*** Begin Patch` line.
#include "grammar/patch/patch_parser.h"

#include "grammar/line_breaks.h"
#include "grammar/patch/patch_line.h"
#include "grammar/syntax_code.h"

namespace blockls {
namespace {

using patch::trim_blanks;

// [begin, end) of `text` (whole lines) as a parameter value: the slice when it has no "\r" and
// ends with "\n", else its lines without "\r" plus a final "\n".
void set_lines(Parameter& p, std::string_view text, size_t begin, size_t end) {
  p.value_range = {begin, end};
  const std::string_view part = text.substr(begin, end - begin);
  if (part.empty() || (part.find('\r') == std::string_view::npos && part.ends_with('\n'))) return;
  std::string out = crlf_to_lf(part);
  if (!out.ends_with('\n')) out += '\n';
  p.value_is_slice = false;
  p.decoded = std::move(out);
}

// Add File content: each line without its `+` (a line missing it as it is), each + "\n".
std::string add_content(std::string_view text, size_t begin, size_t end) {
  std::string out;
  for (size_t pos = begin; pos < end;) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos || nl > end) nl = end;
    std::string_view line = text.substr(pos, nl - pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.starts_with('+')) line.remove_prefix(1);
    out.append(line);
    out += '\n';
    pos = nl + 1;
  }
  return out;
}

} // namespace

void PatchParser::variant(const LineRef& line, std::string_view t, ParseContext& ctx) {
  if (t.size() == line.text.size()) return;
  const ByteRange r{line.begin, line.end};
  ctx.out->diagnostics.push_back(make_diagnostic(
      code::PATCH_MARKER_VARIANT, Dialect::patch, block_, line.number, r,
      "Patch marker '" + std::string(line.text) +
          "' is accepted, but blanks around it are not "
          "part of the format",
      "Write '" + std::string(t) + "' alone on its line, without blanks around it",
      {Fix{"Remove the blanks around '" + std::string(t) + "'", true, {{r, std::string(t)}}}}));
}

void PatchParser::malformed(const LineRef& line, ParseContext& ctx, std::string message,
                            std::string hint, std::vector<Fix> fixes) {
  errors_ = true;
  ctx.out->diagnostics.push_back(make_diagnostic(
      code::MALFORMED_EDIT, Dialect::patch, block_, line.number, {line.begin, line.end},
      std::move(message), std::move(hint), std::move(fixes)));
}

bool PatchParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (line.phantom()) return false;
  const std::string_view t = trim_blanks(line.text);
  if (t != patch::kBegin) return false;
  block_ = static_cast<int32_t>(ctx.out->blocks.size());
  Block& b = ctx.out->blocks.emplace_back(Dialect::patch, ctx.out->allocator(), "");
  b.era = Era::patch;
  b.start_line = line.number;
  b.range = {line.begin, line.end};
  const size_t marker = line.begin + static_cast<size_t>(t.data() - line.text.data());
  b.id_range = {marker, marker + t.size()};
  op_ = Op::none;
  fence_close_begin_ = npos;
  errors_ = false;
  crlf_ = line.end < ctx.text.size() && ctx.text[line.end] == '\r';
  variant(line, t, ctx);
  return true;
}

void PatchParser::header(const LineRef& line, std::string_view t, ParseContext& ctx) {
  if (t.empty()) return; // blank lines between operations
  const patch::Header h = patch::classify_header(t);
  if (h.kind == patch::HeaderKind::none || h.kind == patch::HeaderKind::move) {
    malformed(line, ctx,
              "'" + std::string(t) +
                  "' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', "
                  "'*** Delete File: {path}', '*** Update File: {path}'",
              "Start each file operation with '*** Add File: PATH', '*** Delete File: PATH' or "
              "'*** Update File: PATH'");
    return;
  }
  variant(line, t, ctx);
  const size_t lead = static_cast<size_t>(t.data() - line.text.data());
  const ByteRange marker{line.begin + lead, line.begin + lead + h.marker_size};
  const ByteRange path{line.begin + lead + h.path_begin, line.begin + lead + t.size()};
  std::pmr::vector<Command>& commands = block(ctx).commands.mutable_vector();
  Command& c = commands.emplace_back(h.kind == patch::HeaderKind::add      ? "file_write"
                                     : h.kind == patch::HeaderKind::remove ? "file_delete"
                                                                           : "file_patch");
  c.name_range = marker;
  c.line = line.number;
  Parameter& p = c.params.emplace_back("path");
  p.name_range = marker;
  p.value_range = path;
  p.line = line.number;
  op_line_ = line.number;
  op_range = marker;
  op_path_ = std::string(slice(ctx.text, path));
  body_begin_ = body_end_ = line.next;
  body_text_end_ = npos;
  if (h.kind == patch::HeaderKind::add) {
    op_ = Op::add;
  } else if (h.kind == patch::HeaderKind::update) {
    op_ = Op::update;
    may_move_ = true;
    hunks_ = patch::HunkReader(false);
    hunk_lines_ = 0;
  } else {
    op_ = Op::none;
  }
}

void PatchParser::end_op(ParseContext& ctx) {
  if (op_ == Op::none) return;
  Command& c = block(ctx).commands.back();
  if (op_ == Op::add) {
    Parameter& p = c.params.emplace_back("content");
    p.name_range = op_range;
    p.line = op_line_;
    p.value_range = {body_begin_, body_end_};
    p.value_is_slice = false;
    p.decoded = add_content(ctx.text, body_begin_, body_end_);
  } else {
    Parameter& p = c.params.emplace_back("hunks");
    p.name_range = op_range;
    p.line = op_line_;
    set_lines(p, ctx.text, body_begin_, body_end_);
    if (!hunks_.finish(op_path_)) {
      const uint32_t line = op_line_;
      const ByteRange r = op_range;
      ctx.out->diagnostics.push_back(make_diagnostic(
          code::MALFORMED_EDIT, Dialect::patch, block_, line, r, hunks_.message(),
          "Give the update at least one hunk: '@@', then ' ' context, '-' removed and '+' "
          "added lines"));
    }
  }
  op_ = Op::none;
}

std::optional<OpenValue> PatchParser::open_value(const ParsedDocument& doc) const {
  if (block_ < 0 || op_ == Op::none || (op_ == Op::update && may_move_) || body_text_end_ == npos ||
      fence_close_begin_ != npos)
    return std::nullopt;
  const Block& b = doc.blocks[static_cast<size_t>(block_)];
  if (b.commands.empty()) return std::nullopt;
  OpenValue v;
  v.command = static_cast<uint32_t>(b.commands.size() - 1);
  v.param = op_ == Op::add ? "content" : "hunks";
  v.line = op_line_;
  v.lines = {body_begin_, body_text_end_};
  v.final_break = true;
  v.line_marker = op_ == Op::add ? '+' : 0;
  return v;
}

void PatchParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (block_ < 0 || line.phantom()) return;
  Block& b = block(ctx);
  if (fence_close_begin_ != npos) return; // after the fence closed: not the patch's
  if (b.fence_close_line && *b.fence_close_line == line.number) {
    fence_close_begin_ = line.begin;
    return;
  }
  b.range.end = line.end;
  const std::string_view t = trim_blanks(line.text);
  if (t == patch::kEnd) {
    end_op(ctx);
    variant(line, t, ctx);
    close(ctx, line.number);
    return;
  }
  if (op_ == Op::add) {
    if (line.text.starts_with('+')) {
      body_end_ = line.next;
      body_text_end_ = line.end;
      return;
    }
    if (!t.starts_with("***")) {
      body_end_ = line.next;
      body_text_end_ = line.end;
      malformed(
          line, ctx, "Invalid Add File line (missing '+')",
          "Start every line of an added file with '+'",
          {Fix{"Insert '+' at the start of the line", true, {{{line.begin, line.begin}, "+"}}}});
      return;
    }
    end_op(ctx);
  } else if (op_ == Op::update) {
    if (may_move_) {
      may_move_ = false;
      const patch::Header h = patch::classify_header(t);
      if (h.kind == patch::HeaderKind::move) {
        variant(line, t, ctx);
        const size_t lead = static_cast<size_t>(t.data() - line.text.data());
        Parameter& p = b.commands.back().params.emplace_back("new_path");
        p.name_range = {line.begin + lead, line.begin + lead + h.marker_size};
        p.value_range = {line.begin + lead + h.path_begin, line.begin + lead + t.size()};
        p.line = line.number;
        body_begin_ = body_end_ = line.next;
        body_text_end_ = npos;
        return;
      }
    }
    const patch::HunkReader::Step s = hunks_.feed(line.text, hunk_lines_++);
    if (s != patch::HunkReader::Step::ended) {
      body_end_ = line.next;
      body_text_end_ = line.end;
      if (s == patch::HunkReader::Step::error)
        malformed(line, ctx, hunks_.message(),
                  "Start each hunk with '@@' (or '@@ context'); each of its lines with ' ', '-' "
                  "or '+'");
      return;
    }
    end_op(ctx);
  }
  header(line, t, ctx);
}

void PatchParser::close(ParseContext& ctx, std::optional<uint32_t> end_line) {
  Block& b = block(ctx);
  b.end_line = end_line;
  if (b.commands.empty() && end_line && !errors_)
    ctx.out->diagnostics.push_back(make_diagnostic(
        code::MALFORMED_EDIT, Dialect::patch, block_, b.start_line, b.id_range,
        "No files were modified.",
        "Add a file operation: '*** Add File: PATH', '*** Delete File: PATH' or '*** Update "
        "File: PATH'"));
  block_ = -1;
}

void PatchParser::finish(ParseContext& ctx) {
  if (block_ < 0) return;
  end_op(ctx);
  const Block& b = block(ctx);
  const std::string nl = crlf_ ? "\r\n" : "\n";
  const std::string end(patch::kEnd);
  Diagnostic d(Dialect::patch);
  const std::string message = "The last line of the patch must be '*** End Patch'";
  if (fence_close_begin_ != npos) {
    d = make_diagnostic(code::UNCLOSED_BLOCK, Dialect::patch, block_, b.start_line, b.id_range,
                        message + " (the Markdown fence closes at line " +
                            std::to_string(*b.fence_close_line + 1) + " before it)",
                        "Add '*** End Patch' after the patch's last line",
                        {Fix{"Insert '*** End Patch' before the closing fence",
                             true,
                             {{{fence_close_begin_, fence_close_begin_}, end + nl}}}});
    d.line_dependent = true;
  } else {
    const bool ends_nl = !ctx.text.empty() && ctx.text.back() == '\n';
    d = make_diagnostic(
        code::UNCLOSED_BLOCK, Dialect::patch, block_, b.start_line, b.id_range, message,
        "Add '*** End Patch' after the patch's last line",
        {Fix{"Append '*** End Patch'",
             true,
             {{{ctx.text.size(), ctx.text.size()}, ends_nl ? end + nl : nl + end}}}});
  }
  ctx.out->diagnostics.push_back(std::move(d));
  close(ctx, std::nullopt);
}

} // namespace blockls
