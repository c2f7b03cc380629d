// The one model every dialect parses into: a document holds blocks, a block holds commands,
// a command holds parameters; each element keeps exact byte ranges into the source text.
// The model never owns the source: ranges index the caller's buffer.
#pragma once

#include "grammar/arena.h"
#include "grammar/line_index.h"
#include "grammar/model_list.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace blockls {

// The allocator of commands and parameters: the arena of the document being parsed (see
// ParsedDocument::arena), or the default heap for elements built or copied outside a parse.
using ModelAllocator = std::pmr::polymorphic_allocator<std::byte>;

// The registered dialects, in registration order (grammar/dialects.h lists their grammars in
// the same order, and checks it). `none` marks document-level diagnostics (e.g. invalid
// UTF-8) that belong to no dialect; it also counts the dialects.
enum class Dialect : uint8_t {
  telt,
  nesl,
  heredoc,
  editblock,
  replacer,
  sections,
  patch,
  xml,
  none
};
inline constexpr size_t kDialectCount = static_cast<size_t>(Dialect::none);
// The syntax family of a block's start line. SHAM and upper-case NESL are the older eras of
// the NESL grammar; each block is parsed in the era of its own start line.
enum class Era : uint8_t {
  telt,
  sham,
  nesl_upper,
  nesl,
  heredoc,
  editblock,
  replacer,
  sections,
  patch,
  xml
};

std::string_view dialect_name(Dialect dialect); // "telt", "nesl", "document"
std::string_view era_name(Era era);             // "telt", "sham", "NESL", "nesl", "heredoc"

enum class Severity : uint8_t { block_fatal, command_error, parameter_warning, syntax_info };
std::string_view severity_name(Severity severity); // "block_fatal", ...
// block_fatal and command_error make a block invalid (and the CLI exit 1).
constexpr bool is_error(Severity severity) {
  return severity == Severity::block_fatal || severity == Severity::command_error;
}

struct ByteRange {
  size_t begin = 0;
  size_t end = 0;
  size_t size() const { return end - begin; }
  bool operator==(const ByteRange&) const = default;
};

inline std::string_view slice(std::string_view text, ByteRange range) {
  return text.substr(range.begin, range.end - range.begin);
}

struct TextEdit {
  ByteRange range; // replaced bytes (empty = insertion at range.begin)
  std::string new_text;
  bool operator==(const TextEdit&) const = default;
};

struct Fix {
  std::string title;
  bool preferred = false;
  std::vector<TextEdit> edits; // non-overlapping, any order
  bool operator==(const Fix&) const = default;
};

// A string that takes one pointer while it is empty: few parameters need a decoded value, and
// a smaller parameter is less memory for a parse to write.
class DecodedValue {
public:
  DecodedValue() noexcept = default;
  DecodedValue(const DecodedValue& o) : text_(o.text_ ? new std::string(*o.text_) : nullptr) {}
  DecodedValue(DecodedValue&&) noexcept = default;
  DecodedValue& operator=(const DecodedValue& o) { return *this = DecodedValue(o); }
  DecodedValue& operator=(DecodedValue&&) noexcept = default;
  DecodedValue& operator=(std::string text) {
    if (text.empty())
      text_.reset();
    else
      text_ = std::make_unique<std::string>(std::move(text));
    return *this;
  }

  bool empty() const { return !text_; }
  std::string_view view() const { return text_ ? std::string_view(*text_) : std::string_view(); }
  bool operator==(const DecodedValue& o) const { return view() == o.view(); }

private:
  std::unique_ptr<std::string> text_; // null while empty
};

struct Parameter {
  std::string name; // as written: TELT `CONTENT`, NESL key `content`
  // The value when it is not the plain source slice (JSON-unescaped string, CRLF heredoc).
  // A parameter whose name fits the inline buffer and that has no decoded value frees nothing
  // when destroyed: the parse seals its list (see ModelList, seal_block).
  DecodedValue decoded;
  ByteRange name_range; // the name in the source
  ByteRange
      value_range; // the value's source text (TELT value lines, NESL quoted token or heredoc body)
  uint32_t line = 0; // 0-based line of the PARAM delimiter / assignment
  bool value_is_slice = true;
  // A NESL quoted token without escapes: the value is the token without its two quotes
  // (value_is_slice is false, as the value is not the token itself; decoded stays empty).
  bool value_in_quotes = false;
  // A value read from the source although value_is_slice is false (it stays false so that
  // offset mapping does not take such a value for the plain slice; decoded stays empty):
  // `range`, the text of value_range (a heredoc's unquoted path); `range_and_break`, that text
  // and the "\n" after it (an LF heredoc body, whose value ends with a line break). Neither is
  // copied: a block writes no heap memory for them.
  enum class Source : uint8_t { decoded, range, range_and_break };
  Source source = Source::decoded;

