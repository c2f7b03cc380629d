// Incremental re-parsing (see incremental_parse.h). The parse is a line-by-line state machine;
// at a resume point (a line outside every block, nothing pending) its whole state is the
// point's few fields plus what the dialects carry from block to block (see
// DialectGrammar::same_carried_state). So the text before the change can be
// skipped by resuming at the last point before it, and the text after the change is parsed
// the same as before once the new parse reaches a point that the old one also reached, in the
// same state, in the unchanged tail.
#include "grammar/router/incremental_parse.h"

#include "grammar/dialects.h"
#include "grammar/router/document_parser.h"
#include "grammar/router/element_ranges.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace blockls {
namespace {

size_t shifted(size_t position, int64_t by) {
  return static_cast<size_t>(static_cast<int64_t>(position) + by);
}
uint32_t shifted(uint32_t line, int64_t by) {
  return static_cast<uint32_t>(static_cast<int64_t>(line) + by);
}
void shift(ByteRange& range, int64_t by) {
  range.begin = shifted(range.begin, by);
  range.end = shifted(range.end, by);
}

} // namespace

TextChange find_change(std::string_view old_text, std::string_view new_text) {
  return complete_change(old_text, new_text, {0, old_text.size(), new_text.size()});
}

// find_change's answer is unique (the longest common prefix, then the longest common suffix
// that does not overlap it), so it can be grown from any change known to cover the difference:
// the prefix runs on from known.begin (bytes before it are equal), the suffix from the known
// common tail. Page-sized memcmp steps first: with nothing known (find_change), an editor's
// keystroke leaves megabytes of equal text on each side.
TextChange complete_change(std::string_view old_text, std::string_view new_text, TextChange known) {
  constexpr size_t kStep = 4096;
  const size_t common = std::min(old_text.size(), new_text.size());
  const char* a = old_text.data();
  const char* b = new_text.data();
  size_t prefix = std::min(known.begin, common);
  while (prefix + kStep <= common && std::memcmp(a + prefix, b + prefix, kStep) == 0)
    prefix += kStep;
  while (prefix < common && a[prefix] == b[prefix])
    ++prefix;
  const size_t max_suffix = common - prefix;
  const size_t known_tail = old_text.size() - std::min(known.old_end, old_text.size());
  size_t suffix = std::min(known_tail, max_suffix);
  const char* a_end = a + old_text.size();
  const char* b_end = b + new_text.size();
  while (suffix + kStep <= max_suffix &&
         std::memcmp(a_end - suffix - kStep, b_end - suffix - kStep, kStep) == 0)
    suffix += kStep;
  while (suffix < max_suffix &&
         a_end[-1 - static_cast<ptrdiff_t>(suffix)] == b_end[-1 - static_cast<ptrdiff_t>(suffix)])
    ++suffix;
  return {prefix, old_text.size() - suffix, new_text.size() - suffix};
}

void shift_block(Block& block, int64_t bytes, int64_t lines) {
  shift(block.range, bytes);
  shift(block.id_range, bytes);
  block.start_line = shifted(block.start_line, lines);
  if (block.end_line) block.end_line = shifted(*block.end_line, lines);
  if (block.fence_close_line) block.fence_close_line = shifted(*block.fence_close_line, lines);
  for (Command& c : block.commands) {
    shift(c.name_range, bytes);
    c.line = shifted(c.line, lines);
    for (Parameter& p : c.params) {
      shift(p.name_range, bytes);
      shift(p.value_range, bytes);
      p.line = shifted(p.line, lines);
    }
  }
}

void shift_diagnostic(Diagnostic& d, int64_t bytes, int64_t lines, int64_t blocks) {
  if (d.block >= 0) d.block = static_cast<int32_t>(d.block + blocks);
  d.line = shifted(d.line, lines);
  shift(d.range, bytes);
  for (Fix& fix : d.fixes)
    for (TextEdit& e : fix.edits)
      shift(e.range, bytes);
}

