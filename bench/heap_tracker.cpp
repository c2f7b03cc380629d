// Replaces every global operator new/delete of the benchmark binary with malloc/free. While a
// HeapTracking scope is alive, each allocation is also recorded in a set of tracked blocks
// and counted (current, peak); a freed block is uncounted only if it is in that set, so
// blocks allocated before tracking started (or after it stopped) never disturb the figures.
// Sizes come from malloc_usable_size, so the figures include malloc's rounding (they
// slightly overstate what the code asked for). With no tracked block alive, new and delete
// cost one relaxed atomic load more than malloc and free.
#include "bench/heap_tracker.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <new>

namespace blockls::bench {
namespace {

// The tracked blocks: an open-addressing set of pointers (linear probing, backward-shift
// deletion), in static storage so that recording a block never allocates. 2^22 slots
// (32 MB of address space, touched only as used), filled to at most half.
constexpr size_t kSlotBits = 22;
constexpr size_t kSlots = size_t{1} << kSlotBits;
constexpr size_t kMaxTracked = kSlots / 2;
void* g_slots[kSlots];

std::atomic<bool> g_tracking{false};
std::atomic<size_t> g_tracked_live{0}; // blocks in g_slots
std::atomic_flag g_lock = ATOMIC_FLAG_INIT;
size_t g_current = 0; // guarded by g_lock
size_t g_peak = 0;
bool g_overflow = false;

class Lock {
public:
  Lock() {
    while (g_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~Lock() { g_lock.clear(std::memory_order_release); }
};

size_t home(const void* p) {
  const uint64_t key = reinterpret_cast<uintptr_t>(p) >> 4; // malloc aligns to 16
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits));
}

size_t next(size_t i) {
  return (i + 1) & (kSlots - 1);
}

void track(void* p) {
  Lock lock;
  const size_t live = g_tracked_live.load(std::memory_order_relaxed);
  if (live >= kMaxTracked) {
    g_overflow = true;
    return;
  }
  size_t i = home(p);
  while (g_slots[i] != nullptr)
    i = next(i);
  g_slots[i] = p;
  g_tracked_live.store(live + 1, std::memory_order_relaxed);
  g_current += malloc_usable_size(p);
  if (g_current > g_peak) g_peak = g_current;
}

// Removes `p` from the set if it is there (and uncounts it).
void untrack(void* p) {
  Lock lock;
  size_t i = home(p);
  while (g_slots[i] != p) {
    if (g_slots[i] == nullptr) return; // not a tracked block
    i = next(i);
  }
  g_current -= malloc_usable_size(p);
  g_tracked_live.fetch_sub(1, std::memory_order_relaxed);
  // Backward-shift deletion: move later entries of the probe run into the hole when their
  // home position allows it, so lookups never need tombstones.
  size_t hole = i;
  for (size_t j = next(i); g_slots[j] != nullptr; j = next(j)) {
    const size_t h = home(g_slots[j]);
    const bool movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
    if (movable) {
      g_slots[hole] = g_slots[j];
      hole = j;
    }
  }
  g_slots[hole] = nullptr;
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
  if (g_tracking.load(std::memory_order_relaxed)) track(p);
  return p;
}

void release(void* p) {
  if (!p) return;
  if (g_tracked_live.load(std::memory_order_relaxed) != 0) untrack(p);
  std::free(p);
}

} // namespace

size_t heap_current() {
  Lock lock;
  return g_current;
}
size_t heap_peak() {
  Lock lock;
  return g_peak;
}
void reset_heap_peak() {
  Lock lock;
  g_peak = g_current;
}
bool heap_tracking_overflowed() {
  Lock lock;
  return g_overflow;
}

HeapTracking::HeapTracking() {
  g_tracking.store(true, std::memory_order_relaxed);
}
HeapTracking::~HeapTracking() {
  g_tracking.store(false, std::memory_order_relaxed);
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
