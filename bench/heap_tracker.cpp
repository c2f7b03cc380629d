// Replaces every global operator new/delete of the benchmark binary with malloc/free plus
// two relaxed atomic counters (current, peak). Sizes come from malloc_usable_size, so the
// figures include malloc's rounding (they slightly overstate what the code asked for).
#include "bench/heap_tracker.h"

#include <atomic>
#include <cstdlib>
#include <malloc.h>
#include <new>

namespace blockls::bench {
namespace {

std::atomic<size_t> g_current{0};
std::atomic<size_t> g_peak{0};

void note_alloc(void* p) {
  const size_t size = malloc_usable_size(p);
  const size_t now = g_current.fetch_add(size, std::memory_order_relaxed) + size;
  size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void* allocate(size_t size, size_t alignment, bool nothrow) {
  if (size == 0) size = 1;
  void* p = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    p = std::malloc(size);
  } else if (posix_memalign(&p, alignment, size) != 0) {
    p = nullptr;
  }
  if (!p) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  note_alloc(p);
  return p;
}

void release(void* p) {
  if (!p) return;
  g_current.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

} // namespace

size_t heap_current() {
  return g_current.load(std::memory_order_relaxed);
}
size_t heap_peak() {
  return g_peak.load(std::memory_order_relaxed);
}
void reset_heap_peak() {
  g_peak.store(heap_current(), std::memory_order_relaxed);
}

} // namespace blockls::bench

using blockls::bench::allocate;
using blockls::bench::release;
constexpr size_t kDefaultAlign = alignof(std::max_align_t);

void* operator new(size_t size) {
  return allocate(size, kDefaultAlign, false);
}
void* operator new[](size_t size) {
  return allocate(size, kDefaultAlign, false);
}
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return allocate(size, kDefaultAlign, true);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return allocate(size, kDefaultAlign, true);
}
void* operator new(size_t size, std::align_val_t al) {
  return allocate(size, static_cast<size_t>(al), false);
}
void* operator new[](size_t size, std::align_val_t al) {
  return allocate(size, static_cast<size_t>(al), false);
}
void* operator new(size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return allocate(size, static_cast<size_t>(al), true);
}
void* operator new[](size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return allocate(size, static_cast<size_t>(al), true);
}

void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, size_t) noexcept {
  release(p);
}
void operator delete[](void* p, size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release(p);
}
