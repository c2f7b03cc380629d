// TELT state machine (spec/telt.md): blocks open on START and close on END; inside, COMMAND
// lines start commands, PARAM lines start parameters whose values are the raw lines up to
// the next syntax line. Every error is recovered from at the next sync point (START,
// COMMAND, PARAM, END), so one pass reports all of a block's problems.
#include "grammar/telt/telt_parser.h"

#include "grammar/bytes.h"
#include "grammar/syntax_code.h"

#include <string_view>

namespace blockls {
namespace {

// A line for a message: without trailing blanks, cut (on a UTF-8 boundary) when long.
std::string excerpt(std::string_view line) {
  constexpr size_t kMax = 60;
  size_t end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r'))
    --end;
  if (end <= kMax) return quote(line.substr(0, end));
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80)
    --cut;
  return quote(std::string(line.substr(0, cut)) + "...");
}

Fix make_fix(std::string title, bool preferred, std::vector<TextEdit> edits) {
  return Fix{std::move(title), preferred, std::move(edits)};
}

std::string line_number(uint32_t line) {
  return std::to_string(line + 1);
}

// A valid hash for a block whose hash is not one: close to the written one, and occurring
// nowhere in the block's text (so no content line can turn into a delimiter).
std::string replacement_hash(std::string_view bad, std::string_view block_text) {
  std::string base;
  for (char c : bad)
    if (base.size() < 3 &&
        ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      base.push_back(c);
  if (base.empty()) base.assign(1, 'a');
  while (base.size() < 3)
    base.push_back('0');
  if (block_text.find(base) == std::string_view::npos) return base;
  constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (char a : kAlphabet)
    for (char b : kAlphabet) {
      const std::string candidate{base[0], a, b};
      if (block_text.find(candidate) == std::string_view::npos) return candidate;
    }
  return {};
}

} // namespace

void TeltParser::report(ParseContext& ctx, Diagnostic diagnostic) {
  diagnostic.dialect = Dialect::telt;
  ctx.out->diagnostics.push_back(std::move(diagnostic));
}

bool TeltParser::try_start(const LineRef& line, ParseContext& ctx) {
  if (line.phantom()) return false;
  if (auto start = telt::parse_start(line.text)) {
    open_block(line, *start, ctx);
    return true;
  }
  // A column-0 `--END xyz--` with no open block: a block whose START is missing.
  const auto d = telt::parse_delimiter(line.text);
  if (!d || d->indent != 0) return false;
  const std::string_view name = line.text.substr(d->name_begin, d->name_end - d->name_begin);
  const std::string_view hash = line.text.substr(d->hash_begin, d->hash_end - d->hash_begin);
  if (name != "END" || !telt::is_valid_hash(hash)) return false;
  Diagnostic diag = make_diagnostic(
      code::STRAY_END, Dialect::telt, -1, line.number, {line.begin, line.end},
      quote(line.text.substr(0, d->body_end)) + " closes no block: no block is open",
      "Remove the line, or add " + quote(telt::canonical_start(hash)) + " where the block begins",
      {});
  diag.fixes.push_back(
      make_fix("Remove the stray end line", false, {{{line.begin, line.next}, ""}}));
  report(ctx, std::move(diag));
  return true;
}

void TeltParser::open_block(const LineRef& line, const telt::StartLine& start, ParseContext& ctx) {
  // Built in place (no temporary Block to move and destroy).
  Block& b = ctx.out->blocks.emplace_back(
      Dialect::telt, ctx.out->allocator(),
      line.text.substr(start.hash_begin, start.hash_end - start.hash_begin));
  b.commands.reserve(3); // blocks have one to three commands: one allocation
  b.era = Era::telt;
  b.id_range = {line.begin + start.hash_begin, line.begin + start.hash_end};
  b.start_line = line.number;
  b.range = {line.begin, line.end};
  block_ = static_cast<int32_t>(ctx.out->blocks.size() - 1);

  const Block& opened = b;
  state_ = State::in_block;
  hash_ = opened.id;
  has_command_ = false;
  crlf_ = line.has_newline && line.next == line.end + 2;
  start_end_ = line.end;
  start_body_end_ = line.begin + start.body_end;
  start_hash_begin_ = opened.id_range.begin;
  start_hash_missing_ = hash_.empty();
  fence_close_begin_ = SIZE_MAX;
  hash_sites_.clear();
  if (!hash_.empty()) hash_sites_.push_back(opened.id_range);
  start_fix_diagnostic_ = -1;
  bad_hash_diagnostic_ = -1;
  hash_adopted_ = false;
  adopt_window_ = {line.next, line.next};

  const ByteRange whole_line{line.begin, line.end};
  const std::string_view body = line.text.substr(0, start.body_end);
  if (start.form == telt::StartForm::near_miss) {
    const std::string canonical = telt::canonical_start(hash_.empty() ? "xyz" : hash_);
    Diagnostic diag = make_diagnostic(code::MALFORMED_START, Dialect::telt, block_, line.number,
                                      whole_line, {}, {}, {});
    if (hash_.empty()) {
      diag.message = "Malformed block start " + quote(body) + ": expected " + quote(canonical) +
                     " with a 3-character hash";
      diag.fix_hint =
          "Rewrite the line as " + quote(canonical) + ", with the hash the block's delimiters use";
      start_fix_diagnostic_ = static_cast<int64_t>(ctx.out->diagnostics.size());
    } else {
      diag.message = "Malformed block start " + quote(body) + ": expected " + quote(canonical);
      diag.fix_hint = "Rewrite the line as " + quote(canonical);
      diag.fixes.push_back(make_fix("Rewrite as " + quote(canonical), true,
                                    {{{line.begin, start_body_end_}, canonical}}));
    }
    report(ctx, std::move(diag));
  }
  if (!telt::is_valid_hash(hash_) && !(start.form == telt::StartForm::near_miss && hash_.empty())) {
    Diagnostic diag = make_diagnostic(
        code::BAD_HASH, Dialect::telt, block_, line.number, opened.id_range,
        hash_.empty()
            ? std::string("Block start has no hash: expected 3 letters or "
                          "digits after 'SHA: '")
            : "Block hash " + quote(hash_) + " is not a hash: expected exactly 3 letters or digits",
        "Use a 3-character hash of [A-Za-z0-9] in the start line and in every "
        "delimiter of the block",
        {});
    bad_hash_diagnostic_ = static_cast<int64_t>(ctx.out->diagnostics.size());
    report(ctx, std::move(diag));
  }
}

void TeltParser::on_line(const LineRef& line, ParseContext& ctx) {
  if (state_ == State::outside || line.phantom()) return;
  if (block(ctx).fence_close_line == line.number) fence_close_begin_ = line.begin;
  const std::string_view t = line.text;
  if (t.size() >= 2 && t[0] == '#' && t[1] == '!') { // every START shape begins so
    if (telt::parse_start(t)) {
      // The block ends here; the START is offered again as a start line (take_declined), so
      // that the router can record a resume point before it.
      report_unclosed(&line, ctx);
      close_block(ctx);
      declined_ = true;
      return;
    }
  }
  block(ctx).range.end = line.end;
  // Besides START, only COMMAND lines (`=` first) and delimiters or their near misses (`-`
  // after blanks) are syntax: anything else is content.
  // (A `#!` line here is no START: content too.)
  if (is_plain_content(t) || t.starts_with("#!")) {
    on_content(line, ctx);
    return;
  }
  if (auto command = telt::parse_command(line.text)) {
    open_command(line, *command, ctx);
    return;
  }
  if (on_delimiter(line, ctx)) return;
  on_content(line, ctx);
}

void TeltParser::open_command(const LineRef& line, const telt::CommandLine& command,
                              ParseContext& ctx) {
  std::pmr::vector<Command>& commands = block(ctx).commands.mutable_vector();
  // Built in place; room for a few parameters at once (commands have two or three).
  Command& c = commands.emplace_back(
      line.text.substr(command.name_begin, command.name_end - command.name_begin));
  c.params.reserve(4);
  c.name_range = {line.begin + command.name_begin, line.begin + command.name_end};
  c.line = line.number;
  has_command_ = true;
  state_ = State::in_command;
}

bool TeltParser::on_command_line(const LineRef& line, ParseContext& ctx) {
  if (state_ != State::in_block && state_ != State::in_command && state_ != State::in_parameter)
    return false;
  const auto command = telt::parse_command(line.text);
  if (!command) return false;
  block(ctx).range.end = line.end; // what on_line() does for it
  open_command(line, *command, ctx);
  return true;
}

bool TeltParser::on_delimiter(const LineRef& line, ParseContext& ctx) {
  enum class Kind { own, mismatch, indented, malformed };
  Kind kind = Kind::own;
  auto d = telt::parse_delimiter(line.text);
  std::string_view hash;
  if (d) hash = line.text.substr(d->hash_begin, d->hash_end - d->hash_begin);
  if (d && !hash_.empty() && same_bytes(hash, hash_)) {
    kind = d->indent == 0 ? Kind::own : Kind::indented;
  } else if (d && d->indent == 0 && telt::is_valid_hash(hash)) {
    if (hash_.empty()) { // a START without a hash: the first delimiter names it
      hash_ = std::string(hash);
      block(ctx).id = hash_;
      hash_adopted_ = true;
      adopt_window_.end = line.begin;
      kind = Kind::own;
    } else {
      kind = Kind::mismatch;
    }
  } else if ((d = telt::parse_near_miss(line.text, hash_))) {
    kind = Kind::malformed;
  } else {
    return false;
  }

  // Exact delimiters have a valid (upper-case) name already; only near misses need
  // upper-casing.
  std::string upper;
  std::string_view name = line.text.substr(d->name_begin, d->name_end - d->name_begin);
  if (kind == Kind::malformed) {
    upper = telt::to_upper(name);
    name = upper;
  }
  const bool is_end = name == "END";
  // Only diagnostics need the canonical spelling.
  const auto canonical_of = [&] { return telt::canonical_delimiter(name, hash_); };
  const ByteRange hash_range{line.begin + d->hash_begin, line.begin + d->hash_end};
  hash_sites_.push_back(hash_range);
  const std::string_view body = line.text.substr(0, d->body_end);
  switch (kind) {
  case Kind::own:
    break;
  case Kind::mismatch: {
    const std::string canonical = canonical_of();
    Diagnostic diag = make_diagnostic(
        code::HASH_MISMATCH, Dialect::telt, block_, line.number, hash_range,
        "Block hash " + quote(hash_) + " doesn't match delimiter hash " + quote(hash),
        "Change delimiter to " + quote(canonical) + " to match block hash", {});
    diag.fixes.push_back(make_fix("Change hash to " + quote(hash_), true, {{hash_range, hash_}}));
    report(ctx, std::move(diag));
    break;
  }
  case Kind::indented: {
    const ByteRange indent{line.begin, line.begin + d->indent};
    Diagnostic diag =
        make_diagnostic(code::INDENTED_DELIMITER, Dialect::telt, block_, line.number, indent,
                        "Delimiter " + quote(body.substr(d->indent)) +
                            " is indented: delimiters must start at the beginning of the line",
                        "Remove the indentation before " + quote(body.substr(d->indent)), {});
    diag.fixes.push_back(make_fix("Remove indentation", true, {{indent, ""}}));
    report(ctx, std::move(diag));
    break;
  }
  case Kind::malformed: {
    const std::string canonical = canonical_of();
    Diagnostic diag = make_diagnostic(
        code::MALFORMED_DELIMITER, Dialect::telt, block_, line.number, {line.begin, line.end},
        "Malformed delimiter " + quote(body) + ": expected " + quote(canonical),
        "Rewrite the line as " + quote(canonical), {});
    diag.fixes.push_back(make_fix("Rewrite as " + quote(canonical), true,
                                  {{{line.begin, line.begin + d->body_end}, canonical}}));
    report(ctx, std::move(diag));
    break;
  }
  }

  if (is_end) {
    Block& b = block(ctx);
    b.end_line = line.number;
    b.range.end = line.end;
    close_block(ctx);
    return true;
  }
  if (!has_command_) {
    // The parameter belongs to no command: its intent is unclear, so its value is skipped.
    const std::string canonical = canonical_of();
    report(ctx, make_diagnostic(code::ORPHAN_PARAM, Dialect::telt, block_, line.number,
                                {line.begin + d->name_begin, line.begin + d->name_end},
                                "Parameter " + quote(name) +
                                    " belongs to no command: no '=== NAME ===' line precedes it in "
                                    "the block",
                                "Add a command line such as '=== CREATE_FILE ===' before " +
                                    quote(canonical),
                                {}));
    state_ = State::recovering;
    return true;
  }
  open_parameter(line, *d, name, ctx);
  return true;
}

void TeltParser::open_parameter(const LineRef& line, const telt::DelimiterLine& d,
                                std::string_view name, ParseContext& ctx) {
  std::pmr::vector<Parameter>& params = block(ctx).commands.back().params.mutable_vector();
  Parameter& p = params.emplace_back(name);
  p.name_range = {line.begin + d.name_begin, line.begin + d.name_end};
  p.value_range = {line.next, line.next};
  p.line = line.number;
  p.value_is_slice = true;
  state_ = State::in_parameter;
}

bool TeltParser::on_own_delimiter(const LineRef& line, ParseContext& ctx) {
  if (!has_command_ || (state_ != State::in_command && state_ != State::in_parameter)) return false;
  const auto d = telt::match_exact_delimiter(line.text, hash_);
  if (!d) return false;
  const std::string_view name = line.text.substr(d->name_begin, d->name_end - d->name_begin);
  // What on_line() and on_delimiter() do for it: no diagnostic; END closes the block, any
  // other name opens a parameter.
  Block& b = block(ctx);
  b.range.end = line.end;
  hash_sites_.push_back({line.begin + d->hash_begin, line.begin + d->hash_end});
  if (same_bytes(name, "END")) {
    b.end_line = line.number;
    close_block(ctx);
    return true;
  }
  open_parameter(line, *d, name, ctx);
  return true;
}

void TeltParser::on_content(const LineRef& line, ParseContext& ctx) {
  switch (state_) {
  case State::in_parameter: {
    // The value runs to the end of this line, a "\r" of "\r\n" included.
    Parameter& p = block(ctx).commands.back().params.back();
    p.value_range.end = line.has_newline ? line.next - 1 : line.end;
    return;
  }
  case State::recovering:
  case State::outside:
    return;
  case State::in_block:
  case State::in_command:
    break;
  }
  if (telt::is_blank(line.text) || line.text.starts_with("//")) return;
  const Block& b = block(ctx);
  std::string message = "Text ";
  if (state_ == State::in_block)
    message += "before the first command of the block is ignored: ";
  else
    message += "between " + quote("=== " + b.commands.back().name + " ===") +
               " and its first parameter is ignored: ";
  message += excerpt(line.text);
  Diagnostic diag =
      make_diagnostic(code::STRAY_TEXT, Dialect::telt, block_, line.number, {line.begin, line.end},
                      std::move(message),
                      "Turn the line into a '//' comment, move it into a parameter value, or "
                      "remove it",
                      {});
  diag.fixes.push_back(
      make_fix("Turn the line into a comment", true, {{{line.begin, line.begin}, "// "}}));
  diag.fixes.push_back(make_fix("Remove the line", false, {{{line.begin, line.next}, ""}}));
  report(ctx, std::move(diag));
}

void TeltParser::report_unclosed(const LineRef* next_start, ParseContext& ctx) {
  const Block& b = block(ctx);
  const std::string end_line = telt::canonical_delimiter("END", hash_.empty() ? "xyz" : hash_);
  const std::string eol = crlf_ ? "\r\n" : "\n";
  std::string where;
  TextEdit edit;
  if (fence_close_begin_ != SIZE_MAX) {
    where = "before the closing Markdown fence at line " + line_number(*b.fence_close_line);
    edit = {{fence_close_begin_, fence_close_begin_}, end_line + eol};
  } else if (next_start) {
    // At the end of the line before the new START (which has a line break), so that a fix
    // rewriting the START line itself does not clash with this one.
    where = "before the next block's start at line " + line_number(next_start->number);
    const size_t crlf = ctx.text.substr(0, next_start->begin).ends_with("\r\n") ? 2 : 1;
    const size_t at = next_start->begin - crlf;
    edit = {{at, at}, std::string(ctx.text.substr(at, crlf)) + end_line};
  } else {
    where = "at the end of the input";
    const size_t at = ctx.text.size();
    edit = {{at, at}, ctx.text.ends_with('\n') ? end_line + eol : eol + end_line};
  }
  std::string message =
      "Block " + (hash_.empty() ? std::string() : quote(hash_) + " ") + "is not closed: ";
  message += next_start ? "a new block starts at line " + line_number(next_start->number) +
                              " before " + quote(end_line)
                        : "the input ends before " + quote(end_line);
  Diagnostic diag = make_diagnostic(code::UNCLOSED_BLOCK, Dialect::telt, block_, b.start_line,
                                    {b.range.begin, start_end_}, std::move(message),
                                    "Add " + quote(end_line) + " " + where, {});
  diag.line_dependent = fence_close_begin_ != SIZE_MAX || next_start != nullptr;
  if (!hash_.empty())
    diag.fixes.push_back(make_fix("Insert " + quote(end_line), true, {std::move(edit)}));
  report(ctx, std::move(diag));
}

void TeltParser::close_block(ParseContext& ctx) {
  const Block& b = block(ctx);
  // A hash adopted from a delimiter is safe to write into the START line only when no line
  // before that delimiter would read differently with it (indented / near-miss delimiters).
  const bool adopted_safely =
      hash_adopted_ && ctx.text.substr(adopt_window_.begin, adopt_window_.size()).find(hash_) ==
                           std::string_view::npos;
  if (start_fix_diagnostic_ >= 0 && adopted_safely) {
    const std::string canonical = telt::canonical_start(hash_);
    ctx.out->diagnostics[static_cast<size_t>(start_fix_diagnostic_)].fixes.push_back(make_fix(
        "Rewrite as " + quote(canonical), true, {{{b.range.begin, start_body_end_}, canonical}}));
  }
  if (bad_hash_diagnostic_ >= 0) {
    Diagnostic& diag = ctx.out->diagnostics[static_cast<size_t>(bad_hash_diagnostic_)];
    if (start_hash_missing_) {
      if (adopted_safely)
        diag.fixes.push_back(make_fix("Use the delimiters' hash " + quote(hash_), true,
                                      {{{start_hash_begin_, start_hash_begin_}, hash_}}));
    } else {
      // Rewrite the hash everywhere the block writes it (mismatched delimiters included).
      // The block's text without the hashes being replaced: the new hash must occur nowhere
      // else in it.
      std::string rest(ctx.text.substr(b.range.begin, b.range.size()));
      for (const ByteRange& site : hash_sites_)
        for (size_t i = site.begin; i < site.end; ++i)
          rest[i - b.range.begin] = '\n';
      const std::string fresh = replacement_hash(hash_, rest);
      if (!fresh.empty()) {
        Fix fix = make_fix("Replace hash " + quote(hash_) + " with " + quote(fresh) +
                               " throughout the block",
                           false, {});
        for (const ByteRange& site : hash_sites_)
          fix.edits.push_back({site, fresh});
        diag.fixes.push_back(std::move(fix));
      }
    }
  }
  state_ = State::outside;
  block_ = -1;
  hash_.clear();
  hash_sites_.clear();
}

void TeltParser::finish(ParseContext& ctx, uint32_t) {
  if (state_ == State::outside) return;
  report_unclosed(nullptr, ctx);
  close_block(ctx);
}

} // namespace blockls
