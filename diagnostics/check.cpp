// The engine entry point: parse, validate against the catalog, order, and judge each block.
#include "diagnostics/check.h"

#include "diagnostics/catalog_validation.h"
#include "diagnostics/check_steps.h"
#include "grammar/router/document_parser.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace blockls {

size_t CheckedDocument::error_count() const {
  return static_cast<size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [](const Diagnostic& d) { return is_error(d.severity); }));
}

namespace check_steps {
namespace {

bool by_position(const Diagnostic& a, const Diagnostic& b) {
  if (a.line != b.line) return a.line < b.line;
  return a.range.begin < b.range.begin;
}

} // namespace

std::vector<Diagnostic> ordered(std::string_view text, const ParsedDocument& parsed,
                                const ActionCatalog& catalog, size_t first_syntax,
                                size_t end_syntax, size_t first_block, size_t end_block,
                                std::vector<Diagnostic>* movable_syntax,
                                std::vector<Diagnostic>* validated) {
  std::vector<Diagnostic> validation;
  if (validated)
    validation = std::move(*validated);
  else
    validate_blocks(text, parsed, catalog, first_block, end_block, &validation);
  const Diagnostic* syntax = parsed.diagnostics.data() + first_syntax;
  const size_t syntax_count = end_syntax - first_syntax;
  // The stable order of sort_by_position() is found on small keys (position, then source
  // index: the syntax list first, each list in the order found), and each diagnostic is then copied
  // or moved once, instead of moving whole diagnostics around in a stable sort.
  struct Key {
    uint32_t line;
    uint32_t index; // < syntax_count: syntax; else validation[index - syntax_count]
    size_t begin;
    bool operator<(const Key& o) const {
      if (line != o.line) return line < o.line;
      if (begin != o.begin) return begin < o.begin;
      return index < o.index;
    }
  };
  std::vector<Key> keys;
  keys.reserve(syntax_count + validation.size());
  for (size_t i = 0; i < syntax_count; ++i)
    keys.push_back({syntax[i].line, static_cast<uint32_t>(i), syntax[i].range.begin});
  for (size_t i = 0; i < validation.size(); ++i)
    keys.push_back(
        {validation[i].line, static_cast<uint32_t>(syntax_count + i), validation[i].range.begin});
  // Each list is mostly in order already: sort the parts, then merge them.
  const auto mid = keys.begin() + static_cast<ptrdiff_t>(syntax_count);
  if (!std::is_sorted(keys.begin(), mid)) std::sort(keys.begin(), mid);
  if (!std::is_sorted(mid, keys.end())) std::sort(mid, keys.end());
  if (syntax_count > 0 && mid != keys.end() && *mid < *(mid - 1))
    std::inplace_merge(keys.begin(), mid, keys.end());
  std::vector<Diagnostic> out;
  out.reserve(keys.size());
  for (const Key& k : keys) {
    if (k.index >= syntax_count)
      out.push_back(std::move(validation[k.index - syntax_count]));
    else if (movable_syntax)
      out.push_back(std::move((*movable_syntax)[first_syntax + k.index]));
    else
      out.push_back(syntax[k.index]);
  }
  return out;
}

std::optional<Diagnostic> invalid_utf8(std::string_view text, const LineIndex& lines, size_t from) {
  // The parser has seen which prefix of the text is ASCII (always valid UTF-8).
  const size_t ascii = std::min(std::max(lines.ascii_prefix(), from), text.size());
  const size_t bad = unicode::first_invalid_utf8(text.substr(ascii));
  if (bad == std::string_view::npos) return std::nullopt;
  return invalid_utf8_at(lines, ascii + bad);
}

std::optional<Diagnostic> invalid_utf8_after_change(std::string_view new_text,
                                                    const LineIndex& new_lines,
                                                    const LineIndex& old_lines, size_t old_size,
                                                    const TextChange& change, size_t old_bad) {
  constexpr size_t npos = std::string_view::npos;
  // Decoding restarts at the start of the change's first line: the text before it is the old
  // text's, valid unless the old first invalid byte lies there, which a decoder finds from
  // that line's bytes alone.
  const size_t from = old_lines.line_start(old_lines.line_of(change.begin));
  if (old_bad != npos && old_bad < from) return invalid_utf8_at(new_lines, old_bad);
  // ... and ends at the start of the line after the change's last one, from where the text
  // is the old text's (moved by `delta`), whose decoding from a line start is known: valid up
  // to old_bad, if that lies there.
  const uint32_t last = new_lines.line_of(change.new_end);
  const size_t to =
      last + 1 < new_lines.line_count() ? new_lines.line_start(last + 1) : new_text.size();
  const int64_t delta = static_cast<int64_t>(new_text.size()) - static_cast<int64_t>(old_size);
  if (old_bad != npos && static_cast<int64_t>(old_bad) + delta < static_cast<int64_t>(to))
    return invalid_utf8(new_text, new_lines, from);
  const size_t bad = unicode::first_invalid_utf8(new_text.substr(from, to - from));
  if (bad != npos) return invalid_utf8_at(new_lines, from + bad);
  if (old_bad == npos) return std::nullopt;
  return invalid_utf8_at(new_lines, static_cast<size_t>(static_cast<int64_t>(old_bad) + delta));
}

Diagnostic invalid_utf8_at(const LineIndex& lines, size_t bad) {
  Diagnostic d(Dialect::none); // of the document, not of a block
  d.code = "INVALID_UTF8";
  d.severity = Severity::parameter_warning;
  d.line = lines.line_of(bad);
  d.range = {bad, bad + 1};
  d.message = "Invalid UTF-8 byte sequence; invalid bytes are read as U+FFFD";
  d.fix_hint = "Save the transcript as UTF-8";
  return d;
}

size_t insert_document_level(std::vector<Diagnostic>& ordered, Diagnostic diagnostic) {
  const auto at = std::upper_bound(ordered.begin(), ordered.end(), diagnostic, by_position);
  return static_cast<size_t>(ordered.insert(at, std::move(diagnostic)) - ordered.begin());
}

void judge(const std::vector<Diagnostic>& diagnostics, std::vector<BlockVerdict>& verdicts,
           size_t first_block, size_t end_block, const CommandLines& command_lines) {
  // Verdicts past the end are built in place (one pass over them, not a resize and a second).
  const size_t kept_end = std::min(std::max(verdicts.size(), first_block), end_block);
  if (verdicts.size() < first_block) verdicts.resize(first_block);
  verdicts.reserve(end_block);
  for (size_t b = first_block; b < end_block; ++b) {
    BlockVerdict& v = b < kept_end ? verdicts[b] : verdicts.emplace_back();
    v.valid = true; // until an error is found
    v.error_count = v.warning_count = 0;
    v.command_valid.assign(command_lines.command_count(b), true);
  }
  std::vector<size_t> fatal; // blocks with a block-level error (repeats allowed)
  for (const Diagnostic& d : diagnostics) {
    if (d.block < 0 || static_cast<size_t>(d.block) < first_block ||
        static_cast<size_t>(d.block) >= end_block)
      continue;
    BlockVerdict& v = verdicts[d.block];
    if (!is_error(d.severity)) {
      ++v.warning_count;
      continue;
    }
    ++v.error_count;
    v.valid = false;
    const int command = command_lines.command_of_line(static_cast<size_t>(d.block), d.line);
    if (d.severity == Severity::block_fatal || command < 0)
      fatal.push_back(static_cast<size_t>(d.block));
    else
      v.command_valid.set(static_cast<size_t>(command), false);
  }
  for (const size_t b : fatal)
    verdicts[b].command_valid.assign(verdicts[b].command_valid.size(), false);
}

} // namespace check_steps