  // User-provided, so that `params.emplace_back()` (value-initialisation) only runs the member
  // initialisers above instead of first zeroing the whole object (a `rep stos`, slow to start,
  // for every parameter a parse creates).
  Parameter() noexcept {}
  // A parameter named `name`: built in place by the parsers (a constructed string copies the
  // name inline; append() on an empty one is an out-of-line call).
  explicit Parameter(std::string_view name_as_written) : name(name_as_written) {}

  std::string_view value(std::string_view text) const {
    if (value_is_slice) return slice(text, value_range);
    if (value_in_quotes) return text.substr(value_range.begin + 1, value_range.size() - 2);
    if (source != Source::decoded)
      return text.substr(value_range.begin,
                         value_range.size() + size_t{source == Source::range_and_break});
    return decoded.view();
  }
};

struct Command {
  // TELT: NAME of `=== NAME ===`; NESL: the `action` value ("" when absent). In the arena,
  // like the parameters: action names are often too long for the string's inline buffer.
  std::pmr::string name;
  ByteRange name_range; // TELT: NAME; NESL: the action's value token (empty when absent)
  uint32_t line = 0;    // 0-based: TELT command line; NESL: the block's start line
  // Source order; TELT repeats stay separate, NESL keys are unique.
  ModelList<Parameter> params;

  // Allocator-aware, so that a block's command list builds its commands in its own arena.
  using allocator_type = ModelAllocator;
  Command() = default;
  explicit Command(const allocator_type& alloc) : name(alloc), params(alloc) {}
  // A command named `name_as_written` (see Parameter's constructor from a name).
  Command(std::string_view name_as_written, const allocator_type& alloc)
      : name(name_as_written, alloc), params(alloc) {}
  Command(const Command& o, const allocator_type& alloc)
      : name(o.name, alloc), name_range(o.name_range), line(o.line), params(o.params, alloc) {}
  Command(Command&& o, const allocator_type& alloc)
      : name(std::move(o.name), alloc), name_range(o.name_range), line(o.line),
        params(std::move(o.params), alloc) {}
  Command(const Command&) = default;
  Command(Command&&) noexcept = default;
  Command& operator=(const Command&) = default;
  Command& operator=(Command&&) = default;
};

// The era a block of `dialect` has unless its parser says otherwise (NESL: sham, NESL, nesl).
constexpr Era era_of(Dialect dialect) {
  switch (dialect) {
  case Dialect::telt:
    return Era::telt;
  case Dialect::nesl:
    return Era::nesl;
  case Dialect::heredoc:
    return Era::heredoc;
  case Dialect::editblock:
    return Era::editblock;
  case Dialect::replacer:
    return Era::replacer;
  case Dialect::sections:
    return Era::sections;
  case Dialect::patch:
    return Era::patch;
  case Dialect::xml:
  case Dialect::none:
    break;
  }
  return Era::xml;
}

struct Block {
  Dialect dialect; // set by every constructor: the dialect whose parser opened the block
  Era era;         // set by every constructor from the dialect (no silent TELT default)
  std::string id;  // TELT hash / NESL block id
  ByteRange id_range;
  uint32_t start_line = 0;          // 0-based
  std::optional<uint32_t> end_line; // 0-based; nullopt while/when unclosed
  ByteRange range;                  // from the start line to the end of the last line it owns
  ModelList<Command> commands;
  // Markdown fence around the start line, if any (used to place "insert end marker" fixes).
  std::optional<uint32_t> fence_close_line; // first line after the start that closes that fence

  // A block of `of` whose commands (and their parameters) live in `alloc` (a parse's arena).
  // Copies of a block use the default heap; a move keeps the source's arena, so blocks move
  // only within their document (or with its arena, see ParsedDocument).
  Block(Dialect of, const ModelAllocator& alloc) : dialect(of), era(era_of(of)), commands(alloc) {}
  // The same, with its id (see Parameter's constructor from a name).
  Block(Dialect of, const ModelAllocator& alloc, std::string_view block_id)
      : dialect(of), era(era_of(of)), id(block_id), commands(alloc) {}
  // The same, with `command_count` empty commands (a NESL block has exactly one).
  Block(Dialect of, const ModelAllocator& alloc, std::string_view block_id, size_t command_count)
      : dialect(of), era(era_of(of)), id(block_id), commands(command_count, alloc) {}
  // A copy of `o` whose commands and parameters live in `alloc`: an incremental re-parse
  // copies the blocks outside its window into the new document's arena (then seals them), so
  // that the copies cost bump allocations and freeing the document skips them.
  // (Every member is copied: a member added to Block must be added here.)
  Block(const Block& o, const ModelAllocator& alloc)
      : dialect(o.dialect), era(o.era), id(o.id), id_range(o.id_range), start_line(o.start_line),
        end_line(o.end_line), range(o.range), commands(o.commands, alloc),
        fence_close_line(o.fence_close_line) {}
};

