// The steps of check_parsed, shared with the incremental re-check (diagnostics/recheck.h) so
// that both order and judge diagnostics the same way.
#pragma once

#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"
#include "grammar/router/incremental_parse.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace blockls::check_steps {

// Syntax diagnostics [first_syntax, end_syntax) of `parsed` and the catalog validation of
// blocks [first_block, end_block), in check order: by line, then first byte; on ties syntax
// before validation, each in the order found. The syntax diagnostics are copied, or moved out
// of `movable_syntax` when it is given (it must be &parsed.diagnostics). `validated`, when
// given, holds the validation of those blocks already (what validate_blocks() reports, in its
// order) and is moved from.
std::vector<Diagnostic> ordered(std::string_view text, const ParsedDocument& parsed,
                                const ActionCatalog& catalog, size_t first_syntax,
                                size_t end_syntax, size_t first_block, size_t end_block,
                                std::vector<Diagnostic>* movable_syntax = nullptr,
                                std::vector<Diagnostic>* validated = nullptr);

// The document-level INVALID_UTF8 diagnostic of `text`, if it has an invalid byte at or after
// `from` (a line start: a sequence cannot run into a line from the one before).
std::optional<Diagnostic> invalid_utf8(std::string_view text, const LineIndex& lines,
                                       size_t from = 0);
// The INVALID_UTF8 diagnostic of a text whose first invalid byte is at `bad`.
Diagnostic invalid_utf8_at(const LineIndex& lines, size_t bad);
// invalid_utf8(new_text, new_lines) for a text made by `change` from an old one of
// `old_size` bytes, given the old text's line index and its first invalid byte (`old_bad`,
// npos when it has none). No UTF-8 sequence holds a "\n", so only the lines the change
// touched are decoded, unless the old first invalid byte was on them (the old check decoded
// nothing after it): then from them to the end.
std::optional<Diagnostic> invalid_utf8_after_change(std::string_view new_text,
                                                    const LineIndex& new_lines,
                                                    const LineIndex& old_lines, size_t old_size,
                                                    const TextChange& change, size_t old_bad);

// Inserts a document-level diagnostic into an ordered list, after every diagnostic at the
// same position (where check_document puts it); returns its index.
size_t insert_document_level(std::vector<Diagnostic>& ordered, Diagnostic diagnostic);

// The line of each command of blocks [first_block, ...) of a document, in block order.
// check_document records them while the parse has each block in the cache, so that judge()
// need not read the blocks again (a cache miss or two for every block with an error).
class CommandLines {
public:
  explicit CommandLines(size_t first_block = 0) : first_block_(first_block) {}
  // Of blocks [first_block, end_block) of `doc`.
  static CommandLines of(const ParsedDocument& doc, size_t first_block, size_t end_block) {
    CommandLines lines(first_block);
    // Room for all of it at once (a stream checks a part per block: its lists grown command by
    // command took more allocations than the rest of the part's check).
    size_t commands = 0;
    for (size_t b = first_block; b < end_block; ++b)
      commands += doc.blocks[b].commands.size();
    lines.lines_.reserve(commands);
    lines.block_end_.reserve(end_block - first_block);
    lines.sorted_.reserve(end_block - first_block);
    for (size_t b = first_block; b < end_block; ++b)
      lines.add_block(doc.blocks[b]);
    return lines;
  }

  // Of every block of `blocks`, read from the blocks when asked (they must outlive it): no list
  // is built. check_part does so: a stream checks a part per block, and the lists cost three
  // allocations per part. Whether a block's commands are in line order is looked at when a
  // diagnostic of the block is first placed (diagnostics come block after block: one block's
  // answer is kept).
  static CommandLines reading(const std::vector<Block>& blocks) {
    CommandLines lines;
    lines.blocks_ = &blocks;
    return lines;
  }

  // Room for `blocks` blocks of `commands` commands in all, before they are added one by one.
  void reserve(size_t blocks, size_t commands) {
    lines_.reserve(commands);
    block_end_.reserve(blocks);
    sorted_.reserve(blocks);
  }

  // Appends the next block.
  void add_block(const Block& block) {
    const size_t first = lines_.size();
    for (const Command& c : block.commands)
      lines_.push_back(c.line);
    sorted_.push_back(
        std::is_sorted(lines_.begin() + static_cast<std::ptrdiff_t>(first), lines_.end()));
    block_end_.push_back(static_cast<uint32_t>(lines_.size()));
  }
  size_t command_count(size_t block) const {
    if (blocks_) return (*blocks_)[block].commands.size();
    return end(block) - begin(block);
  }
  // Which command of `block` a diagnostic on `line` belongs to (-1: before the first one): the
  // last one at or before it. A block's commands are nearly always in line order, and then a
  // binary search finds it (a malformed diff makes thousands of commands, each with an error:
  // a scan per diagnostic was quadratic); else every command is looked at.
  int command_of_line(size_t block, uint32_t line) const {
    if (blocks_) return command_of_line_in(block, line);
    const auto first = lines_.begin() + begin(block), last = lines_.begin() + end(block);
    if (sorted_[block - first_block_]) {
      const auto after = std::upper_bound(first, last, line, [&](uint32_t l, uint32_t command) {
        ++lines_read_;
        return l < command;
      });
      return static_cast<int>(after - first) - 1;
    }
    int found = -1;
    for (auto it = first; it != last; ++it, ++lines_read_)
      if (*it <= line) found = static_cast<int>(it - first);
    return found;
  }
  // How many command lines command_of_line() has read so far (its cost, for tests).
  size_t lines_read() const { return lines_read_; }

private:
  // command_of_line() over the commands of (*blocks_)[block], as it reads the lists.
  int command_of_line_in(size_t block, uint32_t line) const {
    const ModelList<Command>& commands = (*blocks_)[block].commands;
    if (sorted_block_ != block) {
      sorted_block_ = block;
      block_sorted_ =
          std::is_sorted(commands.begin(), commands.end(),
                         [](const Command& a, const Command& b) { return a.line < b.line; });
    }
    if (block_sorted_) {
      const auto after = std::upper_bound(commands.begin(), commands.end(), line,
                                          [&](uint32_t l, const Command& command) {
                                            ++lines_read_;
                                            return l < command.line;
                                          });
      return static_cast<int>(after - commands.begin()) - 1;
    }
    int found = -1;
    for (auto it = commands.begin(); it != commands.end(); ++it, ++lines_read_)
      if (it->line <= line) found = static_cast<int>(it - commands.begin());
    return found;
  }

  uint32_t begin(size_t block) const {
    return block == first_block_ ? 0 : block_end_[block - first_block_ - 1];
  }
  uint32_t end(size_t block) const { return block_end_[block - first_block_]; }

  size_t first_block_;
  std::vector<uint32_t> lines_;     // every command's line
  std::vector<uint32_t> block_end_; // the commands of block first_block_ + i end at [i]
  std::vector<bool> sorted_;        // block first_block_ + i has its commands in line order
  mutable size_t lines_read_ = 0;
  const std::vector<Block>* blocks_ = nullptr; // see reading()
  mutable size_t sorted_block_ = SIZE_MAX;     // the block whose order block_sorted_ is
  mutable bool block_sorted_ = false;
};

// The verdicts of blocks [first_block, end_block) (resized to cover them) from
// `diagnostics`, which holds every diagnostic of those blocks, and the command lines of those
// blocks.
void judge(const std::vector<Diagnostic>& diagnostics, std::vector<BlockVerdict>& verdicts,
           size_t first_block, size_t end_block, const CommandLines& command_lines);

} // namespace blockls::check_steps
