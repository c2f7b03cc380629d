// FileContent: chunks of whole lines behind shared pointers. Invariant: every chunk but the
// last ends with '\n', and no chunk is empty; so a line never spans two chunks.
#include "apply/file_content.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>

namespace blockls::apply {

namespace {
constexpr size_t kChunkBytes = 8192;
constexpr size_t kBloomWords = 32; // 2048 bits: about 150 lines of 55 bytes, 3 bits each

uint64_t line_hash(std::string_view line) {
  return std::hash<std::string_view>{}(line);
}

// The three bits of a line hash in a chunk's filter.
std::array<uint32_t, 3> bloom_bits(uint64_t h) {
  constexpr uint64_t mask = kBloomWords * 64 - 1;
  return {static_cast<uint32_t>(h & mask), static_cast<uint32_t>((h >> 21) & mask),
          static_cast<uint32_t>((h >> 42) & mask)};
}
} // namespace

struct FileContent::Chunk {
  std::string text;
  size_t lf = 0, crlf = 0;
  std::array<uint64_t, kBloomWords> bloom{};

  explicit Chunk(std::string_view t) : Chunk(std::string(t)) {}
  // One chunk of whole lines: counts the line breaks and fills the filter.
  explicit Chunk(std::string&& t) : text(std::move(t)) {
    const char* data = text.data();
    const size_t n = text.size();
    for (size_t pos = 0; pos < n;) {
      const void* hit = std::memchr(data + pos, '\n', n - pos);
      const size_t nl = hit ? static_cast<size_t>(static_cast<const char*>(hit) - data) : n;
      for (uint32_t bit : bloom_bits(line_hash(std::string_view(data + pos, nl - pos))))
        bloom[bit / 64] |= uint64_t{1} << (bit % 64);
      if (nl == n) break;
      ++lf;
      if (nl > 0 && data[nl - 1] == '\r') ++crlf;
      pos = nl + 1;
    }
  }

  bool may_hold(uint64_t h) const {
    for (uint32_t bit : bloom_bits(h))
      if (!(bloom[bit / 64] >> (bit % 64) & 1)) return false;
    return true;
  }
};

struct FileContent::Rep {
  std::vector<std::shared_ptr<const Chunk>> chunks;
  std::vector<size_t> starts; // byte offset of each chunk
  size_t size = 0, lf = 0, crlf = 0;
  mutable std::once_flag flat_once;
  mutable std::string flat;
};

// `text` cut into chunks of about kChunkBytes, each ending after a '\n' (but the last).
std::vector<std::shared_ptr<const FileContent::Chunk>>
FileContent::make_chunks(std::string_view text) {
  std::vector<std::shared_ptr<const Chunk>> out;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.size();
    if (text.size() - pos > kChunkBytes) {
      const size_t nl = text.find('\n', pos + kChunkBytes - 1);
      if (nl != std::string_view::npos) end = nl + 1;
    }
    out.push_back(std::make_shared<const Chunk>(text.substr(pos, end - pos)));
    pos = end;
  }
  return out;
}

FileContent::FileContent(std::string_view text) {
  if (!text.empty()) rep_ = make_rep(make_chunks(text));
}

std::shared_ptr<const FileContent::Rep>
FileContent::make_rep(std::vector<std::shared_ptr<const Chunk>> chunks) {
  auto rep = std::make_shared<Rep>();
  rep->starts.reserve(chunks.size());
  for (const auto& c : chunks) {
    rep->starts.push_back(rep->size);
    rep->size += c->text.size();
    rep->lf += c->lf;
    rep->crlf += c->crlf;
  }
  rep->chunks = std::move(chunks);
  return rep;
}

size_t FileContent::size() const {
  return rep_ ? rep_->size : 0;
}
size_t FileContent::line_breaks() const {
  return rep_ ? rep_->lf : 0;
}
size_t FileContent::crlf_breaks() const {
  return rep_ ? rep_->crlf : 0;
}
size_t FileContent::chunk_count() const {
  return rep_ ? rep_->chunks.size() : 0;
}

const std::string& FileContent::str() const {
  static const std::string empty;
  if (!rep_) return empty;
  std::call_once(rep_->flat_once, [rep = rep_.get()] {
    rep->flat.reserve(rep->size);
    for (const auto& c : rep->chunks)
      rep->flat += c->text;
  });
  return rep_->flat;
}

// The chunk that holds byte `offset` (the last chunk for offset == size()).
size_t FileContent::chunk_at(size_t offset) const {
  const auto& s = rep_->starts;
  return static_cast<size_t>(std::upper_bound(s.begin(), s.end(), offset) - s.begin()) - 1;
}

