// Heredoc file creation (see heredoc_parser.h). Every tolerated variant of the start line is
// accepted with a HEREDOC_VARIANT note and a fix to the canonical form; the body is the lines
// between the start line and the marker, joined with "\n" plus a final "\n" (the shell's
// semantics: the file ends with a newline; an empty body is an empty file).
#include "grammar/heredoc/heredoc_parser.h"

#include "grammar/shell_heredoc.h"
#include "grammar/syntax_code.h"

#include <charconv>
#include <functional>

namespace blockls {
namespace {

uint64_t path_key(std::string_view path) {
  return std::hash<std::string_view>{}(path);
}

// DUPLICATE_FILE's message, built in one allocation (a transcript that rewrites its files has
// one for most heredocs; the chain of `+` took several).
std::string duplicate_message(std::string_view path, uint32_t first_line) {
  char number[16];
  char* number_end = std::to_chars(number, number + sizeof number, first_line + 1).ptr;
  constexpr std::string_view a = "File '", b = "' is already written by the heredoc at line ",
                             c = "; both run in order and the later one wins";
  std::string out;
  out.reserve(a.size() + path.size() + b.size() + static_cast<size_t>(number_end - number) +
              c.size());
  out.append(a)
      .append(path)
      .append(b)
      .append(number, static_cast<size_t>(number_end - number))
      .append(c);
  return out;
}

// What the shell would expand in a start line's path (a shell writes `cat > ~/x` to the home
// directory; blockls, which runs no shell, would write a directory named `~` under the root),
// or null. `quote`: the path's quote character ('\0' when unquoted); nothing expands in single
// quotes, and a tilde only unquoted.
const char* shell_expansion(std::string_view path, char quote) {
  if (quote == '\'') return nullptr;
  if (quote == '\0' && path.starts_with('~')) return "'~' (the home directory)";
  if (path.find('$') != std::string_view::npos) return "a '$' (a variable or command)";
  if (path.find('`') != std::string_view::npos) return "backquotes (a command)";
  return nullptr;
}

} // namespace

void HeredocParser::report(ParseContext& ctx, Diagnostic diagnostic) {
  ctx.out->diagnostics.push_back(std::move(diagnostic));
}

bool HeredocParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (line.phantom() || !heredoc::may_start(line.text)) return false;
  const std::optional<heredoc::StartLine> start = heredoc::parse_start(line.text);
  if (!start) return false;
  const std::string_view path =
      line.text.substr(start->path_begin, start->path_end - start->path_begin);
  const std::string_view mark =
      line.text.substr(start->mark_begin, start->mark_end - start->mark_begin);
  block_ = static_cast<int32_t>(ctx.out->blocks.size());
  Block& b = ctx.out->blocks.emplace_back(Dialect::heredoc, ctx.out->allocator(), mark, 1);
  b.era = Era::heredoc;
  b.id_range = {line.begin + start->mark_begin, line.begin + start->mark_end};
  b.start_line = line.number;
  b.range = {line.begin, line.end};
  Command& c = b.commands[0];
  c.name = start->append ? "file_append" : "file_write";
  c.name_range = {line.begin + start->indent, line.begin + start->indent + 3}; // `cat`
  c.line = line.number;
  Parameter& p = c.params.emplace_back("path");
  p.name_range = {line.begin + start->path_begin, line.begin + start->path_end};
  p.value_range = p.name_range;
  p.line = line.number;
  // The path (unquoted) is exactly value_range: read from the source, not copied.
  // value_is_slice stays false, as it always was for the path.
  p.value_is_slice = false;
  p.source = Parameter::Source::range;

  mark_.assign(mark);
  mark_range_ = b.id_range;
  body_begin_ = body_end_ = npos;
  body_crlf_ = false;
  last_end_ = start_end_ = line.end;
  fence_close_begin_ = npos;
  crlf_ = line.end < ctx.text.size() && ctx.text[line.end] == '\r';

