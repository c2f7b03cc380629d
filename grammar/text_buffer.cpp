// See text_buffer.h.
#include "grammar/text_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace blockls {

namespace {

// From this capacity on (Linux) the buffer is a mapping of its own, its pages moved by mremap
// as it grows: whatever the allocator has done before (glibc serves even large requests from
// its heap once large blocks have been freed, and a heap block that cannot grow in place is
// copied), growing moves no byte and touches no page again.
constexpr size_t kMapFrom = size_t{256} << 10;

#if defined(__linux__)
// How far ahead of the text a mapping's pages are made ready: one system call per 64 pages
// (tens of microseconds, well inside a block_end's latency budget).
constexpr size_t kPrefaultWindow = size_t{256} << 10;

size_t page_size() {
  static const size_t size = static_cast<size_t>(::sysconf(_SC_PAGESIZE)); // 4, 16 or 64 KiB
  return size;
}

// A mapping is sized and aligned in units of a (x86-64, 4 KiB-page arm64) huge page, and the
// kernel is asked to back it with huge pages where it can (transparent huge pages, "madvise"
// or "always"): a 2 MB transcript then takes one page allocation, not 512 of 4 KiB, each a
// trip through the page allocator (with the faults they replace, 10% of a 64-byte stream
// session's time on a VM). Where huge pages are off, this is an aligned mapping like another.
constexpr size_t kHugePage = size_t{2} << 20;

// A fresh mapping of `size` bytes (a multiple of kHugePage) at an address aligned to
// kHugePage: a larger one with its unaligned ends given back. Null when there is no room.
char* map_aligned(size_t size) {
  void* raw =
      ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(raw), end = begin + size + kHugePage;
  const uintptr_t aligned = (begin + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > begin) ::munmap(raw, aligned - begin);
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
#if defined(MADV_HUGEPAGE)
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<char*>(aligned);
}
#endif

} // namespace

TextBuffer::~TextBuffer() {
  release();
}

TextBuffer::TextBuffer(TextBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)), mapped_(std::exchange(other.mapped_, false)),
      prefaulted_(std::exchange(other.prefaulted_, 0)) {}

TextBuffer& TextBuffer::operator=(TextBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    prefaulted_ = std::exchange(other.prefaulted_, 0);
  }
  return *this;
}

void TextBuffer::release() {
#if defined(__linux__)
  if (mapped_) {
    ::munmap(data_, capacity_);
    return;
  }
#endif
  std::free(data_);
}

void TextBuffer::append(std::string_view bytes) {
  if (bytes.empty()) return;
  if (bytes.size() > capacity_ - size_) grow(size_ + bytes.size());
  if (size_ + bytes.size() > prefaulted_ && mapped_) prefault_for(size_ + bytes.size());
  std::memcpy(data_ + size_, bytes.data(), bytes.size());
  size_ += bytes.size();
}

// A page of fresh anonymous memory costs a fault when first written: at 64-byte chunks a
// 2 MB transcript took 512 of them, one trap each (6% of the stream's time in perf).
// MADV_POPULATE_WRITE (Linux 5.14) readies the pages from the last prefaulted one up to
// `needed` and a window beyond, within the mapping, in one call; where it is not known or
// fails, the pages are faulted in as they are written, as before.
void TextBuffer::prefault_for(size_t needed) {
#if defined(__linux__)
  const size_t from = prefaulted_ / page_size() * page_size();
  const size_t to = std::min(capacity_, std::max(needed, prefaulted_ + kPrefaultWindow));
#if defined(MADV_POPULATE_WRITE)
  ::madvise(data_ + from, to - from, MADV_POPULATE_WRITE);
#else
  (void)from;
#endif
  prefaulted_ = to;
#else
  (void)needed;
#endif
}

// Doubling keeps appends amortised O(1) while the buffer is small enough to be copied.
void TextBuffer::grow(size_t needed) {
  size_t capacity = std::max({needed, capacity_ * 2, size_t{4096}});
#if defined(__linux__)
  if (capacity >= kMapFrom) {
    capacity = (capacity + kHugePage - 1) / kHugePage * kHugePage;
    char* grown = map_aligned(capacity);
    if (!grown) throw std::bad_alloc();
    if (mapped_) {
      // The old pages move to the start of the new range (replacing its first part): no byte
      // is copied and, both ends aligned, a huge page moves whole.
      if (::mremap(data_, capacity_, capacity_, MREMAP_MAYMOVE | MREMAP_FIXED, grown) ==
          MAP_FAILED) {
        ::munmap(grown, capacity);
        throw std::bad_alloc();
      }
    } else {
      if (size_ > 0) std::memcpy(grown, data_, size_);
      std::free(data_);
      prefaulted_ = size_; // the copy wrote those pages
    }
    data_ = grown;
    capacity_ = capacity;
    mapped_ = true;
    return;
  }
#endif
  void* grown = std::realloc(data_, capacity);
  if (!grown) throw std::bad_alloc();
  data_ = static_cast<char*>(grown);
  capacity_ = capacity;
}

} // namespace blockls