std::optional<Reparse> reparse(std::string_view old_text, const ParsedDocument& old,
                               std::string_view new_text, ParseOptions options,
                               const TextChange* known_change) {
  const TextChange change = known_change ? *known_change : find_change(old_text, new_text);
  const int64_t byte_delta =
      static_cast<int64_t>(new_text.size()) - static_cast<int64_t>(old_text.size());

  // Resume at the last point before the last block that starts on a line wholly before the
  // change, so that every diagnostic before the window is about text before that block (fix
  // verification reads a diagnostic's block up to the next block's start).
  const uint32_t change_line = old.lines.line_of(change.begin);
  const auto first_late_block =
      std::lower_bound(old.blocks.begin(), old.blocks.end(), change_line,
                       [](const Block& b, uint32_t line) { return b.start_line < line; });
  const size_t limit =
      first_late_block == old.blocks.begin() ? 0 : std::prev(first_late_block)->range.begin;
  const std::vector<ResumePoint>& points = old.resume_points;
  auto after_limit =
      std::upper_bound(points.begin(), points.end(), limit,
                       [](size_t at, const ResumePoint& p) { return at < p.offset; });
  const ResumePoint from = after_limit == points.begin() ? ResumePoint{} : *std::prev(after_limit);

  // Parse until a point in the unchanged tail where the old parse was in the same state.
  const ResumePoint* old_stop = nullptr;
  const auto stop = [&](const ResumePoint& p) {
    if (p.offset < change.new_end) return false;
    const size_t old_offset = shifted(p.offset, -byte_delta);
    const auto it = std::lower_bound(points.begin(), points.end(), old_offset,
                                     [](const ResumePoint& q, size_t at) { return q.offset < at; });
    if (it == points.end() || it->offset != old_offset || !it->same_state(p)) return false;
    old_stop = &*it;
    return true;
  };
  std::optional<ResumePoint> new_stop;
  ParsedDocument window = parse_from(new_text, from, old.blocks, options, stop, &new_stop);
  LineIndex new_lines =
      edit_line_index(old.lines, change.begin, change.old_end,
                      new_text.substr(change.begin, change.new_end - change.begin));

  ReparseWindow w;
  w.first_block = from.blocks;
  w.first_diagnostic = from.diagnostics;
  w.first_line = from.line;
  w.first_offset = from.offset;
  w.new_block_end = from.blocks + static_cast<uint32_t>(window.blocks.size());
  w.new_diagnostic_end = from.diagnostics + static_cast<uint32_t>(window.diagnostics.size());
  if (old_stop) {
    w.old_block_end = old_stop->blocks;
    w.old_diagnostic_end = old_stop->diagnostics;
    w.old_line_end = old_stop->line;
    w.new_line_end = new_stop->line;
    w.old_offset_end = old_stop->offset;
    w.new_offset_end = new_stop->offset;
  } else {
    w.reaches_end = true;
    w.old_block_end = static_cast<uint32_t>(old.blocks.size());
    w.old_diagnostic_end = static_cast<uint32_t>(old.diagnostics.size());
    w.old_line_end = old.lines.line_count();
    w.new_line_end = new_lines.line_count();
    w.old_offset_end = old_text.size();
    w.new_offset_end = new_text.size();
  }
  const int64_t line_delta = w.line_delta();
  const int64_t block_delta = w.block_delta();
  const int64_t diagnostic_delta =
      static_cast<int64_t>(w.new_diagnostic_end) - static_cast<int64_t>(w.old_diagnostic_end);

  // The reuse conditions, checked. After the window, the parse depends on what each dialect
  // carries from block to block (NESL: the ids seen, for duplicate ids and fresh ids in
  // repairs), and diagnostics that quote line numbers must not have moved.
  if (old_stop) {
    const bool cites =
        std::any_of(old.diagnostics.begin() + w.old_diagnostic_end, old.diagnostics.end(),
                    [](const Diagnostic& d) { return d.line_dependent; });
    if (cites && line_delta != 0) return std::nullopt;
    bool same = true;
    for_each_grammar_type([&]<typename G>() {
      same = same && G::same_carried_state(old_text, old.blocks, w.first_block, w.old_block_end,
                                           new_text, window.blocks, 0, window.blocks.size(), cites);
    });
    if (!same) return std::nullopt;
    // Blocks are in text order and each refers only to its own lines: the first is enough.
    if (w.old_block_end < old.blocks.size() &&
        !refers_within(old.blocks[w.old_block_end], w.old_offset_end, SIZE_MAX))
      return std::nullopt;
    for (size_t d = w.old_diagnostic_end; d < old.diagnostics.size(); ++d)
      if (!refers_within(old.diagnostics[d], w.old_offset_end, SIZE_MAX)) return std::nullopt;
  }
  if (w.first_block > 0 && !refers_within(old.blocks[w.first_block - 1], 0, w.first_offset))
    return std::nullopt;
  for (size_t d = 0; d < w.first_diagnostic; ++d)
    if (!refers_within(old.diagnostics[d], 0, w.first_offset)) return std::nullopt;

  Reparse r;
  r.window = w;
  ParsedDocument& doc = r.doc;
  doc.lines = std::move(new_lines);

  // The window's blocks move here with the arena that holds their commands; the blocks before
  // and after it are copied into the same arena (and sealed, as a parse seals its blocks):
  // a keystroke copies every block, and freeing the old document frees each copy's lists.
  doc.arena = window.arena ? std::move(window.arena) : std::make_unique<Arena>();
  const ModelAllocator alloc = doc.allocator();
  doc.blocks.reserve(old.blocks.size() + static_cast<size_t>(std::max<int64_t>(block_delta, 0)));
  for (size_t b = 0; b < w.first_block; ++b)
    seal_block(doc.blocks.emplace_back(old.blocks[b], alloc), doc.arena.get());
  std::move(window.blocks.begin(), window.blocks.end(), std::back_inserter(doc.blocks));
  for (size_t b = w.old_block_end; b < old.blocks.size(); ++b) {
    Block& copy = doc.blocks.emplace_back(old.blocks[b], alloc);
    shift_block(copy, byte_delta, line_delta);
    seal_block(copy, doc.arena.get());
  }

  doc.diagnostics.reserve(old.diagnostics.size() + window.diagnostics.size());
  doc.diagnostics.insert(doc.diagnostics.end(), old.diagnostics.begin(),
                         old.diagnostics.begin() + w.first_diagnostic);
  for (Diagnostic& d : window.diagnostics) {
    if (d.block >= 0) d.block += static_cast<int32_t>(w.first_block);
    doc.diagnostics.push_back(std::move(d));
  }
  for (size_t i = w.old_diagnostic_end; i < old.diagnostics.size(); ++i) {
    doc.diagnostics.push_back(old.diagnostics[i]);
    shift_diagnostic(doc.diagnostics.back(), byte_delta, line_delta, block_delta);
  }

  doc.resume_points.reserve(points.size() + window.resume_points.size() + 1);
  doc.resume_points.insert(doc.resume_points.end(), points.begin(), after_limit);
  doc.resume_points.insert(doc.resume_points.end(), window.resume_points.begin(),
                           window.resume_points.end());
  if (old_stop) {
    for (auto it = points.begin() + (old_stop - points.data()); it != points.end(); ++it) {
      ResumePoint p = *it;
      // Where the parses meet, the new one says whether a start line follows (the old point
      // may be one before a start line where the new parse closed its block on the line before).
      if (it == points.begin() + (old_stop - points.data()))
        p.before_start = new_stop->before_start;
      p.offset = shifted(p.offset, byte_delta);
      p.line = shifted(p.line, line_delta);
      p.blocks = static_cast<uint32_t>(p.blocks + block_delta);
      p.diagnostics = static_cast<uint32_t>(p.diagnostics + diagnostic_delta);
      doc.resume_points.push_back(p);
    }
  }
  return r;
}

} // namespace blockls
