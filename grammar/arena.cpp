#include "grammar/arena.h"

#include <cstdint>
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

// Set when the thread's cache has been destroyed (at thread or program exit): an arena that
// dies later (say, in a static object) frees its chunks directly.
thread_local bool t_cache_gone = false;

// The calling thread's spare chunks. A chunk may be cached by another thread than the one
// that took it from the heap: it is only memory.
struct ChunkCache {
  std::vector<void*> chunks;
  ChunkCache() { chunks.reserve(Arena::kMaxCachedChunks); }
  ~ChunkCache() {
    t_cache_gone = true;
    release();
  }
  void release() {
    for (void* c : chunks)
      ::operator delete(c);
    chunks.clear();
  }
};

ChunkCache& cache() {
  thread_local ChunkCache c;
  return c;
}

void* take_chunk() {
  if (t_cache_gone) return ::operator new(Arena::kChunkBytes);
  ChunkCache& c = cache();
  if (!c.chunks.empty()) {
    void* chunk = c.chunks.back();
    c.chunks.pop_back();
    return chunk;
  }
  return ::operator new(Arena::kChunkBytes);
}

void give_back_chunk(void* chunk) {
  if (t_cache_gone) {
    ::operator delete(chunk);
    return;
  }
  ChunkCache& c = cache();
  if (c.chunks.size() < Arena::kMaxCachedChunks)
    c.chunks.push_back(chunk);
  else
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
  return t_cache_gone ? 0 : cache().chunks.size();
}

void Arena::release_cached_chunks() {
  if (!t_cache_gone) cache().release();
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
