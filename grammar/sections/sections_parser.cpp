// Command input with sections (see sections_parser.h). The body is kept as byte offsets while
// the block is open; the parameters are built when it closes, because whether a line before
// the first delimiter is stray text or part of a single MESSAGE is only known then.
#include "grammar/sections/sections_parser.h"

#include "grammar/line_breaks.h"
#include "grammar/shell_heredoc.h"
#include "grammar/syntax_code.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace blockls {
namespace {

// Eight hex digits from the block's text (FNV-1a): a UUID prefix that a fix can write and that
// a re-parse computes again from the same text.
std::string block_uuid(std::string_view text) {
  uint32_t h = 2166136261u;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

} // namespace

bool SectionsParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (line.phantom() || !shell::may_end_with_operator(line.text.data(), line.text.size()))
    return false;
  const std::optional<sections::StartLine> start = sections::parse_start(line.text);
  if (!start) return false;
  const std::string_view mark =
      line.text.substr(start->mark_begin, start->mark_end - start->mark_begin);
  block_ = static_cast<int32_t>(ctx.out->blocks.size());
  Block& b = ctx.out->blocks.emplace_back(Dialect::sections, ctx.out->allocator(), mark, 1);
  b.era = Era::sections;
  b.id_range = {line.begin + start->mark_begin, line.begin + start->mark_end};
  b.start_line = line.number;
  b.range = {line.begin, line.end};
  Command& c = b.commands[0];
  c.name = line.text.substr(start->name_begin, start->name_end - start->name_begin);
  c.name_range = {line.begin + start->name_begin, line.begin + start->name_end};
  c.line = line.number;

  mark_.assign(mark);
  mark_range_ = b.id_range;
  body_begin_ = body_end_ = npos;
  last_end_ = start_end_ = line.end;
  fence_close_begin_ = npos;
  crlf_ = line.end < ctx.text.size() && ctx.text[line.end] == '\r';
  stray_begin_ = stray_end_ = npos;
  delims_.clear();
  uuid_.clear();
  return true;
}

void SectionsParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (block_ < 0 || line.phantom()) return;
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  if (b.fence_close_line && *b.fence_close_line == line.number && fence_close_begin_ == npos)
    fence_close_begin_ = line.begin;
  const shell::Terminator end = shell::terminator(line.text, mark_);
  if (end != shell::Terminator::none) {
    if (end == shell::Terminator::indented)
      ctx.out->diagnostics.push_back(make_diagnostic(
          code::INDENTED_TERMINATOR, Dialect::sections, block_, line.number, {line.begin, line.end},
          "The end marker " + quote(mark_) + " has blanks around it; it still ends the input",
          "Write " + quote(mark_) + " alone at the start of the line",
          {Fix{"Remove the blanks around " + quote(mark_),
               true,
               {{{line.begin, line.end}, mark_}}}}));
    last_end_ = line.end;
    close_block(ctx, line.number);
    return;
  }
  if (body_begin_ == npos) body_begin_ = line.begin;
  body_end_ = last_end_ = line.end;
  b.range.end = line.end;

  const size_t lead = shell::skip_blanks(line.text, 0);
  if (lead < line.text.size() && line.text[lead] == '-') {
    if (const std::optional<sections::Delimiter> d = sections::parse_delimiter(line.text)) {
      const std::string_view uuid = line.text.substr(d->uuid_begin, d->uuid_end - d->uuid_begin);
      // The first delimiter decides: with a UUID only delimiters of that UUID count (plain
      // `---NAME---` lines are content), else every delimiter does.
      const bool counts = delims_.empty() || uuid_.empty() || uuid == uuid_;
      if (counts) {
        if (delims_.empty()) uuid_.assign(uuid);
        delims_.push_back({line.number, line.begin, line.next, line.begin + d->begin,
                           line.begin + d->end, line.begin + d->name_begin,
                           line.begin + d->name_end, d->has_uuid()});
        section_name_.assign(line.text.substr(d->name_begin, d->name_end - d->name_begin));
        section_first_ = section_last_end_ = npos;
        return;
      }
    }
  }
  if (delims_.empty() && lead < line.text.size()) {
    if (stray_begin_ == npos) {
      stray_begin_ = line.begin;
      stray_line_ = line.number;
    }
    stray_end_ = line.end;
  }
  if (!delims_.empty()) note_section_line(line.begin, line.end);
}

