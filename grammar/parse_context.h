// What a dialect parser sees: one complete line at a time, plus the document so far.
// Parsers keep only byte offsets between calls, so the buffer behind `text` may grow
// (streaming) without invalidating anything they stored.
#pragma once

#include "grammar/dialect_set.h"
#include "grammar/model.h"

#include <cstdint>
#include <string_view>

namespace blockls {

struct LineRef {
  uint32_t number = 0;      // 0-based
  size_t begin = 0;         // first byte of the line
  size_t end = 0;           // end of the line's text, before "\r\n" / "\n"
  size_t next = 0;          // first byte of the next line (== end for the last line)
  std::string_view text;    // [begin, end): no "\n", no "\r" of a "\r\n"
  bool has_newline = false; // the line is followed by "\n" (false only for the last line)
  // The empty "line" after a final line break: it exists for positions, never as content.
  bool phantom() const { return !has_newline && begin == end; }
};

struct ParseContext {
  std::string_view text; // the whole document fed so far (valid only during the call)
  ParsedDocument* out = nullptr;
  // Markdown fence state at the current line (only tracked outside blocks).
  bool inside_fence = false;
  // Where the last block before out->blocks' first ends (0: none): blocks that are not in
  // `out` because the parse resumed after them (an incremental re-parse) or handed them out
  // already (a parse in parts, PartParser).
  size_t earlier_blocks_end = 0;

  // Where the last block found so far ends, in `out` or before it (0 before the first): how
  // far back a start line may look for what belongs to it.
  size_t last_block_end() const {
    return out->blocks.empty() ? earlier_blocks_end : out->blocks.back().range.end;
  }
};

class LineIndex;

// A parameter value of the open block whose lines are still arriving (see
// DocumentParser::open_value): what `blockls stream` reports as value_chunk events. Its value
// so far is the text of `lines` with each "\r\n" read as "\n", plus "\n" when
// `final_break`; the value the block ends up with begins with it.
struct OpenValue {
  uint32_t command = 0;   // index of its command in the open block
  std::string_view param; // the parameter's name as written (valid until the parse goes on)
  uint32_t line = 0;      // 0-based: the line the parameter will have (Parameter::line)
  ByteRange lines;        // from its first line's start to the end of its last complete line's text
  bool final_break = false; // the value ends with a line break after its last line
  bool raw = false;         // the value is the source bytes as they are ("\r\n" kept: TELT)
  // A character each line may begin with that is not part of the value (an Add File's '+'),
  // or 0.
  char line_marker = 0;
};

// Told of each block of a one-shot parse (parse_document) as soon as the parse has closed it,
// in block order: a closed block does not change any more. A later step that reads every block
// (catalog validation) can so do its work while the block is still in the cache.
class BlockObserver {
public:
  virtual ~BlockObserver() = default;
  // `doc.blocks[block]` has closed; `lines` indexes the text at least to its last line.
  virtual void block_closed(std::string_view text, const ParsedDocument& doc,
                            const LineIndex& lines, size_t block) = 0;
};

// Options shared by all dialect parsers.
struct ParseOptions {
  // The dialects the parse looks for (every registered one unless narrowed).
  DialectSet dialects = DialectSet::all();
  // Only parse_document() tells it (the streaming and the incremental parses do not).
  BlockObserver* observer = nullptr;
  // Index line starts as 64-bit offsets from the first line on (see LineIndex::wide()), as a
  // parse does by itself once the text passes 4 GiB: lets tests run that path on small texts.
  bool wide_line_index = false;
  // A one-shot parse (parse_document) that has found more syntax diagnostics than this after
  // a line throws DiagnosticLimitReached: fix verification only needs to know that a window is
  // crowded, or that a fix made it worse (fixits/verify_fixes.cpp), not what is past that.
  size_t max_diagnostics = SIZE_MAX;
};

// What a parse over ParseOptions::max_diagnostics throws.
struct DiagnosticLimitReached {
  size_t stopped_at = 0; // the end of the line after which the parse stopped
};

} // namespace blockls
