// File input/output for the CLI. POSIX calls are used for the atomic rewrite (fsync and
// rename in the same directory) so an interrupted `blockls fix --in-place` never leaves a
// half-written file.
#include "cli/input.h"

#include "apply/beneath.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::cli {

std::string display_path(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

namespace {

FileStamp stamp_of(const struct stat& st) {
  return {st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim};
}

bool same_time(const timespec& a, const timespec& b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

std::string over_limit(const InputLimits& limits) {
  return "input is over the limit of " + std::to_string(limits.max_bytes) +
         " bytes (raise it with --max-size)";
}

std::string binary_at(size_t offset) {
  return "looks like a binary file (NUL byte at offset " + std::to_string(offset) +
         "); not checked";
}

// Reads `fd` to its end into file->buffer, chunk by chunk, each looked at as it arrives: a
// NUL byte or the size limit ends the read at once, so a device or a pipe that never ends
// (/dev/zero, `yes |`) cannot keep it going. Reads straight into the buffer, which grows by
// doubling (`expected`: the size of a regular file, so that it is read without growing).
// Returns the error message, empty on success.
std::string read_stream(int fd, size_t expected, const InputLimits& limits, InputFile* file) {
  constexpr size_t kChunk = size_t{1} << 16;
  size_t capacity = expected + kChunk;
  size_t size = 0;
  file->buffer.reset(static_cast<char*>(std::malloc(capacity)));
  if (!file->buffer) return "out of memory";
  for (;;) {
    if (capacity - size < kChunk) {
      const size_t grown = std::max(capacity * 2, size + kChunk);
      char* bigger = static_cast<char*>(std::realloc(file->buffer.get(), grown));
      if (!bigger) return "out of memory";
      (void)file->buffer.release(); // realloc took it
      file->buffer.reset(bigger);
      capacity = grown;
    }
    char* chunk = file->buffer.get() + size;
    const ssize_t n = ::read(fd, chunk, kChunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::string("read error: ") + std::strerror(errno);
    }
    if (n == 0) break;
    const size_t got = static_cast<size_t>(n);
    if (const void* nul = std::memchr(chunk, '\0', got))
      return binary_at(size + static_cast<size_t>(static_cast<const char*>(nul) - chunk));
    if (got > limits.max_bytes - size) return over_limit(limits);
    size += got;
  }
  file->text = std::string_view(file->buffer.get(), size);
  return {};
}

} // namespace

std::optional<std::string> InputFile::changed_since_read() const {
  if (mapping && mapping->truncated()) return "was truncated while it was being read";
  if (!stamp) return std::nullopt;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || st.st_dev != stamp->device || st.st_ino != stamp->inode)
    return std::nullopt; // gone or replaced: what was read is still whole
  if (st.st_size != stamp->size || !same_time(st.st_mtim, stamp->modified) ||
      !same_time(st.st_ctim, stamp->changed))
    return "was changed while it was being read";
  return std::nullopt;
}

// Regular files of at least limits.map_from_bytes are mapped: no copy, no heap. A file of 0
// bytes is read (no mapping has 0 bytes, and /proc files say 0 but have contents), as are
// pipes, devices and standard input.
std::optional<InputFile> read_input(const std::string& path, const InputLimits& limits,
                                    std::string* error) {
  InputFile file;
  file.path = path;
  int fd = 0;
  size_t expected = 0;
  const auto fail = [&](std::string message) -> std::optional<InputFile> {
    if (fd != 0) ::close(fd);
    *error = display_path(path) + ": " + std::move(message);
    return std::nullopt;
  };
  if (path.empty()) {
    *error = "'' (an empty file name): cannot open: no such file";
    return std::nullopt;
  }
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *error = display_path(path) + ": cannot open: " + std::strerror(errno);
      return std::nullopt;
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
      if (S_ISDIR(st.st_mode)) return fail("is a directory");
      if (S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) > limits.max_bytes)
        return fail("file is " + std::to_string(st.st_size) + " bytes, over the limit of " +
                    std::to_string(limits.max_bytes) + " (raise it with --max-size)");
      if (S_ISREG(st.st_mode)) {
        file.stamp = stamp_of(st);
        expected = static_cast<size_t>(st.st_size);
      }
    }
  }
  if (file.stamp && limits.map_files && expected > 0 && expected >= limits.map_from_bytes) {
    if ((file.mapping = MappedFile::map(fd, expected))) {
      ::close(fd);
      fd = 0;
      file.text = file.mapping->text();
      if (const void* nul = std::memchr(file.text.data(), '\0', file.text.size()))
        return fail(
            binary_at(static_cast<size_t>(static_cast<const char*>(nul) - file.text.data())));
      return file;
    }
  }
  std::string message = read_stream(fd, expected, limits, &file);
  if (!message.empty()) return fail(std::move(message));
  if (fd != 0) ::close(fd);
  return file;
}

// The file a write to `path` must replace: `path` itself, or, when it is a symbolic link, the
// file it resolves to, so that the rename keeps the link and rewrites its target instead of
// putting a regular file in the link's place.
std::string write_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return path; // dangling: cannot happen after read_input() read it
  std::string target(resolved);
  std::free(resolved);
  return target;
}

bool write_file_atomically(const std::string& path, const std::string& text, std::string* error) {
  const std::string target = write_target(path); // messages keep naming `path`
  struct stat st {};
  const bool existed = ::stat(target.c_str(), &st) == 0;
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : target.substr(0, slash);
  std::string tmpl = dir + "/.blockls-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    *error = path + ": cannot create a temporary file in " + dir + ": " + std::strerror(errno);
    return false;
  }
  const auto fail = [&](const char* what) {
    *error = path + ": " + what + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(tmpl.c_str());
    return false;
  };
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    written += static_cast<size_t>(n);
  }
  // The owner and group first (as root, the temporary file is root's), then the mode: a chown
  // clears the set-user-ID and set-group-ID bits.
  if (existed) apply::keep_owner(fd, st.st_uid, st.st_gid);
  if (existed && ::fchmod(fd, st.st_mode & 07777) != 0) return fail("cannot keep permissions");
  if (::fsync(fd) != 0) return fail("fsync failed");
  if (::close(fd) != 0) {
    ::unlink(tmpl.c_str());
    *error = path + ": close failed: " + std::strerror(errno);
    return false;
  }
  if (::rename(tmpl.c_str(), target.c_str()) != 0) {
    *error = path + ": rename failed: " + std::strerror(errno);
    ::unlink(tmpl.c_str());
    return false;
  }
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

} // namespace blockls::cli
