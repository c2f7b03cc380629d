#include "grammar/arena.h"

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

namespace blockls {

struct Arena::Block {
  Block* next;
};

namespace {

// Header room before the usable bytes of a chunk or large block: keeps them aligned for
// any fundamental type.
constexpr size_t kHeader = alignof(std::max_align_t);
static_assert(sizeof(void*) <= kHeader);

// The process's spare chunks, shared by every thread behind a mutex (one lock per 64 KiB
// chunk). Shared because the thread that frees a document is often not the one that parses
// the next: the language server builds each analysis on its worker and frees the previous one
// on a disposer thread. With a cache per thread, the disposer's filled up with chunks the
// worker never saw again (16 MiB: the first ten keystrokes of a 1 MB transcript), while the
// worker wrote every new analysis into fresh pages.
struct ChunkCache {
  std::mutex mutex;
  std::vector<void*> chunks;
  ChunkCache() { chunks.reserve(Arena::kMaxCachedChunks); }
  void release() {
    const std::lock_guard lock(mutex);
    for (void* c : chunks)
      ::operator delete(c);
    chunks.clear();
  }
};

// Never destroyed: an arena may die during the program's exit (in a static object, or on a
// thread still running), after any function-local static would be gone. What it holds then
// is reachable from here, so it is no leak either.
ChunkCache& cache() {
  static ChunkCache* const c = new ChunkCache();
  return *c;
}

void* take_chunk() {
  {
    ChunkCache& c = cache();
    const std::lock_guard lock(c.mutex);
    if (!c.chunks.empty()) {
      void* chunk = c.chunks.back();
      c.chunks.pop_back();
      return chunk;
    }
  }
  return ::operator new(Arena::kChunkBytes);
}

void give_back_chunk(void* chunk) {
  {
    ChunkCache& c = cache();
    const std::lock_guard lock(c.mutex);
    if (c.chunks.size() < Arena::kMaxCachedChunks) {
      c.chunks.push_back(chunk);
      return;
    }
  }
  ::operator delete(chunk);
}

char* align_up(char* p, size_t alignment) {
  const uintptr_t v = reinterpret_cast<uintptr_t>(p);
  return reinterpret_cast<char*>((v + alignment - 1) & ~(uintptr_t{alignment} - 1));
}

} // namespace

Arena::~Arena() {
  while (chunks_) {
    Block* next = chunks_->next;
    give_back_chunk(chunks_);
    chunks_ = next;
  }
  while (large_) {
    Block* next = large_->next;
    ::operator delete(large_);
    large_ = next;
  }
}

size_t Arena::cached_chunks() {
  ChunkCache& c = cache();
  const std::lock_guard lock(c.mutex);
  return c.chunks.size();
}

void Arena::release_cached_chunks() {
  cache().release();
}

void* Arena::do_allocate(size_t bytes, size_t alignment) {
  allocated_ += bytes;
  // A quarter chunk at most goes into a chunk: larger requests would waste its rest.
  if (bytes > kChunkBytes / 4 || alignment > kHeader) return allocate_large(bytes, alignment);
  if (cur_) {
    // Chunks end on a kHeader boundary, so the aligned position is at most end_.
    char* p = align_up(cur_, alignment);
    if (static_cast<size_t>(end_ - p) >= bytes) {
      cur_ = p + bytes;
      return p;
    }
  }
  void* raw = take_chunk();
  Block* chunk = static_cast<Block*>(raw);
  chunk->next = chunks_;
  chunks_ = chunk;
  char* base = static_cast<char*>(raw);
  char* p = base + kHeader; // aligned for any alignment up to kHeader
  cur_ = p + bytes;
  end_ = base + kChunkBytes;
  return p;
}

void* Arena::allocate_large(size_t bytes, size_t alignment) {
  const size_t room = kHeader + bytes + (alignment > kHeader ? alignment : 0);
  void* raw = ::operator new(room);
  Block* block = static_cast<Block*>(raw);
  block->next = large_;
  large_ = block;
  return align_up(static_cast<char*>(raw) + kHeader, alignment);
}

} // namespace blockls
