// The nesl-js state machine (SEEKING_HEADER -> IN_BLOCK -> IN_HEREDOC) over complete lines,
// with nesl-js's 14 error codes (same conditions, messages and positions), our extra notes
// (SUSPICIOUS_END, GLUED_DELIMITER, DUPLICATE_BLOCK_ID, LEGACY_ERA, NONSTANDARD_*) and a fix
// for each cause that has a knowable repair. Errors that only follow from an earlier one in
// the same block (cascades) carry no fix, so applying every preferred fix gives one repair
// per cause.
#include "grammar/nesl/nesl_parser.h"

#include "grammar/byte_search.h"
#include "grammar/bytes.h"
#include "grammar/text_edit.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace blockls {
namespace {

// `text` parsed by a NESL parser alone, line by line, as the line router would hand it its
// lines with every other dialect off (a repaired header's block is checked so, without
// calling the router back).
ParsedDocument parse_alone(std::string_view text) {
  ParsedDocument doc;
  NeslParser parser;
  ParseContext ctx{text, &doc, false};
  uint32_t number = 0;
  size_t begin = 0;
  for (;;) {
    const size_t nl = text.find('\n', begin);
    const bool has_newline = nl != std::string_view::npos;
    const size_t next = has_newline ? nl + 1 : text.size();
    size_t end = has_newline ? nl : text.size();
    if (has_newline && end > begin && text[end - 1] == '\r') --end;
    const LineRef line{number, begin, end, next, text.substr(begin, end - begin), has_newline};
    if (parser.in_block())
      parser.on_line(line, ctx);
    else
      parser.try_start(line, ctx);
    if (!has_newline) break;
    begin = next;
    ++number;
  }
  parser.finish(ctx, number + 1);
  return doc;
}

// Makes `s` equal to `head` + `tail`. When `s` has that size already and starts with `head`
// (the id or delimiter of the previous block: same era, an id as long), only `tail`'s bytes
// are written, in place: clear() and append() are out-of-line calls that cost several times
// as much as the few bytes of an id, at every block.
// (The general case out of line: the common one then needs no saved registers.)
[[gnu::noinline]] void assign_joined(std::string& s, std::string_view head, std::string_view tail) {
  s.clear();
  s.append(head);
  s.append(tail);
}
inline void set_joined(std::string& s, std::string_view head, std::string_view tail) {
  if (s.size() == head.size() + tail.size() && starts_with_bytes(s, head))
    copy_bytes(s.data() + head.size(), tail.data(), tail.size());
  else
    assign_joined(s, head, tail);
}

using nesl::Assignment;
using nesl::EraSyntax;

// The LEGACY_ERA note of an older era (SHAM or upper-case NESL), built once: every block of
// such an era has it.
const std::string& legacy_era_message(Era era) {
  static const auto build = [](Era e) {
    const EraSyntax& old = nesl::era_syntax(e);
    return std::string(e == Era::sham ? "SHAM" : "Upper-case NESL") + " syntax ('" +
           std::string(old.marker()) + "', '" + std::string(old.end_prefix) + "', '" +
           std::string(old.delim_prefix) +
           "') is an older era of NESL; current tools expect '#!nesl', '#!end_', 'EOT_'";
  };
  static const std::string sham = build(Era::sham), upper = build(Era::nesl_upper);
  return era == Era::sham ? sham : upper;
}

// Ours.

using nesl::kStandardLabel;

// Byte offset reached by walking `units` UTF-16 units from `begin` (clamped to the text).
size_t advance_utf16(std::string_view text, size_t begin, size_t units) {
  size_t pos = begin;
  size_t done = 0;
  while (pos < text.size() && done < units) {
    const unicode::Decoded d = unicode::decode(text, pos);
    done += d.valid && d.codepoint > 0xFFFF ? 2 : 1;
    pos += d.length;
  }
  return pos;
}

// True when `s` (already trimmed at the end) ends with a `"` that no backslash escapes.
bool ends_with_unescaped_quote(std::string_view s) {
  if (s.empty() || s.back() != '"') return false;
  size_t backslashes = 0;
  for (size_t i = s.size() - 1; i > 0 && s[i - 1] == '\\'; --i)
    ++backslashes;
  return backslashes % 2 == 0;
}

bool is_valid_key_line(std::string_view line) {
  const Assignment a = nesl::parse_assignment(line);
  if (a.kind == Assignment::Kind::error) return false;
  return a.key_begin == 0 && !nesl::key_error(line.substr(a.key_begin, a.key_end - a.key_begin));
}

// Repairs one assignment line so that it parses as a clean `key = "value"`: `:=` / `=>`
// become `=`, a bare or single-quoted value is quoted, invalid escapes are escaped, trailing
// content is dropped, a leading indent is stripped and an invalid key renamed. nullopt when
// no clean line comes out.
std::optional<std::string> repair_assignment(std::string_view line, std::string_view code,
                                             size_t err_begin) {
  std::string s(line);
  if (code == "INVALID_OPERATOR" && s.compare(err_begin, 2, ":=") == 0)
    s.replace(err_begin, 2, "=");
  if (code == code::INVALID_VALUE.name && s.compare(err_begin, 2, "=>") == 0)
    s.replace(err_begin, 2, "=");
  for (int round = 0; round < 4; ++round) {
    const Assignment a = nesl::parse_assignment(s);
    if (a.kind == Assignment::Kind::heredoc) return std::nullopt;
    if (a.kind == Assignment::Kind::quoted) {
      if (a.key_begin > 0) {
        s.erase(0, a.key_begin);
        continue;
      }
      const std::string_view key = std::string_view(s).substr(0, a.key_end);
      if (nesl::key_error(key)) {
        const std::string fixed = nesl::repair_key(key);
        if (fixed.empty()) return std::nullopt;
        s.replace(0, a.key_end, fixed);
        continue;
      }
      return s;
    }
    if (a.code == code::INVALID_VALUE.name) {
      if (a.err_end > s.size()) return std::nullopt; // empty value: nothing to quote
      const std::string_view v = std::string_view(s).substr(a.err_begin, a.err_end - a.err_begin);
      if (v.starts_with("<<") || v.starts_with("=>")) return std::nullopt;
      std::string quoted;
      if (v.front() == '"') {
        quoted = "\"" + nesl::escape_invalid_json(v.substr(1, v.size() - 2)) + "\"";
      } else if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') {
        quoted = "\"" + nesl::json_escape(v.substr(1, v.size() - 2)) + "\"";
      } else {
        quoted = "\"" + nesl::json_escape(v) + "\"";
      }
      s.replace(a.err_begin, a.err_end - a.err_begin, quoted);
      continue;
    }
    if (a.code == code::TRAILING_CONTENT.name) {
      s.erase(a.value_end);
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::string key_of_line(std::string_view line) {
  const Assignment a = nesl::parse_assignment(line);
  return std::string(line.substr(a.key_begin, a.key_end - a.key_begin));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Diagnostics and fixes

int NeslParser::report(ParseContext& ctx, SyntaxCode code, int32_t block, uint32_t line,
                       ByteRange range, std::string message, std::string hint) {
  ctx.out->diagnostics.push_back(make_diagnostic(code, Dialect::nesl, block, line, range,
                                                 std::move(message), std::move(hint)));
  return static_cast<int>(ctx.out->diagnostics.size() - 1);
}

void NeslParser::add_fix(ParseContext& ctx, int diag, std::string title,
                         std::vector<TextEdit> edits, bool preferred) {
  if (diag == kNone || edits.empty()) return;
  std::vector<Fix>& fixes = ctx.out->diagnostics[static_cast<size_t>(diag)].fixes;
  Fix fix{std::move(title), preferred, std::move(edits)};
  if (preferred) {
    fixes.insert(fixes.begin(), std::move(fix));
  } else {
    fixes.push_back(std::move(fix));
  }
}

std::string NeslParser::fresh_id(uint32_t seed) const {
  static constexpr std::string_view kAlphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  uint32_t n = seed * 2654435761u + 12345u;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::string id;
    uint32_t v = n;
    for (int k = 0; k < 3; ++k) {
      id.push_back(kAlphabet[v % kAlphabet.size()]);
      v /= static_cast<uint32_t>(kAlphabet.size());
    }
    // A fresh id is unused by every block seen so far.
    const bool used = id == id_ || seen_ids_.count(id) > 0;
    if (!used) return id;
    n = n * 1103515245u + 12345u;
  }
  return "zzz";
}

TextEdit NeslParser::close_insertion(ParseContext& ctx, std::string_view text_to_insert) const {
  if (fence_close_begin_ != npos)
    return {{fence_close_begin_, fence_close_begin_}, std::string(text_to_insert)};
  const size_t size = ctx.text.size();
  if (size == 0 || ctx.text.back() == '\n') return {{size, size}, std::string(text_to_insert)};
  std::string t = nl_ + std::string(text_to_insert);
  if (t.ends_with(nl_)) t.resize(t.size() - nl_.size());
  return {{size, size}, t};
}

// ---------------------------------------------------------------------------------------------
// Entry points

void NeslParser::resume(uint8_t newline_state, const std::vector<Block>& earlier, size_t count) {
  nl_known_ = newline_state != 0;
  nl_ = newline_state == 2 ? "\r\n" : "\n";
  // open_block() records the id of every NESL block it opens, and only there; id_ outlives
  // its block (fresh_id() avoids it when repairing a later header).
  for (size_t b = 0; b < count; ++b) {
    if (earlier[b].dialect != Dialect::nesl) continue;
    seen_ids_.emplace(earlier[b].id, earlier[b].start_line);
    id_ = earlier[b].id;
  }
}

void NeslParser::learn_newline(const LineRef& line, const ParseContext& ctx) {
  nl_known_ = true;
  if (line.end < ctx.text.size() && ctx.text[line.end] == '\r') nl_ = "\r\n";
}

bool NeslParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (!nl_known_ && line.has_newline) learn_newline(line, ctx);
  seeking_line(line, ctx);
  const std::string_view trimmed = nesl::js_trim(line.text);
  const EraSyntax* era = nesl::header_era(trimmed);
  prev_line_begin_ = line.begin;
  if (!era) return false;
  handle_header(line, ctx, *era, false);
  return true;
}

void NeslParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (!nl_known_ && line.has_newline) learn_newline(line, ctx);
  if (block_ < 0) return;
  {
    const Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
    if (b.fence_close_line && *b.fence_close_line == line.number && fence_close_begin_ == npos) {
      fence_close_begin_ = line.begin;
      cascade_ = true; // the block's fence is closed: what follows is not meant for it
    }
  }
  const int32_t before = block_;
  if (state_ == State::in_heredoc) {
    heredoc_line(line, ctx);
  } else {
    block_line(line, ctx);
  }
  if (block_ >= 0 && block_ == before)
    ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
  prev_line_begin_ = line.begin;
}

void NeslParser::yield_to_foreign_start(const LineRef& line, ParseContext& ctx) {
  if (state_ != State::in_block) return;
  report_unclosed_before(line, ctx);
  close_block(ctx, std::nullopt);
}

void NeslParser::finish(ParseContext& ctx, uint32_t line_count) {
  const size_t end = ctx.text.size();
  if (state_ == State::in_heredoc) {
    const std::string end_marker = std::string(era_->end_prefix) + id_;
    const int d = report(ctx, code::UNCLOSED_HEREDOC, block_, line_count, {end, end},
                         "Heredoc '" + delim_ + "' not closed before EOF",
                         "Add a line '" + delim_ + "' after the heredoc content.");
    if (!suspicious_seen_) {
      const size_t end_prefix = era_->end_prefix.size(), delim_prefix = era_->delim_prefix.size();
      if (body_end_marker_ != npos) {
        add_fix(ctx, d, "Close the heredoc before '" + end_marker + "'",
                {{{body_end_marker_, body_end_marker_}, delim_ + nl_}});
        fix_id_refs_.push_back(
            {d, {body_end_marker_ + end_prefix, body_end_marker_ + end_prefix + id_.size()}});
      } else if (glued_delim_ != npos) {
        // `EOT_<id>#!end_<id>`: the two split onto lines of their own (text before the
        // delimiter stays the last content line, as for a glued delimiter).
        std::vector<TextEdit> edits;
        if (glued_delim_ > glued_line_begin_) edits.push_back({{glued_delim_, glued_delim_}, nl_});
        edits.push_back({{glued_delim_ + delim_.size(), glued_end_}, nl_});
        add_fix(ctx, d, "Put '" + delim_ + "' and '" + end_marker + "' on lines of their own",
                std::move(edits));
        fix_id_refs_.push_back({d, {glued_delim_ + delim_prefix, glued_delim_ + delim_.size()}});
        fix_id_refs_.push_back(
            {d, {glued_end_ + end_prefix, glued_end_ + end_prefix + id_.size()}});
      } else {
        add_fix(ctx, d, "Close the heredoc and the block",
                {close_insertion(ctx, delim_ + nl_ + end_marker + nl_)});
      }
    }
    close_block(ctx, std::nullopt);
  } else if (state_ == State::in_block) {
    if (quote_.active) resolve_pending_quote(ctx, nullptr);
    const std::string end_marker = std::string(era_->end_prefix) + id_;
    const int d = report(ctx, code::UNCLOSED_BLOCK, block_, line_count, {end, end},
                         "Block '" + id_ + "' not closed before EOF",
                         "End the block with a line '" + end_marker + "'.");
    if (!suspicious_seen_ && !skip_.active)
      add_fix(ctx, d, "Insert '" + end_marker + "'", {close_insertion(ctx, end_marker + nl_)});
    close_block(ctx, std::nullopt);
  }
  pending_header_ = {};
}

// ---------------------------------------------------------------------------------------------
// Headers

void NeslParser::handle_header(const LineRef& line, ParseContext& ctx, const EraSyntax& era,
                               bool /*inside_block*/) {
  const nesl::HeaderMatch m = nesl::match_header(line.text, era);
  if (!m.matched) {
    const int d = report(ctx, code::MALFORMED_HEADER, -1, line.number, {line.begin, line.end},
                         "Invalid " + std::string(era.name) + " header format",
                         "A header is exactly '" + std::string(era.header) + "[@" +
                             std::string(kStandardLabel) + ": id]'.");
    // A repair: the loosely parsed id in the canonical header, offered once its end marker
    // shows the block is otherwise sound.
    std::string_view t = nesl::js_trim(line.text).substr(era.header.size());
    t = nesl::js_trim(t);
    if (t.starts_with('[')) t = nesl::js_trim(t.substr(1));
    if (t.starts_with('@')) t.remove_prefix(1);
    if (t.ends_with(']')) t.remove_suffix(1);
    const size_t colon = t.rfind(':');
    std::string id(nesl::js_trim(colon == npos ? t : t.substr(colon + 1)));
    if (nesl::is_valid_block_id(id) && unicode::utf16_length(id) == 3) {
      pending_header_ = {};
      pending_header_.active = true;
      pending_header_.diag = d;
      pending_header_.era = era.era;
      pending_header_.old_id = id;
      pending_header_.new_id = id;
      pending_header_.header_begin = line.begin;
      pending_header_.header_edit = {{line.begin, line.end},
                                     std::string(era.header) + "[@" + std::string(kStandardLabel) +
                                         ": " + id + "]"};
    }
    return;
  }
  const std::string_view id = line.text.substr(m.id_begin, m.id_end - m.id_begin);
  if (const auto err = nesl::block_id_error(id)) {
    const std::string standard =
        std::string(era.header) + "[@" + std::string(kStandardLabel) + ": ";
    ByteRange range;
    if (line.text.starts_with(standard)) {
      range = {line.begin + m.id_begin, line.begin + m.id_end};
    } else { // nesl-js: column 1, the id's length
      range = {line.begin, advance_utf16(ctx.text, line.begin, unicode::utf16_length(id))};
    }
    const int d = report(ctx, code::INVALID_BLOCK_ID, -1, line.number, range, std::string(*err),
                         "A block id is 3 letters or digits (2-8 are accepted).");
    std::string fixed;
    for (char c : id)
      if (is_ascii_alnum(c)) fixed.push_back(c);
    if (fixed.size() != 3 || seen_ids_.count(fixed) > 0) {
      fixed = fresh_id(line.number);
      ctx.out->diagnostics[static_cast<size_t>(d)].line_dependent = true;
    }
    pending_header_ = {};
    pending_header_.active = true;
    pending_header_.diag = d;
    pending_header_.era = era.era;
    pending_header_.old_id = std::string(id);
    pending_header_.new_id = fixed;
    pending_header_.header_begin = line.begin;
    std::string header(era.header);
    header += "[@" + std::string(kStandardLabel) + ": " + fixed + "]";
    pending_header_.header_edit = {{line.begin, line.end}, header};
    return;
  }
  open_block(line, ctx, era, m);
}

void NeslParser::seeking_line(const LineRef& line, ParseContext& ctx) {
  PendingHeader& p = pending_header_;
  if (!p.active || line.begin == p.header_begin) return;
  const std::string_view t = line.text;
  if (nesl::header_era(nesl::js_trim(t))) {
    p = {};
    return;
  }
  const EraSyntax& era = nesl::era_syntax(p.era);
  const std::string old_end = std::string(era.end_prefix) + p.old_id;
  const std::string old_delim = std::string(era.delim_prefix) + p.old_id;
  const std::string new_delim = std::string(era.delim_prefix) + p.new_id;
  if (t == old_end || t == old_end + "'") {
    std::vector<TextEdit> edits = p.edits;
    edits.push_back(p.header_edit);
    edits.push_back({{line.begin, line.end}, std::string(era.end_prefix) + p.new_id});
    // Verify: the repaired block alone must parse without any diagnostic.
    std::string repaired;
    apply_edits(ctx.text.substr(p.header_begin, line.end - p.header_begin), edits, &repaired,
                p.header_begin);
    const ParsedDocument check = parse_alone(repaired);
    const bool used = seen_ids_.count(p.new_id) > 0;
    if (check.diagnostics.empty() && check.blocks.size() == 1 && !used)
      add_fix(ctx, p.diag, "Rewrite the header as '" + p.header_edit.new_text + "'",
              std::move(edits));
    p = {};
    return;
  }
  if (p.old_id == p.new_id) return;
  const size_t opener = t.find("<<'" + old_delim + "'");
  if (opener != npos) {
    p.edits.push_back(
        {{line.begin + opener + 3, line.begin + opener + 3 + old_delim.size()}, new_delim});
  } else if (t == old_delim) {
    p.edits.push_back({{line.begin, line.end}, new_delim});
  }
}

void NeslParser::open_block(const LineRef& line, ParseContext& ctx, const EraSyntax& era,
                            const nesl::HeaderMatch& m) {
  const std::string_view id = line.text.substr(m.id_begin, m.id_end - m.id_begin);
  // Built in place (no temporary Block or Command to move and destroy).
  Block& blk = ctx.out->blocks.emplace_back(Dialect::nesl, ctx.out->allocator(), id, 1);
  blk.era = era.era;
  blk.id_range = {line.begin + m.id_begin, line.begin + m.id_end};
  blk.start_line = line.number;
  blk.range = {line.begin, line.end};
  Command& c = blk.commands.front();
  c.params.reserve(4); // here, not at the first parameter: no test per parameter
  c.line = line.number;
  c.name_range = {line.begin, line.begin};
  block_ = static_cast<int32_t>(ctx.out->blocks.size() - 1);
  state_ = State::in_block;
  era_ = &era;
  set_joined(id_, {}, id);
  set_joined(delim_, era.delim_prefix, id);
  delim_clear_from_ = delim_clear_until_ = 0;
  params_doc_ = ctx.out;
  params_block_ = block_;
  param_key_bits_ = 0;
  cascade_ = suspicious_seen_ = false;
  fence_close_begin_ = npos;
  id_refs_.assign(1, blk.id_range);
  era_refs_.assign(1, {line.begin, line.begin + era.marker().size()});
  duplicate_diag_ = legacy_diag_ = kNone;
  fix_id_refs_.clear();
  first_diag_ = ctx.out->diagnostics.size();
  if (skip_.active || !skip_.edits.empty()) skip_ = {};
  if (quote_.active) quote_ = {};
  if (pending_header_.active) pending_header_ = {};

  if (const uint32_t* seen = seen_ids_.find_or_emplace(id_, line.number)) {
    const uint32_t seen_line = *seen;
    duplicate_diag_ =
        report(ctx, code::DUPLICATE_BLOCK_ID, block_, line.number, blk.id_range,
               "Block id '" + id_ + "' is already used by the block on line " +
                   std::to_string(seen_line + 1) +
                   "; tools that match results and errors by id confuse the two blocks",
               "Give every block its own id.");
    Diagnostic& duplicate = ctx.out->diagnostics[static_cast<size_t>(duplicate_diag_)];
    duplicate.line_dependent = true;
    duplicate.across_blocks = true;
  }
  // (find_or_emplace() recorded a new id with this line; a seen one keeps its first line.)
  // A block opens only with a valid id: ASCII letters and digits, one UTF-16 unit each.
  const size_t units = id_.size();
  if (units != 3)
    report(ctx, code::NONSTANDARD_BLOCK_ID, block_, line.number, blk.id_range,
           "Block id '" + id_ + "' has " + std::to_string(units) +
               " characters; the documented form is exactly 3 (nesl-js accepts 2 to 8)");
  const std::string_view label = line.text.substr(m.label_begin, m.label_end - m.label_begin);
  if (label != kStandardLabel) {
    const int d = report(ctx, code::NONSTANDARD_HEADER_LABEL, block_, line.number,
                         {line.begin + m.label_begin, line.begin + m.label_end},
                         "Header label '@" + std::string(label) + "' is not the documented '@" +
                             std::string(kStandardLabel) +
                             "'; nesl-js 0.1.12 accepts any label, "
                             "older parsers reject the header");
    add_fix(
        ctx, d, "Use '@" + std::string(kStandardLabel) + "'",
        {{{line.begin + m.label_begin, line.begin + m.label_end}, std::string(kStandardLabel)}});
  }
  if (era.era != Era::nesl)
    legacy_diag_ = report(ctx, code::LEGACY_ERA, block_, line.number, era_refs_.front(),
                          legacy_era_message(era.era));
}

// ---------------------------------------------------------------------------------------------
// Block lines

void NeslParser::report_unclosed_before(const LineRef& line, ParseContext& ctx) {
  Block& b = ctx.out->blocks[static_cast<size_t>(block_)];
  const uint32_t prev = line.number > 0 ? line.number - 1 : 0;
  if (prev_line_begin_ < line.begin) b.range.end = std::max(b.range.begin, line.begin - 1);
  if (b.range.end > b.range.begin && ctx.text[b.range.end - 1] == '\r') --b.range.end;
  const std::string end_marker = std::string(era_->end_prefix) + id_;
  const int d =
      report(ctx, code::UNCLOSED_BLOCK, block_, prev, {prev_line_begin_, prev_line_begin_},
             "Block '" + id_ + "' not closed before new block",
             "End the block with a line '" + end_marker + "' before the next one.");
  if (!suspicious_seen_ && !skip_.active) {
    const size_t at = fence_close_begin_ != npos ? fence_close_begin_ : line.begin;
    add_fix(ctx, d, "Insert '" + end_marker + "'", {{{at, at}, end_marker + nl_}});
  }
}

bool NeslParser::suspicious_end(const LineRef& line, ParseContext& ctx, std::string_view trimmed) {
  std::string_view rest = trimmed.substr(era_->end_prefix.size());
  size_t n = 0;
  while (n < rest.size() && is_ascii_alnum(rest[n]))
    ++n;
  if (n < 2 || n > 8) return false;
  std::string_view tail = rest.substr(n);
  if (tail.starts_with('\'')) tail.remove_prefix(1);
  if (!tail.empty()) {
    const unicode::Decoded d = unicode::decode(tail, 0);
    if (!d.valid || !nesl::is_js_space(d.codepoint)) return false;
  }
  const std::string_view end_id = rest.substr(0, n);
  const size_t lead = static_cast<size_t>(trimmed.data() - line.text.data());
  std::string why = lead > 0        ? "it is indented"
                    : !tail.empty() ? "text follows it"
                                    : "trailing whitespace";
  if (lead > 0 && !tail.empty()) why = "it is indented and text follows it";
  std::string message = "'" + std::string(era_->end_prefix) + std::string(end_id) +
                        "' is not an exact end marker (" + why +
                        "); nesl ignores the line and the block stays open";
  if (end_id != id_)
    message += "; it also names '" + std::string(end_id) + "' instead of '" + id_ + "'";
  const std::string exact = std::string(era_->end_prefix) + id_;
  const int d = report(ctx, code::SUSPICIOUS_END, block_, line.number,
                       {line.begin + lead, line.begin + lead + trimmed.size()}, message,
                       "The end marker must be alone on its line, unindented.");
  if (!skip_.active && !quote_.active)
    add_fix(ctx, d, "Rewrite as '" + exact + "'", {{{line.begin, line.end}, exact}});
  suspicious_seen_ = true;
  cascade_ = true;
  return true;
}

// block_line() for the common lines — `key = "value"` or a heredoc opener with this block's
// delimiter, a valid key at column 0 not seen before in the block — when no quote or skipped
// heredoc is pending: they only add a parameter or open the heredoc. False, having done
// nothing, for any other line.
bool NeslParser::plain_assignment_line(const LineRef& line, ParseContext& ctx) {
  nesl::PlainAssignment a;
  if (!nesl::match_plain_assignment(line.text, &a)) return false;
  const std::string_view key = line.text.substr(0, a.key_end);
  if (find_param(key) >= 0) return false; // a DUPLICATE_KEY
  const size_t base = line.begin;
  if (!a.heredoc) {
    add_quoted_param(ctx, key, {base, base + a.key_end}, {base + a.value_begin, base + a.value_end},
                     line.number);
    return true;
  }
  if (!same_bytes(line.text.substr(a.value_begin, a.value_end - a.value_begin), delim_))
    return false;
  heredoc_key_.assign(key);
  heredoc_key_range_ = {base, base + a.key_end};
  heredoc_line_ = line.number;
  body_begin_ = body_end_ = body_end_marker_ = glued_delim_ = glued_end_ = body_crlf_end_ = npos;
  state_ = State::in_heredoc;
  era_refs_.push_back({base + a.value_begin, base + a.value_begin + era_->delim_prefix.size()});
  id_refs_.push_back({base + a.value_begin + era_->delim_prefix.size(), base + a.value_end});
  return true;
}

bool NeslParser::on_exact_end(const LineRef& line, ParseContext& ctx) {
  if (state_ != State::in_block || block_ < 0 || quote_.active || skip_.active) return false;
  const auto r = nesl::match_end_marker(line.text, *era_);
  if (!r || !same_bytes(line.text.substr(r->begin, r->end - r->begin), id_)) return false;
  // What block_line() does for it (the line is its own trimmed form: nothing may surround an
  // exact end marker).
  id_refs_.push_back({line.begin + r->begin, line.begin + r->end});
  era_refs_.push_back({line.begin, line.begin + era_->end_prefix.size()});
  ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
  close_block(ctx, line.number);
  prev_line_begin_ = line.begin;
  return true;
}

// (The router has tried the line as a plain assignment already: on_plain_assignment().)
void NeslParser::block_line(const LineRef& line, ParseContext& ctx) {
  const std::string_view trimmed = nesl::js_trim(line.text);
  if (trimmed.empty()) return;

  // An open UNCLOSED_QUOTE: a clean line ends it as a one-line string; a line ending with
  // `"` closes a multi-line string (resolved after the line is reported as a cascade).
  bool closes_quote = false;
  if (quote_.active) {
    const bool structural = trimmed.starts_with(era_->end_prefix) || nesl::header_era(trimmed) ||
                            is_valid_key_line(line.text);
    if (structural) {
      resolve_pending_quote(ctx, nullptr);
    } else if (ends_with_unescaped_quote(nesl::js_trim_end(line.text))) {
      closes_quote = true;
    } else {
      quote_.continued = true;
    }
  }
  // A rejected heredoc opener: its closing line ends the cascade.
  bool closes_skip = false;
  size_t skip_pos = npos;
  size_t skip_len = 0;
  if (skip_.active) {
    for (const std::string* delim : {&skip_.written, &delim_}) {
      const size_t pos = line.text.find(*delim);
      if (pos == npos) continue;
      const std::string_view before = line.text.substr(0, pos);
      const std::string_view after = line.text.substr(pos + delim->size());
      if (before.find("<<") == npos && (after.empty() || after == "'")) {
        closes_skip = true;
        skip_pos = pos;
        skip_len = delim->size();
        break;
      }
    }
  }

  const int32_t block_before = block_;
  // End markers and headers of every era start with '#'.
  const bool hash_line = trimmed.front() == '#';
  if (hash_line && starts_with_bytes(trimmed, era_->end_prefix)) {
    if (const auto r = nesl::match_end_marker(line.text, *era_)) {
      const std::string_view end_id = line.text.substr(r->begin, r->end - r->begin);
      id_refs_.push_back({line.begin + r->begin, line.begin + r->end});
      era_refs_.push_back({line.begin, line.begin + era_->end_prefix.size()});
      if (end_id != id_) {
        const int d =
            report(ctx, code::MISMATCHED_END, block_, line.number, {line.begin, line.end},
                   "End marker '" + std::string(end_id) + "' doesn't match block ID '" + id_ + "'",
                   "The end marker repeats the header's id.");
        add_fix(ctx, d, "Use '" + std::string(era_->end_prefix) + id_ + "'",
                {{{line.begin + r->begin, line.begin + r->end}, id_}});
      }
      ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
      close_block(ctx, line.number);
    } else {
      suspicious_end(line, ctx, trimmed);
    }
  } else if (hash_line && starts_with_bytes(trimmed, era_->header)) {
    // A header of the block's own era: nesl-js reports the open block as not closed, even
    // when the header is malformed (then the block goes on).
    const nesl::HeaderMatch m = nesl::match_header(line.text, *era_);
    if (!m.matched) {
      const bool saved = suspicious_seen_;
      suspicious_seen_ = true; // no fix: the end marker would leave a malformed header behind
      report_unclosed_before(line, ctx);
      suspicious_seen_ = saved;
    } else {
      // The block ends here; the header is offered again as a start line (take_declined),
      // so that the router can record a resume point before it.
      report_unclosed_before(line, ctx);
      close_block(ctx, std::nullopt);
      declined_ = true;
    }
  } else if (const EraSyntax* other = hash_line ? nesl::header_era(trimmed) : nullptr;
             other && nesl::match_header(line.text, *other).matched &&
             nesl::is_valid_block_id(
                 line.text.substr(nesl::match_header(line.text, *other).id_begin,
                                  nesl::match_header(line.text, *other).id_end -
                                      nesl::match_header(line.text, *other).id_begin))) {
    // A valid header of another era opens a new block too (offered again, as above).
    report_unclosed_before(line, ctx);
    close_block(ctx, std::nullopt);
    declined_ = true;
  } else if (trimmed.find('=') != npos) {
    assignment_line(line, ctx);
  } else {
    const int d =
        report(ctx, code::MALFORMED_ASSIGNMENT, block_, line.number, {line.begin, line.end},
               "Invalid line format in block '" + id_ +
                   "': not a valid key-value assignment or empty line",
               "Inside a block: 'key = \"value\"', a heredoc, blank lines and the end marker.");
    if (!cascading()) {
      bool fixed = false;
      for (Era e : {Era::nesl, Era::nesl_upper, Era::sham}) {
        const EraSyntax& es = nesl::era_syntax(e);
        if (&es != era_ && trimmed == std::string(es.end_prefix) + id_) {
          const std::string exact = std::string(era_->end_prefix) + id_;
          add_fix(ctx, d, "Rewrite as '" + exact + "'", {{{line.begin, line.end}, exact}});
          fixed = true;
          suspicious_seen_ = cascade_ = true; // this line explains the block's UNCLOSED_BLOCK
        }
      }
      if (!fixed && (trimmed.starts_with("//") || trimmed.starts_with('#'))) {
        const ByteRange whole =
            line.has_newline ? ByteRange{line.begin, line.next} : ByteRange{line.begin, line.end};
        add_fix(ctx, d, "Delete the comment line (NESL has no comments)", {{whole, ""}});
        fixed = true;
      }
      {
        const size_t colon = trimmed.find(':');
        if (!fixed && colon != npos) {
          const std::string key(nesl::js_trim(trimmed.substr(0, colon)));
          const std::string candidate =
              key + " = " + std::string(nesl::js_trim(trimmed.substr(colon + 1)));
          if (!nesl::key_error(key)) {
            if (auto repaired = repair_assignment(candidate, "", 0);
                repaired && !has_param(key_of_line(*repaired)))
              add_fix(ctx, d, "Write '" + key + " = ...'", {{{line.begin, line.end}, *repaired}});
          }
        }
      }
    }
  }

  if (block_ == block_before && block_ >= 0) {
    if (closes_quote && quote_.active) resolve_pending_quote(ctx, &line);
    if (closes_skip && skip_.active) end_skip(ctx, &line, skip_pos, skip_len, false);
  }
}

void NeslParser::assignment_line(const LineRef& line, ParseContext& ctx) {
  Assignment a = nesl::parse_assignment(line.text, false, /*decode=*/false);
  const size_t base = line.begin;
  const size_t text_end = ctx.text.size();
  auto span = [&](size_t b, size_t e) { return ByteRange{base + b, std::min(base + e, text_end)}; };

  // The common line: `key = "plain value"` with a valid, new key at column 0.
  if (a.kind == Assignment::Kind::quoted && a.key_plain && a.value_plain) {
    const std::string_view key = line.text.substr(0, a.key_end);
    const int index = find_param(key);
    if (index < 0) {
      store_param(ctx, index, key, span(0, a.key_end), span(a.value_begin, a.value_end),
                  line.number, {}, false, true);
      return;
    }
  }

  if (a.kind != Assignment::Kind::error) {
    const std::string key(line.text.substr(a.key_begin, a.key_end - a.key_begin));
    const std::string_view raw_key = line.text.substr(0, a.eq);
    const bool leading = a.key_begin > 0;
    const auto key_err = a.key_plain ? std::nullopt : nesl::key_error(key);
    const bool key_valid = !key_err;
    const bool heredoc = a.kind == Assignment::Kind::heredoc;
    int key_diag = kNone;
    std::vector<TextEdit> key_fix;
    if (!key_valid || leading) {
      std::string message;
      ByteRange range;
      if (leading) {
        const unicode::Decoded d = unicode::decode(raw_key, 0);
        message = "Key contains invalid character '" + std::string(raw_key.substr(0, d.length)) +
                  "' at position 1";
        range = span(0, nesl::js_trim_end(raw_key).size());
      } else {
        message = *key_err;
        range = span(a.key_begin, a.key_end);
      }
      key_diag = report(ctx, code::INVALID_KEY, block_, line.number, range, message,
                        "A key is a letter or '_' then letters, digits or '_', unindented.");
      const std::string fixed = key_valid ? key : nesl::repair_key(key);
      if (!cascading() && !fixed.empty() && !has_param(fixed)) {
        key_fix = {{span(0, a.key_end), fixed}};
        if (!heredoc || key_valid) {
          add_fix(ctx, key_diag,
                  leading ? "Remove the indentation before the key"
                          : "Rename the key to '" + fixed + "'",
                  key_fix);
        }
      }
    }
    auto duplicate = [&]() {
      const int d =
          report(ctx, code::DUPLICATE_KEY, block_, line.number, span(a.key_begin, a.key_end),
                 "Duplicate key '" + key + "' in block '" + id_ + "'",
                 "Each key appears once per block; the last value wins.");
      if (cascading()) return;
      for (int n = 2; n < 100; ++n) {
        const std::string renamed = key + "_" + std::to_string(n);
        if (has_param(renamed) || nesl::key_error(renamed)) continue;
        add_fix(ctx, d, "Rename to '" + renamed + "'", {{span(a.key_begin, a.key_end), renamed}});
        break;
      }
    };
    if (!heredoc) {
      if (key_valid && !leading) {
        if (has_param(key)) duplicate();
        const ByteRange token = span(a.value_begin, a.value_end);
        if (a.value_plain) {
          set_param(ctx, key, span(a.key_begin, a.key_end), token, line.number, {}, false, true);
        } else {
          std::string value = std::move(a.value);
          const bool is_slice = value == slice(ctx.text, token);
          set_param(ctx, key, span(a.key_begin, a.key_end), token, line.number,
                    is_slice ? "" : std::move(value), is_slice);
        }
      }
      return;
    }
    if (key_valid && !leading && has_param(key)) duplicate();
    const std::string delim(line.text.substr(a.value_begin, a.value_end - a.value_begin));
    if (key_valid) {
      if (delim == delim_) {
        heredoc_key_ = key;
        heredoc_key_range_ = span(a.key_begin, a.key_end);
        heredoc_line_ = line.number;
        body_begin_ = body_end_ = body_end_marker_ = glued_delim_ = glued_end_ = body_crlf_end_ =
            npos;
        state_ = State::in_heredoc;
        era_refs_.push_back(
            {base + a.value_begin, base + a.value_begin + era_->delim_prefix.size()});
        id_refs_.push_back({base + a.value_begin + era_->delim_prefix.size(), base + a.value_end});
        return;
      }
      const size_t pos = line.text.find(delim);
      const int d =
          report(ctx, code::INVALID_HEREDOC_DELIMITER, block_, line.number,
                 span(pos, pos + delim.size()), "Heredoc delimiter must be '" + delim_ + "'",
                 "Every heredoc of block '" + id_ + "' is closed by '" + delim_ + "'.");
      if (!skip_.active) {
        const bool cascade = cascading();
        skip_ = {};
        skip_.active = true;
        skip_.diag = cascade ? kNone : d;
        skip_.written = delim;
        skip_.edits = {{span(a.value_begin, a.value_end), delim_}};
      }
    } else if (!skip_.active) {
      skip_ = {};
      skip_.active = true;
      skip_.diag = key_fix.empty() ? kNone : key_diag;
      skip_.written = delim;
      skip_.edits = key_fix;
    }
    return;
  }

  // Errors.
  const bool cascade = cascading();
  if (a.code == "INVALID_OPERATOR") {
    const int d = report(
        ctx, code::INVALID_ASSIGNMENT_OPERATOR, block_, line.number, span(a.err_begin, a.err_end),
        "Invalid assignment operator '" + std::string(line.text.substr(a.err_begin, 2)) +
            "' - only '=' is allowed",
        "Assign with '='.");
    if (auto repaired = repair_assignment(line.text, a.code, a.err_begin);
        !cascade && repaired && !has_param(key_of_line(*repaired)))
      add_fix(ctx, d, "Use '='", {{{line.begin, line.end}, *repaired}});
    return;
  }
  if (a.code == code::TRAILING_CONTENT.name) {
    const std::string key(nesl::js_trim(line.text.substr(0, a.eq)));
    const bool present = has_param(key);
    if (!nesl::key_error(key) && !present) {
      const ByteRange token = span(a.value_begin, a.value_end);
      const bool is_slice = a.value == slice(ctx.text, token);
      const size_t key_begin =
          static_cast<size_t>(nesl::js_trim_start(line.text).data() - line.text.data());
      set_param(ctx, key, span(key_begin, key_begin + key.size()), token, line.number,
                is_slice ? "" : a.value, is_slice);
    }
    const int d = report(ctx, code::TRAILING_CONTENT, block_, line.number,
                         span(a.err_begin, a.err_end), "Unexpected content after quoted value",
                         "Nothing may follow the closing quote (NESL has no comments).");
    if (auto repaired = repair_assignment(line.text, a.code, a.err_begin);
        !cascade && repaired && !present) {
      add_fix(ctx, d, "Delete the text after the value", {{{line.begin, line.end}, *repaired}});
    }
    return;
  }
  if (a.code == code::EMPTY_KEY.name) {
    report(ctx, code::EMPTY_KEY, block_, line.number, span(a.err_begin, a.err_end),
           "Assignment without key name", "Write 'key = \"value\"'.");
    return;
  }
  if (a.code == code::UNCLOSED_QUOTE.name) {
    const int d = report(ctx, code::UNCLOSED_QUOTE, block_, line.number,
                         span(a.err_begin, a.err_end), "Unclosed quoted string",
                         "A quoted value ends on its line; use a heredoc for several lines.");
    if (!cascade) {
      const std::string key(line.text.substr(a.key_begin, a.key_end - a.key_begin));
      quote_ = {};
      quote_.active = true;
      quote_.diag = (a.key_begin == 0 && !nesl::key_error(key)) ? d : kNone;
      quote_.line_begin = line.begin;
      quote_.open_quote = base + a.err_begin;
      quote_.line_end = line.end;
      quote_.key = key;
    }
    return;
  }
  if (a.code == code::INVALID_VALUE.name) {
    const int d =
        report(ctx, code::INVALID_VALUE, block_, line.number, span(a.err_begin, a.err_end),
               "Value must be a quoted string or heredoc",
               "Values are \"JSON strings\" (numbers too: \"2\") or <<'" + delim_ + "' heredocs.");
    if (cascade) return;
    const std::string_view value =
        line.text.substr(a.err_begin, std::min(a.err_end, line.text.size()) - a.err_begin);
    if (value.starts_with("<<")) {
      // A heredoc opener gone wrong (`<<EOT_x`, `<<"EOT_x"`): its body follows.
      std::string_view w = nesl::js_trim(value.substr(2));
      if (!w.empty() && (w.front() == '\'' || w.front() == '"')) w.remove_prefix(1);
      size_t n = 0;
      while (n < w.size() && w[n] != '\'' && w[n] != '"' &&
             !nesl::is_js_space(static_cast<unsigned char>(w[n])))
        ++n;
      const std::string key(line.text.substr(a.key_begin, a.key_end - a.key_begin));
      if (n > 0 && !skip_.active) {
        skip_ = {};
        skip_.active = true;
        const bool key_ok = a.key_begin == 0 && !nesl::key_error(key) && !has_param(key);
        skip_.diag = key_ok ? d : kNone;
        skip_.written = std::string(w.substr(0, n));
        skip_.edits = {{span(a.err_begin, a.err_end), "<<'" + delim_ + "'"}};
      }
      return;
    }
    if (auto repaired = repair_assignment(line.text, a.code, a.err_begin);
        repaired && !has_param(key_of_line(*repaired))) {
      std::string title = "Quote the value";
      if (value.starts_with("=>"))
        title = "Use '='";
      else if (value.starts_with('"'))
        title = "Escape the value for JSON";
      add_fix(ctx, d, title, {{{line.begin, line.end}, *repaired}});
    }
    return;
  }
  // MALFORMED_ASSIGNMENT cannot come from a line with '=' (kept for completeness).
  report(ctx, code::MALFORMED_ASSIGNMENT, block_, line.number, {line.begin, line.end},
         "Invalid line format in block '" + id_ +
             "': not a valid key-value assignment or empty line");
}

// ---------------------------------------------------------------------------------------------
// Heredocs

void NeslParser::refresh_delim_search(size_t from, std::string_view text) {
  // Text appended later (streaming) can only add occurrences that start after the last
  // position at which a whole delimiter fitted into the text searched.
  const size_t n = delim_.size();
  const size_t found = find_bytes(text, delim_, from);
  delim_clear_from_ = from;
  delim_clear_until_ = found != npos ? found : text.size() - n + 1;
}

bool NeslParser::on_exact_delim(const LineRef& line, ParseContext& ctx) {
  if (state_ != State::in_heredoc || block_ < 0 || !same_bytes(line.text, delim_)) return false;
  close_heredoc(line, ctx, 0); // what heredoc_line() does for it, then on_line()
  ctx.out->blocks[static_cast<size_t>(block_)].range.end = line.end;
  prev_line_begin_ = line.begin;
  return true;
}

void NeslParser::close_heredoc(const LineRef& line, ParseContext& ctx, size_t pos) {
  ByteRange value_range{line.begin, line.begin};
  std::string decoded;
  bool is_slice = true;
  if (body_begin_ != npos) {
    value_range = {body_begin_, body_end_};
    const std::string_view body = slice(ctx.text, value_range);
    if (body_crlf_end_ < body_end_) { // a line break of the body is "\r\n"
      is_slice = false;
      for (size_t i = 0; i < body.size(); ++i) {
        if (body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n') continue;
        decoded.push_back(body[i]);
      }
    }
  }
  era_refs_.push_back({line.begin + pos, line.begin + pos + era_->delim_prefix.size()});
  id_refs_.push_back(
      {line.begin + pos + era_->delim_prefix.size(), line.begin + pos + delim_.size()});
  state_ = State::in_block;
  set_param(ctx, heredoc_key_, heredoc_key_range_, value_range, heredoc_line_, std::move(decoded),
            is_slice);
}

void NeslParser::heredoc_line(const LineRef& line, ParseContext& ctx) {
  const size_t pos = line.text.find(delim_);
  if (pos != npos) {
    const std::string_view before = line.text.substr(0, pos);
    const std::string_view after = line.text.substr(pos + delim_.size());
    const bool opening = before.find("<<") != npos;
    const bool exact = !opening && pos == 0 && after.empty();
    const bool glued = !opening && !exact && (after.empty() || after == "'");
    if (exact || glued) {
      if (glued && !before.empty()) {
        if (body_begin_ == npos) body_begin_ = line.begin;
        body_end_ = line.begin + pos;
      }
      if (glued) {
        const bool blank_before = !before.empty() && nesl::js_trim(before).empty();
        std::string message = "Heredoc delimiter '" + delim_ + "' ";
        message += before.empty() ? "is followed by a quote" : "is not on its own line";
        message += blank_before ? " (it is indented: the indentation becomes a last content line)"
                                : "; nesl-js accepts it, stricter parsers do not";
        const int d =
            report(ctx, code::GLUED_DELIMITER, block_, line.number, {line.begin + pos, line.end},
                   message, "Put the delimiter alone on its own line.");
        if (blank_before) {
          add_fix(ctx, d, "Remove the indentation before '" + delim_ + "'",
                  {{{line.begin, line.end}, delim_}});
        } else if (!before.empty()) {
          add_fix(ctx, d, "Put '" + delim_ + "' on its own line",
                  {{{line.begin + pos, line.end}, nl_ + delim_}});
        } else {
          add_fix(ctx, d, "Remove the quote after '" + delim_ + "'",
                  {{{line.begin + pos + delim_.size(), line.end}, ""}});
        }
      }
      close_heredoc(line, ctx, pos);
      return;
    }
  }
  // `EOT_<id>#!end_<id>` (blanks between allowed): the heredoc's close glued to the end
  // marker, which nesl-js reads as a content line. Noted for the fix (see finish()).
  if (pos != npos && fence_close_begin_ == npos && !close_anchor_seen() &&
      line.text.substr(0, pos).find("<<") == npos) {
    const std::string_view rest = line.text.substr(pos + delim_.size());
    const size_t lead = blank_run(rest.data(), rest.data() + rest.size());
    const std::string_view marker = rest.substr(lead);
    if (const auto r = nesl::match_end_marker(marker, *era_);
        r && marker.substr(r->begin, r->end - r->begin) == id_ && marker.back() != '\'') {
      glued_line_begin_ = line.begin;
      glued_delim_ = line.begin + pos;
      glued_end_ = glued_delim_ + delim_.size() + lead;
    }
  }
  note_body_line(line);
}

void NeslParser::note_body_line(const LineRef& line) {
  if (body_begin_ == npos) body_begin_ = line.begin;
  body_end_ = line.end;
  if (body_crlf_end_ == npos && line.next - line.end == 2) body_crlf_end_ = line.end;
  if (fence_close_begin_ == npos && !close_anchor_seen() && !line.text.empty() &&
      line.text[0] == '#') {
    if (const auto r = nesl::match_end_marker(line.text, *era_);
        r && line.text.substr(r->begin, r->end - r->begin) == id_ && line.text.back() != '\'')
      body_end_marker_ = line.begin;
  }
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping

int NeslParser::find_param(std::string_view key) const {
  if (!params_doc_ || params_block_ < 0 || (param_key_bits_ & key_bit(key)) == 0) return -1;
  const ModelList<Parameter>& params =
      params_doc_->blocks[static_cast<size_t>(params_block_)].commands.front().params;
  for (size_t i = 0; i < params.size(); ++i)
    if (same_bytes(params[i].name, key)) return static_cast<int>(i);
  return -1;
}

void NeslParser::set_param(ParseContext& ctx, std::string_view key, ByteRange name_range,
                           ByteRange value_range, uint32_t line, std::string decoded, bool is_slice,
                           bool in_quotes) {
  store_param(ctx, find_param(key), key, name_range, value_range, line, std::move(decoded),
              is_slice, in_quotes);
}

Parameter& NeslParser::new_param(Command& c, std::string_view key, ByteRange name_range,
                                 uint32_t line) {
  Parameter& p = c.params.emplace_back(key);
  param_key_bits_ |= key_bit(key);
  p.name_range = name_range;
  p.line = line;
  return p;
}

void NeslParser::name_command(ParseContext& ctx, Command& c, std::string_view key,
                              const Parameter& p) {
  if (!same_bytes(key, "action")) return;
  c.name.assign(p.value(ctx.text));
  c.name_range = p.value_range;
}

void NeslParser::store_param(ParseContext& ctx, int index, std::string_view key,
                             ByteRange name_range, ByteRange value_range, uint32_t line,
                             std::string decoded, bool is_slice, bool in_quotes) {
  Command& c = ctx.out->blocks[static_cast<size_t>(block_)].commands.front();
  Parameter& p =
      index >= 0 ? c.params[static_cast<size_t>(index)] : new_param(c, key, name_range, line);
  p.value_range = value_range;
  p.decoded = std::move(decoded);
  p.value_is_slice = is_slice;
  p.value_in_quotes = in_quotes;
  name_command(ctx, c, key, p);
}

void NeslParser::add_quoted_param(ParseContext& ctx, std::string_view key, ByteRange name_range,
                                  ByteRange value_range, uint32_t line) {
  Command& c = ctx.out->blocks[static_cast<size_t>(block_)].commands.front();
  Parameter& p = new_param(c, key, name_range, line);
  p.value_range = value_range;
  p.value_is_slice = false;
  p.value_in_quotes = true;
  name_command(ctx, c, key, p);
}

void NeslParser::resolve_pending_quote(ParseContext& ctx, const LineRef* closing) {
  const PendingQuote q = quote_;
  quote_ = {};
  if (!q.active || q.diag == kNone) return;
  if (closing == nullptr) {
    if (q.continued) return;
    const size_t begin = q.line_begin;
    const std::string_view line = ctx.text.substr(begin, q.line_end - begin);
    const std::string_view kept = nesl::js_trim_end(line);
    const std::string repaired = std::string(kept) + "\"";
    const Assignment a = nesl::parse_assignment(repaired);
    if (a.kind == Assignment::Kind::quoted && !has_param(q.key)) {
      const size_t at = begin + kept.size();
      add_fix(ctx, q.diag, "Close the quoted string", {{{at, at}, "\""}});
    }
    return;
  }
  // A string over several lines: move it into a heredoc.
  const std::string_view closing_text = nesl::js_trim_end(closing->text);
  const size_t close_quote = closing->begin + closing_text.size() - 1;
  const std::string body =
      nesl::decode_lenient(ctx.text.substr(q.open_quote + 1, close_quote - q.open_quote - 1));
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('\n', start);
    if (end == npos) end = body.size();
    std::string_view l = std::string_view(body).substr(start, end - start);
    if (l.ends_with('\r')) l.remove_suffix(1);
    if (l.find(delim_) != npos) return; // the body would close the heredoc early
    start = end + 1;
  }
  if (has_param(q.key)) return;
  add_fix(ctx, q.diag, "Move the multi-line string into a heredoc",
          {{{q.open_quote, closing->end}, "<<'" + delim_ + "'" + nl_ + body + nl_ + delim_}});
}

void NeslParser::end_skip(ParseContext& ctx, const LineRef* closing, size_t delim_pos,
                          size_t delim_len, bool /*glued_after_quote*/) {
  const Skip s = skip_;
  skip_ = {};
  if (!closing || s.diag == kNone) return;
  if (delim_pos != 0 || delim_len != closing->text.size()) return; // glued closers: no fix
  std::vector<TextEdit> edits = s.edits;
  if (closing->text != delim_)
    edits.push_back({{closing->begin, closing->end}, delim_});
  else // already the delimiter: an id spelling once the opener is repaired
    fix_id_refs_.push_back(
        {s.diag, {closing->begin + era_->delim_prefix.size(), closing->begin + delim_.size()}});
  add_fix(ctx, s.diag, "Make the heredoc valid ('" + delim_ + "')", std::move(edits));
}

void NeslParser::close_block(ParseContext& ctx, std::optional<uint32_t> end_line) {
  if (quote_.active) resolve_pending_quote(ctx, nullptr);
  skip_ = {};
  ctx.out->blocks[static_cast<size_t>(block_)].end_line = end_line;
  attach_block_fixes(ctx);
  state_ = State::seeking_header;
  block_ = -1;
}

namespace {

// True when apply_edits() could not apply `a` and `b` together (as apply_preferred_fixes
// tells clashing fixes apart).
bool edits_clash(ByteRange a, ByteRange b) {
  return a.begin == b.begin || (a.begin < b.end && b.begin < a.end);
}

// `text`, inserted by a fix of a block whose id is renamed, with the id's structural spellings
// renamed: lines equal to the delimiter or the end marker, and heredoc openers
// `<<'EOT_<id>'`. Content lines cannot hold either (the fixes that write content refuse a
// body holding the delimiter, and an end marker line ends a quoted value).
std::string rename_written_id(std::string_view text, std::string_view old_delim,
                              std::string_view new_delim, std::string_view old_end,
                              std::string_view new_end) {
  const std::string old_opener = "<<'" + std::string(old_delim) + "'";
  std::string out;
  size_t begin = 0;
  for (;;) {
    const size_t nl = text.find('\n', begin);
    std::string_view line = text.substr(begin, nl == std::string_view::npos ? nl : nl - begin);
    const bool cr = line.ends_with('\r');
    if (cr) line.remove_suffix(1);
    if (line == old_delim) {
      out += new_delim;
    } else if (line == old_end) {
      out += new_end;
    } else if (const size_t at = line.find(old_opener); at != std::string_view::npos) {
      out.append(line.substr(0, at + 3))
          .append(new_delim)
          .append(line.substr(at + 3 + old_delim.size()));
    } else {
      out += line;
    }
    if (cr) out += '\r';
    if (nl == std::string_view::npos) break;
    out += '\n';
    begin = nl + 1;
  }
  return out;
}

} // namespace

// The fix of DUPLICATE_BLOCK_ID: a fresh id for every spelling of the block's id. The block's
// other preferred fixes may write the old id (an inserted `EOT_<id>` / `#!end_<id>`, a
// rewritten end marker or delimiter): `blockls fix`, applying them with a plain rename, left
// those lines with the old id (a new MISMATCHED_END, a heredoc that swallows its closing
// lines). So the rename carries those fixes, written with the new id, in place of the
// spellings they rewrite. The carried fixes overlap the rename, so `fix` applies either the
// rename with them or them alone (the rename then comes with the next check), never a mix.
void NeslParser::add_rename_fix(ParseContext& ctx) {
  const std::string fresh = fresh_id(ctx.out->blocks[static_cast<size_t>(block_)].start_line + 1);
  const std::string old_end = std::string(era_->end_prefix) + id_;
  const std::string new_end = std::string(era_->end_prefix) + fresh;
  const std::string new_delim = std::string(era_->delim_prefix) + fresh;
  std::vector<ByteRange> refs = id_refs_;
  std::vector<TextEdit> carried;
  const std::vector<Diagnostic>& diags = ctx.out->diagnostics;
  for (size_t i = first_diag_; i < diags.size(); ++i) {
    const Diagnostic& d = diags[i];
    if (static_cast<int>(i) == duplicate_diag_ || d.block != block_ || d.fixes.empty() ||
        !d.fixes.front().preferred)
      continue;
    // The id spellings this fix makes the block's own (see fix_id_refs_).
    std::vector<ByteRange> made;
    for (const auto& [diag, ref] : fix_id_refs_)
      if (diag == static_cast<int>(i)) made.push_back(ref);
    std::vector<TextEdit> renamed;
    bool writes_id = !made.empty(), usable = true;
    for (const TextEdit& e : d.fixes.front().edits) {
      TextEdit r = e;
      const bool on_ref = std::find(refs.begin(), refs.end(), e.range) != refs.end();
      r.new_text = on_ref && e.new_text == id_
                       ? fresh // MISMATCHED_END: the end marker's id
                       : rename_written_id(e.new_text, delim_, new_delim, old_end, new_end);
      writes_id |= r.new_text != e.new_text;
      // An edit that rewrites part of an id spelling, or inserts at its start, or one that
      // clashes with a repair carried already, cannot be carried: no rename then (see below).
      for (const ByteRange& ref : refs) {
        if (!edits_clash(e.range, ref)) continue;
        writes_id = true;
        if (e.range.begin == e.range.end || e.range.begin > ref.begin || e.range.end < ref.end)
          usable = false;
      }
      for (const TextEdit& c : carried)
        if (edits_clash(e.range, c.range)) usable = false;
      renamed.push_back(std::move(r));
    }
    if (!writes_id) continue;
    if (!usable) return; // renamed alone, the block would mix old and new ids: no rename yet
    carried.insert(carried.end(), renamed.begin(), renamed.end());
    refs.insert(refs.end(), made.begin(), made.end());
  }
  std::vector<TextEdit> edits = carried;
  for (const ByteRange& ref : refs)
    if (std::none_of(carried.begin(), carried.end(),
                     [&](const TextEdit& c) { return edits_clash(c.range, ref); }))
      edits.push_back({ref, fresh});
  std::string title = "Rename the block id to '" + fresh + "'";
  if (!carried.empty()) title += " (with the block's repairs)";
  add_fix(ctx, duplicate_diag_, std::move(title), std::move(edits));
}

void NeslParser::attach_block_fixes(ParseContext& ctx) {
  if (duplicate_diag_ != kNone) add_rename_fix(ctx);
  if (legacy_diag_ != kNone) {
    // Each reference to the old era rewritten: its header marker, end marker prefix and
    // delimiter prefixes. Built in place in the note's (only) fix.
    const EraSyntax& now = nesl::era_syntax(Era::nesl);
    Fix& fix = ctx.out->diagnostics[static_cast<size_t>(legacy_diag_)].fixes.emplace_back();
    fix.title = "Convert the block to '#!nesl' syntax";
    fix.edits.reserve(era_refs_.size());
    for (const ByteRange& r : era_refs_) {
      const std::string_view old = slice(ctx.text, r);
      if (same_bytes(old, era_->marker()))
        fix.edits.push_back({r, std::string(now.marker())});
      else if (same_bytes(old, era_->end_prefix))
        fix.edits.push_back({r, std::string(now.end_prefix)});
      else if (same_bytes(old, era_->delim_prefix))
        fix.edits.push_back({r, std::string(now.delim_prefix)});
    }
    if (fix.edits.empty()) ctx.out->diagnostics[static_cast<size_t>(legacy_diag_)].fixes.pop_back();
  }
  duplicate_diag_ = legacy_diag_ = kNone;
}

} // namespace blockls
