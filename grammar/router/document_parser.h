// One pass over a transcript that mixes prose, Markdown fences and blocks of every dialect.
// Input may arrive in chunks (feed/finish); the result is identical for any chunking because
// dialect parsers only ever see complete lines.
#pragma once

#include "grammar/model.h"
#include "grammar/parse_context.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class DocumentParser {
public:
  explicit DocumentParser(ParseOptions options = {});
  ~DocumentParser();
  DocumentParser(DocumentParser&&) noexcept;
  DocumentParser& operator=(DocumentParser&&) noexcept;

  // Appends `chunk` to the document and parses every line it completes.
  void feed(std::string_view chunk);
  // Parses the last line, closes what is still open and returns the result. The parser is
  // then spent; text() stays valid until it is destroyed.
  ParsedDocument finish();
  // Everything fed so far (the buffer the result's ranges refer to; a later feed may move it).
  std::string_view text() const;
  // What the parse has found so far, for callers that report blocks as they close (`blockls
  // stream`): the blocks opened (the last may still be open and grow), the syntax diagnostics
  // in the order found, and the resume points, each recorded where no block is open or
  // pending any more — the blocks before one, and the diagnostics it counts, are final.
  // (Blocks handed out with take_blocks() stay in their places, moved-from.)
  const std::vector<Block>& blocks_so_far() const;
  const std::vector<Diagnostic>& diagnostics_so_far() const;
  const std::vector<ResumePoint>& resume_points_so_far() const;
  // Moves blocks [begin, end) of blocks_so_far() to the end of `*out`, for a caller that is done
  // parsing them: `end` must not pass the last resume point's count (the blocks before it are
  // final and the parse reads no more of them than their positions, which the moved-from
  // blocks left in their places keep; their ids and commands are gone). Their commands stay in
  // the parser's arena: `*out` must not outlive the parser. Saves `blockls stream` a deep copy
  // of every block (its commands and parameters on the heap, then freed).
  void take_blocks(size_t begin, size_t end, std::vector<Block>* out);
  // The same for syntax diagnostics [begin, end) of diagnostics_so_far() (`end` at most the
  // last resume point's count): moved out, their places left moved-from (no message, no
  // fixes), so that a stream holds the diagnostics of the part it checks, not of everything it
  // has read (a transcript with a mistake on every line once took 420 times its size).
  void take_diagnostics(size_t begin, size_t end, std::vector<Diagnostic>* out);
  // The line starts of the text fed so far (up to its last line break; valid until the next
  // feed), and its ASCII prefix (LineIndex::ascii_prefix): a caller that indexes the text up to
  // a resume point copies them from here.
  const LineIndex& lines_so_far() const;
  // How many complete lines have been parsed (a feed that completes none changes nothing of
  // what the parse has found: blocks, diagnostics, resume points, open value).
  uint32_t complete_lines() const;
  // The value of the open block whose lines are arriving, for the dialects whose grammar
  // knows value lines (NESL heredoc values, heredoc bodies); nullopt otherwise.
  std::optional<OpenValue> open_value() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

// One-shot parse over a caller-owned buffer (no copy of the text).
ParsedDocument parse_document(std::string_view text, ParseOptions options = {});

// The line index parse_document() gives its result (line starts and the ASCII prefix), for a
// PartParser.
LineIndex index_document_lines(std::string_view text, const ParseOptions& options = {});

// A one-shot parse of a caller-owned text handed over in parts, each ending at a resume point
// (every block before it final): a caller that checks and reports each part before asking for
// the next keeps one part's model at a time instead of the whole document's (`blockls check`
// of a large input). The parts, put together, are parse_document's result: the same blocks
// and syntax diagnostics in the same order, the same dialect cross-block state (duplicate ids,
// paths written) running through all of them.
class PartParser {
public:
  // `lines`: the line index of the whole `text` (both outlive the parser), built as
  // parse_document builds it. It is read through the storage it has now, which must stay
  // unchanged; the index object may be moved meanwhile (its storage goes with it), e.g. lent
  // to the parts as they are checked on another thread — unless options.observer is set,
  // which is given the object itself.
  PartParser(std::string_view text, const LineIndex& lines, ParseOptions options = {});
  ~PartParser();
  PartParser(const PartParser&) = delete;
  PartParser& operator=(const PartParser&) = delete;

  // What the parse finds from offset() to the first resume point at or past byte `min_end`,
  // or to the end of the text (done() is then true): blocks numbered from 0 (the diagnostics'
  // block indices likewise), absolute lines and offsets, no line index, no resume points.
  // Blocks are sealed as parse_document seals them, and options.observer is told of each.
  ParsedDocument next(size_t min_end);
  bool done() const;
  // Where the next part begins (the end of the last one).
  size_t offset() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

// The parse of `text` from resume point `from` on, for incremental re-parsing (see
// grammar/router/incremental_parse.h). `from` and `earlier` (the blocks before it) come from a
// parse of a text equal to `text` before from.offset. Lines are routed exactly as parse_document
// routes them until `stop` accepts a resume point the parse records (returned in
// `*stopped_at`, and not in the result) or the text ends. The result holds what was found
// after `from`: blocks numbered from 0 (diagnostics' block indices likewise), absolute lines
// and offsets, resume points with absolute counts, and no line index.
ParsedDocument parse_from(std::string_view text, const ResumePoint& from,
                          const std::vector<Block>& earlier, ParseOptions options,
                          const std::function<bool(const ResumePoint&)>& stop,
                          std::optional<ResumePoint>* stopped_at);

} // namespace blockls