std::optional<OpenValue> SectionsParser::open_value() const {
  // Only a body known to be structured: one that opened with a delimiter, or has two (with
  // text first and one delimiter, the whole body may yet be MESSAGE).
  if (block_ < 0 || delims_.empty() || section_first_ == npos) return std::nullopt;
  if (stray_begin_ != npos && delims_.size() < 2) return std::nullopt;
  return OpenValue{0,     section_name_, delims_.back().line, {section_first_, section_last_end_},
                   false, false};
}

void SectionsParser::set_value(ParseContext& ctx, Parameter& p, size_t begin, size_t end) const {
  end = std::max(begin, end);
  std::string_view v = ctx.text.substr(begin, end - begin);
  p.value_is_slice = true;
  if (v.find('\r') == std::string_view::npos) {
    while (!v.empty() && v.front() == '\n')
      v.remove_prefix(1);
    while (!v.empty() && v.back() == '\n')
      v.remove_suffix(1);
    const size_t at = static_cast<size_t>(v.data() - ctx.text.data());
    p.value_range = {at, at + v.size()};
    return;
  }
  // CRLF: the lines joined with "\n" (as the parser reads lines), then trimmed.
  std::string decoded = crlf_to_lf(v);
  size_t b = 0, e = decoded.size();
  while (b < e && decoded[b] == '\n')
    ++b;
  while (e > b && decoded[e - 1] == '\n')
    --e;
  while (!v.empty() && (v.front() == '\n' || v.front() == '\r'))
    v.remove_prefix(1);
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r'))
    v.remove_suffix(1);
  const size_t at = static_cast<size_t>(v.data() - ctx.text.data());
  p.value_range = {at, at + v.size()};
  p.value_is_slice = false;
  p.decoded = decoded.substr(b, e - b);
}

Fix SectionsParser::uuid_fix(const ParseContext& ctx, const std::vector<bool>& collides,
                             const std::string& uuid) const {
  Fix fix{"Use UUID-prefixed delimiters (---(UUID:" + uuid +
              ")NAME---): the repeated delimiter lines become content",
          false,
          {}};
  for (size_t k = 0; k < delims_.size(); ++k) {
    if (collides[k]) continue;
    const std::string_view name = slice(ctx.text, {delims_[k].name_begin, delims_[k].name_end});
    fix.edits.push_back(
        {{delims_[k].begin, delims_[k].end}, "---(UUID:" + uuid + ")" + std::string(name) + "---"});
  }
  return fix;
}

bool SectionsParser::build_params(ParseContext& ctx, Command& c, std::vector<bool>& collides,
                                  std::vector<size_t>& first_of) const {
  // Each name's first delimiter and its parameter, by name: a body of n delimiters is read in
  // O(n), where comparing each name with every earlier one took O(n²).
  struct FirstUse {
    size_t delim = 0, param = 0;
  };
  std::unordered_map<std::string_view, FirstUse> first_use;
  first_use.reserve(delims_.size());
  bool any_collision = false;
  for (size_t k = 0; k < delims_.size(); ++k) {
    const Delim& d = delims_[k];
    const std::string_view name = slice(ctx.text, {d.name_begin, d.name_end});
    const size_t value_end = k + 1 < delims_.size() ? delims_[k + 1].line_begin : body_end_;
    const auto [it, first] = first_use.try_emplace(name, FirstUse{k, c.params.size()});
    if (!first) {
      collides[k] = any_collision = true;
      first_of[k] = it->second.delim;
    }
    Parameter& p = first ? c.params.emplace_back(name) : c.params[it->second.param];
    p.name_range = {d.name_begin, d.name_end};
    p.line = d.line;
    p.decoded = std::string();
    set_value(ctx, p, d.next, value_end);
  }
  return any_collision;
}

