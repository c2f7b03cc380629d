// The protocol-free engine API: text in, blocks + every diagnostic (syntax and catalog
// validation) + a verdict per block out. The CLI, the language server and the apply module
// all call this; none of them parse on their own.
#pragma once

#include "diagnostics/action_catalog.h"
#include "grammar/model.h"
#include "grammar/parse_context.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace blockls {

struct CheckOptions {
  ParseOptions parse;
  const ActionCatalog* catalog = nullptr; // nullptr: the built-in catalog
  // Keep the parser's own list of syntax diagnostics (parsed.diagnostics, in the order found)
  // beside the ordered list. Only an incremental re-check of the result (diagnostics/recheck.h)
  // reads it, so by default the syntax diagnostics are moved into the ordered list, not copied.
  bool keep_parser_diagnostics = false;
};

// One flag per command of a block: the first 64 inline, so a verdict allocates nothing for
// ordinary blocks. Reads like a std::vector<bool> (size, [], range-for).
class CommandFlags {
public:
  class const_iterator {
  public:
    using value_type = bool;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    const_iterator(const CommandFlags* flags, size_t index) : flags_(flags), index_(index) {}
    bool operator*() const { return (*flags_)[index_]; }
    const_iterator& operator++() {
      ++index_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++index_;
      return old;
    }
    bool operator==(const const_iterator& other) const { return index_ == other.index_; }

  private:
    const CommandFlags* flags_ = nullptr;
    size_t index_ = 0;
  };

  // `count` flags, all `value`.
  void assign(size_t count, bool value) {
    size_ = count;
    const uint64_t word = value ? ~uint64_t{0} : 0;
    first_ = word;
    more_.assign(count > 64 ? (count - 1) / 64 : 0, word);
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool operator[](size_t i) const { return (word(i) >> (i % 64)) & 1; }
  void set(size_t i, bool value) {
    uint64_t& w = i < 64 ? first_ : more_[i / 64 - 1];
    const uint64_t bit = uint64_t{1} << (i % 64);
    w = value ? (w | bit) : (w & ~bit);
  }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

private:
  uint64_t word(size_t i) const { return i < 64 ? first_ : more_[i / 64 - 1]; }

  size_t size_ = 0;
  uint64_t first_ = 0;
  std::vector<uint64_t> more_; // flags 64 and up
};

struct BlockVerdict {
  bool valid = false;         // no block_fatal / command_error diagnostic in the block
  CommandFlags command_valid; // per command
  size_t error_count = 0;     // error-severity diagnostics of the block
  size_t warning_count = 0;   // parameter_warning + syntax_info
};

struct CheckedDocument {
  // Blocks and line index. parsed.diagnostics (the syntax diagnostics in the order found) is
  // filled only when parser_diagnostics_kept (CheckOptions::keep_parser_diagnostics).
  ParsedDocument parsed;
  std::vector<Diagnostic> diagnostics; // syntax + validation, in position order (see below)
  std::vector<BlockVerdict> verdicts;  // one per parsed.blocks entry
  bool parser_diagnostics_kept = false;
  size_t error_count() const;
};

// Parses and validates `text` (which must outlive the result's ranges' use). The grammar's
// fixes are attached as built; fixits/verify_fixes.h verifies them against the catalog.
CheckedDocument check_document(std::string_view text, const CheckOptions& options = {});
// Validates an already parsed document (streaming callers parse themselves).
CheckedDocument check_parsed(std::string_view text, ParsedDocument parsed,
                             const CheckOptions& options = {});

// The order of every diagnostic list (check's, and lists that add the diagnostics of a
// simulation): by line, then first byte; diagnostics at the same place keep their order.
bool before_in_position(const Diagnostic& a, const Diagnostic& b);
void sort_by_position(std::vector<Diagnostic>& diagnostics);

// One part of a check, for callers that check a document as it arrives (`blockls stream`):
// `part` holds what a parse of `text` found between two of its resume points `begin` and `end`
// — the blocks opened there, the syntax diagnostics found there (block indices counted from
// the part's first block) — and a line index of `text`, which runs at least to `end`. The
// result is check_parsed's of those blocks: positions are those of `text`, block indices
// those of the part. Its diagnostics, verdicts and blocks are the ones check_document gives
// for the text between the points, provided every earlier part ended at a resume point,
// except the document-level INVALID_UTF8 (a document has one, at its first invalid byte):
// it is looked for from `begin` on, and only when `find_invalid_utf8`.
CheckedDocument check_part(std::string_view text, ParsedDocument part, size_t begin,
                           bool find_invalid_utf8, const CheckOptions& options = {});

} // namespace blockls