bool FileContent::equals_at(size_t offset, std::string_view needle) const {
  if (offset + needle.size() > size()) return false;
  for (size_t i = chunk_at(offset); !needle.empty(); ++i) {
    const std::string& t = rep_->chunks[i]->text;
    const size_t at = offset - rep_->starts[i];
    const size_t n = std::min(needle.size(), t.size() - at);
    if (std::memcmp(t.data() + at, needle.data(), n) != 0) return false;
    needle.remove_prefix(n);
    offset += n;
  }
  return true;
}

// A needle with two '\n's holds a whole line of the file (between them): only the lines equal
// to it, in the chunks whose filter may hold it, are candidates. Other needles search the
// whole text.
std::vector<size_t> FileContent::find_all(std::string_view needle, size_t from) const {
  std::vector<size_t> out;
  if (needle.empty() || needle.size() > size()) return out;
  const size_t j1 = needle.find('\n');
  const size_t j2 = j1 == std::string_view::npos ? j1 : needle.find('\n', j1 + 1);
  if (j2 == std::string_view::npos) {
    const std::string_view text = str();
    for (size_t pos = text.find(needle, from); pos != std::string_view::npos;
         pos = text.find(needle, pos + needle.size()))
      out.push_back(pos);
    return out;
  }
  const std::string_view anchor = needle.substr(j1 + 1, j2 - j1 - 1);
  const uint64_t h = line_hash(anchor);
  for (size_t i = 0; i < rep_->chunks.size(); ++i) {
    const Chunk& c = *rep_->chunks[i];
    if (!c.may_hold(h)) continue;
    const char* data = c.text.data();
    const size_t n = c.text.size();
    for (size_t pos = 0; pos < n;) {
      const void* hit = std::memchr(data + pos, '\n', n - pos);
      if (!hit) break; // the anchor is followed by '\n'
      const size_t nl = static_cast<size_t>(static_cast<const char*>(hit) - data);
      const size_t line_start = rep_->starts[i] + pos;
      if (nl - pos == anchor.size() && line_start >= j1 + 1 &&
          std::memcmp(data + pos, anchor.data(), anchor.size()) == 0) {
        const size_t at = line_start - (j1 + 1);
        if (at >= from && (out.empty() || at >= out.back() + needle.size()) &&
            equals_at(at, needle))
          out.push_back(at);
      }
      pos = nl + 1;
    }
  }
  return out;
}

FileContent FileContent::splice(size_t begin, size_t end, std::string_view replacement) const {
  if (!rep_) return FileContent(replacement);
  const auto& chunks = rep_->chunks;
  const size_t first = chunk_at(begin);
  size_t last = end == begin ? first : chunk_at(end - 1);
  std::string text(chunks[first]->text, 0, begin - rep_->starts[first]);
  text += replacement;
  text.append(chunks[last]->text, end - rep_->starts[last]);
  // Keep every chunk but the last ending with '\n': take the next chunk in when needed.
  if (!text.empty() && text.back() != '\n' && last + 1 < chunks.size())
    text += chunks[++last]->text;
  std::vector<std::shared_ptr<const Chunk>> out;
  // The usual edit leaves one chunk: its text is moved in, not copied.
  const auto fresh = !text.empty() && text.size() <= kChunkBytes
                         ? std::vector<std::shared_ptr<const Chunk>>{std::make_shared<const Chunk>(
                               std::move(text))}
                         : make_chunks(text);
  out.reserve(chunks.size() - (last - first + 1) + fresh.size());
  out.insert(out.end(), chunks.begin(), chunks.begin() + static_cast<long>(first));
  out.insert(out.end(), fresh.begin(), fresh.end());
  out.insert(out.end(), chunks.begin() + static_cast<long>(last + 1), chunks.end());
  if (out.empty()) return FileContent();
  return FileContent(make_rep(std::move(out)));
}

std::string_view text_or_empty(const std::optional<FileContent>& content) {
  return content ? std::string_view(content->str()) : std::string_view();
}

bool FileContent::operator==(const FileContent& other) const {
  if (rep_ == other.rep_) return true;
  if (size() != other.size()) return false;
  if (size() == 0) return true;
  // Walk both chunk lists; chunks shared by both versions compare by pointer.
  size_t i = 0, j = 0, at_i = 0, at_j = 0;
  const auto& a = rep_->chunks;
  const auto& b = other.rep_->chunks;
  while (i < a.size() && j < b.size()) {
    if (at_i == 0 && at_j == 0 && a[i] == b[j]) {
      ++i;
      ++j;
      continue;
    }
    const size_t n = std::min(a[i]->text.size() - at_i, b[j]->text.size() - at_j);
    if (std::memcmp(a[i]->text.data() + at_i, b[j]->text.data() + at_j, n) != 0) return false;
    at_i += n;
    at_j += n;
    if (at_i == a[i]->text.size()) {
      ++i;
      at_i = 0;
    }
    if (at_j == b[j]->text.size()) {
      ++j;
      at_j = 0;
    }
  }
  return true;
}

} // namespace blockls::apply
