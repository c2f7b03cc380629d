// The memory of one parse's commands and parameters (see ParsedDocument::arena): a bump
// allocator over 64 KiB chunks, freed all at once with the document. Chunks are kept in a
// small cache, shared by the process's threads, for the next parse, which so writes into
// memory that is already mapped (whichever thread freed the last document): handing a
// document's megabytes back to the system after each parse (as malloc does with large freed
// blocks) would make every parse page-fault them in again.
#pragma once

#include <cstddef>
#include <memory_resource>

namespace blockls {

class Arena final : public std::pmr::memory_resource {
public:
  static constexpr size_t kChunkBytes = size_t{64} * 1024;
  // Chunks the process keeps for later parses, at most (16 MiB).
  static constexpr size_t kMaxCachedChunks = 256;

  Arena() = default;
  ~Arena() override;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Bytes handed out so far (for tests).
  size_t allocated_bytes() const { return allocated_; }
  // Chunks the process holds for later parses.
  static size_t cached_chunks();
  // Frees them (a heap measurement that must count a parse's chunks starts with this).
  static void release_cached_chunks();

private:
  struct Block; // a chunk or a large allocation: an intrusive list header

  void* do_allocate(size_t bytes, size_t alignment) override;
  // Memory is given back only when the arena is destroyed.
  void do_deallocate(void*, size_t, size_t) override {}
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
  // A request too large for a chunk: a block of its own.
  void* allocate_large(size_t bytes, size_t alignment);

  Block* chunks_ = nullptr; // newest first
  Block* large_ = nullptr;
  char* cur_ = nullptr; // free space of the newest chunk
  char* end_ = nullptr;
  size_t allocated_ = 0;
};

} // namespace blockls
