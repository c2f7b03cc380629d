// NESL block ids seen so far -> the start line of the first block with each id (for the
// duplicate-id warning). Ids are short (a valid one is 2-8 ASCII letters or digits).
//
// Every header probes this table, at a place that no other work predicts: a hash table of all
// ids would miss the cache on nearly every header of a large transcript. The common id, three
// letters or digits, therefore has one bit in a 30 KB bitmap that is exact (62^3 ids): a new
// id sets its bit and is queued; the queue goes into the hash table only when a lookup needs
// a first line (a duplicate), a batch of independent inserts at a time. A table with few ids
// (a small text: a fix's window, re-checked to verify the fix) has no bitmap: clearing its
// 30 KB cost more than the whole check of such a window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace blockls {

class IdTable {
public:
  // The first start line recorded for `id`, or nullptr (valid until the next emplace()).
  const uint32_t* find(std::string_view id) const;
  size_t count(std::string_view id) const { return find(id) ? 1 : 0; }
  // Room for `ids` ids without growing.
  void reserve(size_t ids);
  // Records `id` unless it is there already (the first line is kept). Ids that are empty,
  // longer than 8 bytes or hold a NUL byte are never recorded (no opened block has one).
  void emplace(std::string_view id, uint32_t line);
  // find(), then emplace() when `id` was not there, in one probe (every opened block does
  // both): the first start line recorded before this call, or nullptr (valid until the next
  // emplace()).
  const uint32_t* find_or_emplace(std::string_view id, uint32_t line);

private:
  static constexpr size_t kNoIndex = SIZE_MAX;
  // A three-character id of ASCII letters and digits as a number below 62^3, else kNoIndex.
  static size_t short_index(std::string_view id);
  static bool pack(std::string_view id, uint64_t* key);
  // Sets short id `s`'s bit: false when it was set already (the id was seen). Only once
  // use_bitmap() has said true.
  bool mark_short(size_t s);
  // True when short ids go through the bitmap; makes it when the table has grown to need it.
  bool use_bitmap();
  static constexpr size_t kBitmapFromIds = 512;

  // The hash table (open addressing over packed keys; 0 = empty slot, no id packs to 0).
  const uint32_t* table_find(uint64_t key) const;
  void table_emplace(uint64_t key, uint32_t line) const;
  size_t slot(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (keys_.size() - 1);
  }
  void rehash(size_t slots) const;
  // Moves the queued short ids into the hash table.
  void flush() const;

  std::vector<uint64_t> short_seen_; // one bit per short id (empty until the first one)
  // The hash table and the queue change under const lookups (flush), not their meaning.
  mutable std::vector<std::pair<uint64_t, uint32_t>> queued_; // short ids not in the table yet
  mutable std::vector<uint64_t> keys_;
  mutable std::vector<uint32_t> lines_;
  mutable size_t size_ = 0;
};

} // namespace blockls
