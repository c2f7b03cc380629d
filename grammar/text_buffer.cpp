// See text_buffer.h.
#include "grammar/text_buffer.h"

#include <algorithm>
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

// From this capacity on (Linux) the buffer is a mapping of its own, grown by mremap: whatever
// the allocator has done before (glibc serves even large requests from its heap once large
// blocks have been freed, and a heap block that cannot grow in place is copied), growing moves
// no byte and touches no page again.
constexpr size_t kMapFrom = size_t{256} << 10;

#if defined(__linux__)
// How far ahead of the text a mapping's pages are made ready: one system call per 64 pages
// (tens of microseconds, well inside a block_end's latency budget).
constexpr size_t kPrefaultWindow = size_t{256} << 10;

size_t page_size() {
  static const size_t size = static_cast<size_t>(::sysconf(_SC_PAGESIZE)); // 4, 16 or 64 KiB
  return size;
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
    capacity = (capacity + page_size() - 1) / page_size() * page_size();
    void* grown;
    if (mapped_) {
      grown = ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
    } else {
      grown = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (grown != MAP_FAILED) {
        if (size_ > 0) std::memcpy(grown, data_, size_);
        std::free(data_);
        prefaulted_ = size_; // the copy wrote those pages
      }
    }
    if (grown == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<char*>(grown);
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
