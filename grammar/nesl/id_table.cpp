#include "grammar/nesl/id_table.h"

#include <array>

namespace blockls {
namespace {

constexpr size_t kDigits = 62; // 0-9, A-Z, a-z
constexpr size_t kShortIds = kDigits * kDigits * kDigits;

// The value of an ASCII letter or digit (0-61), or -1.
constexpr auto kDigitValue = [] {
  std::array<int8_t, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[c] = c >= '0' && c <= '9'   ? static_cast<int8_t>(c - '0')
           : c >= 'A' && c <= 'Z' ? static_cast<int8_t>(10 + c - 'A')
           : c >= 'a' && c <= 'z' ? static_cast<int8_t>(36 + c - 'a')
                                  : int8_t{-1};
  return t;
}();

} // namespace

size_t IdTable::short_index(std::string_view id) {
  if (id.size() != 3) return kNoIndex;
  const int a = kDigitValue[static_cast<unsigned char>(id[0])];
  const int b = kDigitValue[static_cast<unsigned char>(id[1])];
  const int c = kDigitValue[static_cast<unsigned char>(id[2])];
  if ((a | b | c) < 0) return kNoIndex;
  return (static_cast<size_t>(a) * kDigits + static_cast<size_t>(b)) * kDigits +
         static_cast<size_t>(c);
}

bool IdTable::pack(std::string_view id, uint64_t* key) {
  if (id.empty() || id.size() > 8) return false;
  uint64_t k = 0;
  bool has_nul = false; // (tested in the loop: a memchr call costs more than the 8 bytes)
  for (size_t i = 0; i < id.size(); ++i) {
    has_nul |= id[i] == '\0';
    k |= static_cast<uint64_t>(static_cast<unsigned char>(id[i])) << (8 * i);
  }
  *key = k;
  return !has_nul;
}

const uint32_t* IdTable::find(std::string_view id) const {
  // (Without the bitmap every id is in the hash table.)
  const size_t s = short_seen_.empty() ? kNoIndex : short_index(id);
  if (s != kNoIndex) {
    if (((short_seen_[s / 64] >> (s % 64)) & 1u) == 0) return nullptr;
    flush();
  }
  uint64_t key = 0;
  if (!pack(id, &key)) return nullptr;
  return table_find(key);
}

void IdTable::emplace(std::string_view id, uint32_t line) {
  uint64_t key = 0;
  if (!pack(id, &key)) return; // never an id of an opened block
  const size_t s = short_index(id);
  if (s == kNoIndex || !use_bitmap()) {
    table_emplace(key, line);
    return;
  }
  // A seen id's first line is queued or in the table already.
  if (mark_short(s)) queued_.push_back({key, line});
}

// The bitmap (30 KB to clear) pays off only for a table that holds many ids: a small text (a
// fix's window re-checked, a stream's part) keeps every id in the hash table. Past
// kBitmapFromIds ids the bitmap is made, with a bit for each short id the table holds.
bool IdTable::use_bitmap() {
  if (!short_seen_.empty()) return true;
  if (size_ < kBitmapFromIds) return false;
  short_seen_.assign((kShortIds + 63) / 64, 0);
  for (const uint64_t key : keys_) {
    if (key == 0 || key >> 24 != 0) continue;
    const char bytes[3] = {static_cast<char>(key & 0xff), static_cast<char>((key >> 8) & 0xff),
                           static_cast<char>((key >> 16) & 0xff)};
    const size_t s = short_index(std::string_view(bytes, 3));
    if (s != kNoIndex) short_seen_[s / 64] |= uint64_t{1} << (s % 64);
  }
  return true;
}

bool IdTable::mark_short(size_t s) {
  uint64_t& word = short_seen_[s / 64];
  const uint64_t bit = uint64_t{1} << (s % 64);
  if (word & bit) return false;
  word |= bit;
  return true;
}

const uint32_t* IdTable::find_or_emplace(std::string_view id, uint32_t line) {
  uint64_t key = 0;
  if (!pack(id, &key)) return nullptr; // never recorded (see emplace)
  const size_t s = short_index(id);
  if (s == kNoIndex || !use_bitmap()) {
    if (const uint32_t* seen = table_find(key)) return seen;
    table_emplace(key, line);
    return nullptr;
  }
  if (mark_short(s)) {
    queued_.push_back({key, line});
    return nullptr;
  }
  flush(); // a duplicate: its first line is queued or in the table
  return table_find(key);
}

void IdTable::reserve(size_t ids) {
  size_t slots = 64;
  while (slots < ids * 2)
    slots *= 2;
  if (slots > keys_.size()) rehash(slots);
  queued_.reserve(64);
}

void IdTable::flush() const {
  for (const auto& [key, line] : queued_)
    table_emplace(key, line);
  queued_.clear();
}

const uint32_t* IdTable::table_find(uint64_t key) const {
  if (keys_.empty()) return nullptr;
  for (size_t i = slot(key);; i = (i + 1) & (keys_.size() - 1)) {
    if (keys_[i] == key) return &lines_[i];
    if (keys_[i] == 0) return nullptr;
  }
}

void IdTable::table_emplace(uint64_t key, uint32_t line) const {
  if ((size_ + 1) * 2 > keys_.size()) rehash(keys_.empty() ? 64 : keys_.size() * 2);
  for (size_t i = slot(key);; i = (i + 1) & (keys_.size() - 1)) {
    if (keys_[i] == key) return;
    if (keys_[i] == 0) {
      keys_[i] = key;
      lines_[i] = line;
      ++size_;
      return;
    }
  }
}

void IdTable::rehash(size_t slots) const {
  std::vector<uint64_t> keys = std::move(keys_);
  std::vector<uint32_t> lines = std::move(lines_);
  keys_.assign(slots, 0);
  lines_.assign(slots, 0);
  size_ = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == 0) continue;
    size_t j = slot(keys[i]);
    while (keys_[j] != 0)
      j = (j + 1) & (keys_.size() - 1);
    keys_[j] = keys[i];
    lines_[j] = lines[i];
    ++size_;
  }
}

} // namespace blockls