namespace {

// Validates each block against the catalog as soon as the parse has closed it (the block is
// then still in the cache; validating all blocks after the parse reads them all again).
class ValidateOnClose : public BlockObserver {
public:
  // `text_bytes`: the size of the text to check. Its lists get room for the blocks, commands
  // and diagnostics such a text has (as the parse reserves its own lists): grown block by
  // block, their large buffers were copied and freed a dozen times a transcript (and glibc
  // consolidates its free lists at each free of more than 64 KiB).
  ValidateOnClose(const ActionCatalog& catalog, size_t text_bytes) : catalog_(catalog) {
    command_lines.reserve(text_bytes / 640, text_bytes / 640);
    validation.reserve(text_bytes / 4096);
  }
  void block_closed(std::string_view text, const ParsedDocument& doc, const LineIndex& lines,
                    size_t block) override {
    const Block& b = doc.blocks[block];
    validate_block(text, b, block, lines, catalog_, &validation);
    command_lines.add_block(b);
  }
  std::vector<Diagnostic> validation;      // what validate_blocks() reports, in its order
  check_steps::CommandLines command_lines; // for judge()

private:
  const ActionCatalog& catalog_;
};

// check_parsed(), with the validation (and command lines) of every block of `parsed` given
// when not null, and the document-level INVALID_UTF8 looked for from `utf8_from` on (not at
// all when it is npos).
CheckedDocument check_validated(std::string_view text, ParsedDocument parse,
                                const CheckOptions& options, ValidateOnClose* validated,
                                size_t utf8_from = 0) {
  const ActionCatalog& catalog = options.catalog ? *options.catalog : ActionCatalog::builtin();
  // `out` takes the parse first, by move construction: a default-constructed document's line
  // index allocates its first line start, which assigning the parse would free again (once
  // per part of a stream, thousands of times a transcript).
  CheckedDocument out{.parsed = std::move(parse), .diagnostics = {}, .verdicts = {}};
  ParsedDocument& parsed = out.parsed;
  const bool keep = options.keep_parser_diagnostics;
  out.diagnostics = check_steps::ordered(text, parsed, catalog, 0, parsed.diagnostics.size(), 0,
                                         parsed.blocks.size(), keep ? nullptr : &parsed.diagnostics,
                                         validated ? &validated->validation : nullptr);
  if (!keep) parsed.diagnostics.clear(); // moved out
  if (utf8_from != std::string_view::npos)
    if (auto d = check_steps::invalid_utf8(text, parsed.lines, utf8_from))
      check_steps::insert_document_level(out.diagnostics, std::move(*d));
  const size_t blocks = parsed.blocks.size();
  // Read from the blocks only when the parse did not record them.
  const check_steps::CommandLines read =
      validated ? check_steps::CommandLines() : check_steps::CommandLines::reading(parsed.blocks);
  check_steps::judge(out.diagnostics, out.verdicts, 0, blocks,
                     validated ? validated->command_lines : read);
  out.parser_diagnostics_kept = keep;
  return out;
}

} // namespace

CheckedDocument check_parsed(std::string_view text, ParsedDocument parsed,
                             const CheckOptions& options) {
  return check_validated(text, std::move(parsed), options, nullptr);
}

CheckedDocument check_part(std::string_view text, ParsedDocument part, size_t begin,
                           bool find_invalid_utf8, const CheckOptions& options) {
  return check_validated(text, std::move(part), options, nullptr,
                         find_invalid_utf8 ? begin : std::string_view::npos);
}

CheckedDocument check_document(std::string_view text, const CheckOptions& options) {
  if (options.parse.observer) // the caller's: validate after the parse
    return check_parsed(text, parse_document(text, options.parse), options);
  ValidateOnClose validate(options.catalog ? *options.catalog : ActionCatalog::builtin(),
                           text.size());
  ParseOptions parse = options.parse;
  parse.observer = &validate;
  ParsedDocument parsed = parse_document(text, parse);
  return check_validated(text, std::move(parsed), options, &validate);
}

bool before_in_position(const Diagnostic& a, const Diagnostic& b) {
  if (a.line != b.line) return a.line < b.line;
  return a.range.begin < b.range.begin;
}

void sort_by_position(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), before_in_position);
}

} // namespace blockls
