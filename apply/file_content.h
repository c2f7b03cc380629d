// The content of a file in the simulation: immutable, and shared between the versions that a
// transcript's edits produce. The text is kept in chunks of whole lines (about 8 KB each); an
// edit makes a new version that shares every chunk it does not touch, so an edit costs the
// size of the edit (plus one pointer per chunk), not the size of the file, and a thousand
// versions of a large file cost little more memory than one. Each chunk keeps a small Bloom
// filter of its lines, so the exact search for a text that spans a whole line visits only the
// chunks that may hold it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

class FileContent {
public:
  FileContent() = default; // empty
  explicit FileContent(std::string_view text);

  size_t size() const;
  bool empty() const { return size() == 0; }
  // The whole text in one piece: assembled on first use, then kept (thread-safe). For the
  // readers that need it (diffs, line actions, patches, the closest-region search).
  const std::string& str() const;

  size_t line_breaks() const; // every '\n'
  size_t crlf_breaks() const; // the '\n's preceded by '\r'

  // Offsets of the leftmost non-overlapping occurrences of `needle` from byte `from`, exactly
  // what repeated std::string_view::find(needle, previous + needle.size()) returns. Empty
  // when `needle` is empty.
  std::vector<size_t> find_all(std::string_view needle, size_t from = 0) const;

  // A new version with bytes [begin, end) replaced by `replacement` (begin <= end <= size()).
  FileContent splice(size_t begin, size_t end, std::string_view replacement) const;

  bool operator==(const FileContent& other) const; // the same bytes

  size_t chunk_count() const; // for tests

private:
  struct Chunk;
  struct Rep;
  explicit FileContent(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}
  static std::vector<std::shared_ptr<const Chunk>> make_chunks(std::string_view text);
  static std::shared_ptr<const Rep> make_rep(std::vector<std::shared_ptr<const Chunk>> chunks);
  size_t chunk_at(size_t offset) const;
  bool equals_at(size_t offset, std::string_view needle) const;

  std::shared_ptr<const Rep> rep_; // null when empty
};

// The text of an optional content, "" when there is none (the "before" of a created file).
std::string_view text_or_empty(const std::optional<FileContent>& content);

} // namespace blockls::apply