// A document's block vector moves its blocks when it grows (with their arena and seal).
static_assert(std::is_nothrow_move_constructible_v<Block>);

// Seals the block's command list and each command's parameter list that live in `arena` and
// whose elements free nothing when destroyed (see ModelList): destroying the document then
// skips them. Called by the parser once the block is complete, while it is still in the cache.
void seal_block(Block& block, const std::pmr::memory_resource* arena);

// The value of the command's first parameter that names a file (a name holding "path" or
// "file" in any case: `path`, `FILE`, `old_path`), or empty. What outlines, lenses and the
// feedback for models call a command by.
std::string_view command_path(std::string_view text, const Command& command);

struct Diagnostic {
  // The dialect is always stated: the block's, or Dialect::none for a document-level one.
  explicit Diagnostic(Dialect of) : dialect(of) {}

  std::string_view code; // a static name from diagnostics/codes (e.g. "HASH_MISMATCH")
  Severity severity = Severity::block_fatal;
  Dialect dialect;
  int32_t block = -1; // index into ParsedDocument::blocks, -1 when the error has no block
  uint32_t line = 0;  // 0-based reported line; == line_count for end-of-input errors
  ByteRange range;    // covered bytes; empty at the end of input
  std::string message;
  std::string fix_hint;
  std::vector<Fix> fixes; // the preferred one first
  // The message, hint or a fix depends on absolute line numbers (quotes another line's number,
  // or a fresh id seeded by one): an incremental re-parse cannot reuse such a diagnostic after
  // lines were inserted or removed before it.
  bool line_dependent = false;
  // Found by comparing the block with blocks before it (a duplicate id): a check of the
  // block's own text cannot report it, so re-checking that text to verify its fixes would
  // only ever keep them (fix_needs_verifying in fixits/verify_fixes.h says no).
  bool across_blocks = false;
};

// What the line router needs to resume parsing at the start of a line where no block is open
// and nothing is pending (see grammar/router/incremental_parse.h). Recorded where a block (or a
// pending header) has just ended, so there is about one per block.
struct ResumePoint {
  size_t offset = 0;        // first byte of the line
  uint32_t line = 0;        // its 0-based number
  uint32_t blocks = 0;      // blocks opened before it
  uint32_t diagnostics = 0; // syntax diagnostics reported before it
  bool fence_open = false;  // Markdown fence state (prose between blocks)
  char fence_marker = '`';
  uint32_t fence_length = 0;
  // What each dialect carries from block to block, as its snapshot() gave it (indexed by
  // Dialect; the meaning is the dialect's own, like a tree-sitter scanner's serialized state).
  std::array<uint32_t, kDialectCount> dialect_state{};
  // Recorded at the start of a start line that ended the open block (a NESL header after a
  // block without its end marker): the router had already routed that line, so a parse that
  // stops here drops what the line began (parse_from), or does not stop here (PartParser).
  bool before_start = false;
  // Same parser state (offsets aside): parsing resumed at either point goes on identically.
  bool same_state(const ResumePoint& o) const {
    return fence_open == o.fence_open &&
           (!fence_open || (fence_marker == o.fence_marker && fence_length == o.fence_length)) &&
           dialect_state == o.dialect_state;
  }
};

struct ParsedDocument {
  // The arena of the blocks' commands and parameters: a parse allocates them there (a few
  // large allocations instead of several small ones per block) and frees them all at once.
  // Null for documents built by hand (their elements use the default heap). Declared first:
  // destroyed after the blocks that use it.
  std::unique_ptr<Arena> arena;
  LineIndex lines;
  std::vector<Block> blocks;
  std::vector<Diagnostic> diagnostics;    // in the order the parser found them
  std::vector<ResumePoint> resume_points; // in text order (the start of the text is implicit)

  ParsedDocument() = default;
  ParsedDocument(ParsedDocument&&) noexcept = default;
  // A copy's elements use the default heap (the arena stays with the original).
  ParsedDocument(const ParsedDocument& o)
      : lines(o.lines), blocks(o.blocks), diagnostics(o.diagnostics),
        resume_points(o.resume_points) {}
  // By swap: the old blocks are destroyed before the arena they use.
  ParsedDocument& operator=(ParsedDocument&& o) noexcept {
    ParsedDocument moved(std::move(o));
    swap(moved);
    return *this;
  }
  ParsedDocument& operator=(const ParsedDocument& o) {
    ParsedDocument copy(o);
    swap(copy);
    return *this;
  }
  void swap(ParsedDocument& o) noexcept {
    std::swap(arena, o.arena);
    std::swap(lines, o.lines);
    std::swap(blocks, o.blocks);
    std::swap(diagnostics, o.diagnostics);
    std::swap(resume_points, o.resume_points);
  }
  // The allocator of new blocks' commands: the arena, or the default heap.
  ModelAllocator allocator() const {
    return arena ? ModelAllocator(arena.get()) : ModelAllocator();
  }
};

} // namespace blockls