  if (!start->canonical) {
    const std::string canonical =
        heredoc::canonical_start(path, mark, start->append, start->path_quote);
    const ByteRange syntax{line.begin + start->indent, line.begin + start->end};
    report(ctx,
           make_diagnostic(code::HEREDOC_VARIANT, Dialect::heredoc, block_, line.number, syntax,
                           "Heredoc start line " + quote(slice(ctx.text, syntax)) +
                               " is accepted, but the canonical form is " + quote(canonical),
                           "Write it as " + quote(canonical),
                           {Fix{"Rewrite as " + quote(canonical), true, {{syntax, canonical}}}}));
  }
  if (const char* what = shell_expansion(path, start->path_quote)) {
    Diagnostic d =
        make_diagnostic(code::SHELL_EXPANSION, Dialect::heredoc, block_, line.number, p.value_range,
                        "The path " + quote(path) + " relies on the shell to expand " + what +
                            "; blockls does not, and writes the path as it stands, under the root",
                        "Write the path relative to the project root, without shell expansion");
    report(ctx, std::move(d));
  }
  if (!start->append) {
    if (const std::optional<uint32_t> first = written_.insert(path_key(path), line.number)) {
      Diagnostic d = make_diagnostic(code::DUPLICATE_FILE, Dialect::heredoc, block_, line.number,
                                     p.value_range, duplicate_message(path, *first),
                                     "Merge the two heredocs, or remove the one that is not meant");
      d.line_dependent = true;
      report(ctx, std::move(d));
    }
  }
  return true;
}

void HeredocParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (block_ < 0 || line.phantom()) return;
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  if (b.fence_close_line && *b.fence_close_line == line.number && fence_close_begin_ == npos)
    fence_close_begin_ = line.begin;
  const shell::Terminator end = shell::terminator(line.text, mark_);
  if (end == shell::Terminator::exact) {
    last_end_ = line.end;
    close_block(ctx, line.number);
    return;
  }
  if (end == shell::Terminator::indented) {
    report(ctx, make_diagnostic(code::INDENTED_TERMINATOR, Dialect::heredoc, block_, line.number,
                                {line.begin, line.end},
                                "The heredoc's end marker " + quote(mark_) +
                                    " has blanks around it; it still ends the heredoc",
                                "Write " + quote(mark_) + " alone at the start of the line",
                                {Fix{"Remove the blanks around " + quote(mark_),
                                     true,
                                     {{{line.begin, line.end}, mark_}}}}));
    last_end_ = line.end;
    close_block(ctx, line.number);
    return;
  }
  if (body_begin_ == npos) body_begin_ = line.begin;
  body_crlf_ |= line.next - line.end != 1;
  body_end_ = line.end;
  last_end_ = line.end;
  b.range.end = line.end;
}

void HeredocParser::close_block(ParseContext& ctx, std::optional<uint32_t> end_line) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  b.end_line = end_line;
  b.range.end = last_end_;
  Command& c = b.commands[0];
  Parameter& p = c.params.emplace_back("content");
  p.name_range = mark_range_;
  p.line = b.start_line;
  p.value_is_slice = false;
  if (body_begin_ != npos) {
    p.value_range = {body_begin_, body_end_};
    // The value is the body's lines joined with "\n" (a "\r" before one dropped) plus a final
    // "\n": when every body line ends with a bare "\n" (every closed LF body), exactly the
    // source from the body's first byte through the last line's "\n", read in place instead
    // of copied.
    if (!body_crlf_)
      p.source = Parameter::Source::range_and_break;
    else
      p.decoded = shell::body_content(ctx.text, body_begin_, body_end_);
  } else {
    // An empty body: an empty file. The (empty) value sits where the body would begin.
    const size_t at = std::min(ctx.text.size(), b.range.end);
    p.value_range = {at, at};
  }
  block_ = -1;
}

void HeredocParser::finish(ParseContext& ctx, uint32_t) {
  if (block_ < 0) return;
  const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  std::string where;
  const TextEdit edit = shell::close_heredoc_edit(ctx.text, fence_close_begin_, b.fence_close_line,
                                                  mark_, crlf_, &where);
  const ByteRange start_line{b.range.begin, start_end_};
  Diagnostic d =
      make_diagnostic(code::UNCLOSED_HEREDOC, Dialect::heredoc, block_, b.start_line, start_line,
                      "Heredoc for " + quote(b.commands[0].params[0].value(ctx.text)) +
                          " is not closed: no line " + quote(mark_) + " before the end of input",
                      "Add the line " + quote(mark_) + " where the file's content ends",
                      {Fix{"Insert " + quote(mark_) + " " + where, true, {edit}}});
  d.line_dependent = fence_close_begin_ != npos;
  report(ctx, std::move(d));
  close_block(ctx, std::nullopt);
}

void HeredocParser::resume(std::string_view text, const std::vector<Block>& earlier, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const Block& b = earlier[i];
    if (b.dialect != Dialect::heredoc || b.commands.empty() || b.commands[0].name != "file_write" ||
        b.commands[0].params.empty())
      continue;
    written_.insert(path_key(b.commands[0].params[0].value(text)), b.start_line);
  }
}

} // namespace blockls