void SectionsParser::report_collisions(ParseContext& ctx, const Block& b,
                                       const std::vector<bool>& collides,
                                       const std::vector<size_t>& first_of) const {
  const std::string uuid = block_uuid(slice(ctx.text, {b.range.begin, last_end_}));
  const Fix fix = uuid_fix(ctx, collides, uuid);
  // The fix rewrites every other delimiter of the block, so a copy on each of n collisions
  // would hold ~n² edits: copies go to the collisions in order while the block's total stays
  // within kMaxCollisionFixEdits (the first always has one); later ones point to the first.
  size_t fix_edits = 0;
  std::optional<uint32_t> fix_line; // the line of the first collision, which has the fix
  for (size_t k = 0; k < delims_.size(); ++k) {
    if (!collides[k]) continue;
    const Delim& d = delims_[k];
    const std::string text(slice(ctx.text, {d.begin, d.end}));
    const std::string name(slice(ctx.text, {d.name_begin, d.name_end}));
    std::vector<Fix> fixes;
    std::string elsewhere; // the hint's pointer to the fix, when this collision has none
    if (uuid_.empty() && !fix.edits.empty()) {
      if (!fix_line || fix_edits + fix.edits.size() <= kMaxCollisionFixEdits) {
        fixes.push_back(fix);
        fixes.back().preferred = !fix_line;
        fix_edits += fix.edits.size();
        if (!fix_line) fix_line = d.line;
      } else {
        elsewhere = " (the fix of the collision at line " + std::to_string(*fix_line + 1) +
                    " does that for the whole block)";
      }
    }
    const std::string first_line = std::to_string(delims_[first_of[k]].line + 1);
    Diagnostic diag =
        uuid_.empty()
            ? make_diagnostic(
                  code::DELIMITER_COLLISION, Dialect::sections, block_, d.line, {d.begin, d.end},
                  "Found unexpected delimiter " + quote(text) + " at line " +
                      std::to_string(d.line + 1) +
                      ". Content appears to contain the delimiter pattern (" + name +
                      " begins at line " + first_line + "); the last occurrence wins",
                  "Rephrase the content to avoid " + quote(text) +
                      " on its own line, or use UUID-prefixed delimiters: ---(UUID:" + uuid + ")" +
                      name + "---" + elsewhere,
                  std::move(fixes))
            // UUID delimiters cannot come from content: the parameter is given twice.
            : make_diagnostic(code::DELIMITER_COLLISION, Dialect::sections, block_, d.line,
                              {d.begin, d.end},
                              "Delimiter " + quote(text) + " at line " +
                                  std::to_string(d.line + 1) + " repeats " + name +
                                  " (first at line " + first_line + "); the last occurrence wins",
                              "Remove one of the two " + name + " sections");
    diag.line_dependent = true;
    ctx.out->diagnostics.push_back(std::move(diag));
  }
}

void SectionsParser::close_block(ParseContext& ctx, std::optional<uint32_t> end_line) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  b.end_line = end_line;
  b.range.end = last_end_;
  Command& c = b.commands[0];
  // Structured when the body opens with a delimiter, or has two or more: a single
  // delimiter-like line after text is content of a MESSAGE (the seed's example 3, where
  // "single-parameter mode doesn't use structured delimiters").
  const bool structured = !delims_.empty() && (stray_begin_ == npos || delims_.size() >= 2);
  if (!structured) {
    // The whole body is the one parameter MESSAGE.
    Parameter& p = c.params.emplace_back("MESSAGE");
    p.name_range = mark_range_;
    p.line = b.start_line;
    if (body_begin_ != npos) {
      set_value(ctx, p, body_begin_, body_end_);
    } else {
      const size_t at = std::min(ctx.text.size(), b.range.end);
      p.value_range = {at, at};
    }
    block_ = -1;
    return;
  }
  const Delim& first = delims_.front();
  const std::string first_text(slice(ctx.text, {first.begin, first.end}));
  if (stray_begin_ != npos) {
    ctx.out->diagnostics.push_back(make_diagnostic(
        code::STRAY_TEXT, Dialect::sections, block_, stray_line_, {stray_begin_, stray_end_},
        "Text before the first delimiter " + quote(first_text) +
            " belongs to no parameter; it is ignored",
        "Put it under a ---NAME--- delimiter line, or remove it",
        {Fix{"Remove the text before " + quote(first_text),
             false,
             {{{stray_begin_, first.line_begin}, ""}}}}));
  }
  // One parameter per name, in the order of first use; a repeated name takes the later value.
  std::vector<bool> collides(delims_.size(), false);
  std::vector<size_t> first_of(delims_.size(), 0); // delimiter index of the name's first use
  const bool any_collision = build_params(ctx, c, collides, first_of);
  if (any_collision) report_collisions(ctx, b, collides, first_of);
  block_ = -1;
}

void SectionsParser::finish(ParseContext& ctx) {
  if (block_ < 0) return;
  const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  std::string where;
  const TextEdit edit = shell::close_heredoc_edit(ctx.text, fence_close_begin_, b.fence_close_line,
                                                  mark_, crlf_, &where);
  Diagnostic d = make_diagnostic(
      code::UNCLOSED_HEREDOC, Dialect::sections, block_, b.start_line, {b.range.begin, start_end_},
      "Input of " + quote(b.commands[0].name) + " is not closed: no line " + quote(mark_) +
          " before the end of input",
      "Add the line " + quote(mark_) + " where the input ends",
      {Fix{"Insert " + quote(mark_) + " " + where, true, {edit}}});
  d.line_dependent = fence_close_begin_ != npos;
  ctx.out->diagnostics.push_back(std::move(d));
  close_block(ctx, std::nullopt);
}

} // namespace blockls
