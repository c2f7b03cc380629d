// The hunks of a Codex `*** Update File:` operation (the lines after the Update / Move to
// header up to the next file operation), read one line at a time by the rules of Codex's
// apply_patch: `@@` or `@@ context` opens a chunk (the first chunk may omit it), then lines
// starting with ` ` (context), `-` (removed), `+` (added) or empty (an empty context line);
// `*** End of File` pins the chunk to the end of the file. Shared by the grammar (which
// reports a malformed line where it stands) and apply/ (which parses the `hunks` parameter
// again to locate and apply the chunks), so both read the text the same way.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::patch {

// One chunk of an update: the lines it expects (context and removed) and those it leaves
// (context and added), views into the hunks text.
struct Chunk {
  std::optional<std::string_view> context; // `@@ context`: a line the chunk follows
  std::vector<std::string_view> old_lines, new_lines;
  bool end_of_file = false; // `*** End of File`: the old lines end the file
  size_t first_line = 0;    // 0-based line of the hunks text where the chunk starts
};

// The line-by-line reader of one update's hunks.
class HunkReader {
public:
  enum class Step : unsigned char {
    taken, // the line belongs to the hunks
    ended, // a `***` line: the hunks ended before it (the line is the caller's)
    error, // a malformed line (message()); the reader goes on after it
  };
  // `keep_lines`: record each chunk's old and new lines (apply/ reads them); the grammar only
  // needs the verdict, so it counts them.
  explicit HunkReader(bool keep_lines = true) : keep_lines_(keep_lines) {}
  // Feeds one line (without its line break); `number` is its 0-based index in the hunks text.
  Step feed(std::string_view line, size_t number);
  // A chunk is open: a line that starts with ' ', '-' or '+' (and is no `***` line) is one of
  // its lines.
  bool in_chunk() const { return in_chunk_; }
  // Takes `n` such lines at once, as `n` calls of feed() would (a reader that counts only).
  void take_chunk_lines(size_t n) { parsed_ += n; }
  // The end of the hunks: false (and message()) when the update has no chunk at all.
  bool finish(std::string_view path);
  const std::string& message() const { return message_; }
  std::vector<Chunk>& chunks() { return chunks_; }

private:
  Step chunk_line(std::string_view line);
  Step fail(std::string message);

  bool keep_lines_ = true;
  bool in_chunk_ = false;
  size_t parsed_ = 0; // lines of the open chunk
  bool any_ = false;  // a chunk was opened (or a malformed line recovered as one)
  std::vector<Chunk> chunks_;
  std::string message_;
};

// Every chunk of a hunks text (LF line breaks); nullopt and `*error` at the first malformed
// line (Codex's wording) or when there is no chunk.
std::optional<std::vector<Chunk>> parse_hunks(std::string_view hunks, std::string_view path,
                                              std::string* error);

// The text without blanks (spaces, tabs, "\r") at either end.
std::string_view trim_blanks(std::string_view s);

} // namespace blockls::patch
