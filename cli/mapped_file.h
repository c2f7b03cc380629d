// A regular file mapped read-only (MAP_PRIVATE) for the CLI's inputs, so a large transcript is
// checked in place instead of copied into the heap, made safe against the file shrinking
// while it is mapped.
//
// A page of a file mapping that lies past the end of the file raises SIGBUS when touched: a
// file truncated by another program while blockls reads it would kill the process. Every
// mapping made here is registered with a SIGBUS handler that, for a fault inside one of them,
// maps zero-filled pages over the rest of the mapping and lets the access go on; the mapping
// then reports truncated(), and the caller refuses the result (cli/input.h). Faults anywhere
// else keep the default action (the process dies as it would without the handler).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace blockls::cli {

class MappedFile {
public:
  // Maps the first `size` bytes (size > 0) of the regular file open as `fd`. nullopt when it
  // cannot: the mapping failed, or too many mappings are alive at once (the handler's table
  // is fixed, to stay async-signal-safe); the caller then reads the file instead.
  static std::optional<MappedFile> map(int fd, size_t size);

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // The bytes; their address never changes while this object (or the one it is moved to)
  // lives.
  std::string_view text() const { return {data_, size_}; }
  // True once a page past the end of the file was touched: the file was truncated while
  // mapped, and those bytes read as zeros.
  bool truncated() const;

private:
  MappedFile(const char* data, size_t size, size_t length, int slot)
      : data_(data), size_(size), length_(length), slot_(slot) {}
  void release();

  const char* data_ = nullptr;
  size_t size_ = 0;
  size_t length_ = 0; // of the mapping (size_ rounded up to pages)
  int slot_ = -1;     // in the SIGBUS handler's table
};

} // namespace blockls::cli
