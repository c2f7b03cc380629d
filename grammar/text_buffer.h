// The growing text of a streaming parse (DocumentParser): bytes appended chunk after chunk and
// read as one std::string_view. It does not grow by std::string's allocate-copy-free: small, it
// is reallocated; large (on Linux), it is a mapping of its own grown by mremap, so a transcript
// fed in small chunks is neither copied again at each doubling nor faulted into fresh pages
// again. (A std::string grown to 2 MB this way cost `blockls stream` more than parsing.) The
// mapping is aligned to 2 MiB and asks for transparent huge pages, and its pages are made
// ready a window ahead of the text (one system call per 256 KiB) rather than faulted in one
// at a time as 64-byte chunks reach them.
#pragma once

#include <cstddef>
#include <string_view>

namespace blockls {

class TextBuffer {
public:
  TextBuffer() = default;
  ~TextBuffer();
  TextBuffer(TextBuffer&& other) noexcept;
  TextBuffer& operator=(TextBuffer&& other) noexcept;
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  // Appends `bytes` (which must not point into this buffer). Throws std::bad_alloc as a
  // std::string would.
  void append(std::string_view bytes);

  std::string_view view() const { return {data_ ? data_ : "", size_}; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // The bytes from the start made ready for writing ahead of the appends that reach them (a
  // mapping's pages, see prefault_for); 0 while the buffer is on the heap.
  size_t prefaulted() const { return prefaulted_; }

private:
  void grow(size_t needed);
  void release();
  void prefault_for(size_t needed);

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool mapped_ = false;   // data_ is a mapping (else from malloc)
  size_t prefaulted_ = 0; // see prefaulted()
};

} // namespace blockls
