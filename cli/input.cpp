// File input/output for the CLI. POSIX calls are used for the atomic rewrite (fsync and
// rename in the same directory) so an interrupted `blockls fix --in-place` never leaves a
// half-written file.
#include "cli/input.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::cli {

std::string display_path(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

std::optional<InputFile> read_input(const std::string& path, const InputLimits& limits,
                                    std::string* error) {
  InputFile file{path, {}};
  int fd = 0;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *error = display_path(path) + ": cannot open: " + std::strerror(errno);
      return std::nullopt;
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        *error = display_path(path) + ": is a directory";
        return std::nullopt;
      }
      if (S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) > limits.max_bytes) {
        ::close(fd);
        *error = display_path(path) + ": file is " + std::to_string(st.st_size) +
                 " bytes, over the limit of " + std::to_string(limits.max_bytes) +
                 " (raise it with --max-size)";
        return std::nullopt;
      }
      if (S_ISREG(st.st_mode)) file.text.reserve(static_cast<size_t>(st.st_size));
    }
  }
  // Chunk by chunk, each looked at as it arrives: a NUL byte or the size limit ends the read
  // at once, so a device or a pipe that never ends (/dev/zero, `yes |`) cannot keep it going.
  const auto fail = [&](std::string message) -> std::optional<InputFile> {
    if (fd != 0) ::close(fd);
    *error = display_path(path) + ": " + std::move(message);
    return std::nullopt;
  };
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::string("read error: ") + std::strerror(errno));
    }
    if (n == 0) break;
    const size_t got = static_cast<size_t>(n);
    if (const void* nul = std::memchr(buffer, '\0', got)) {
      const size_t at = file.text.size() + (static_cast<const char*>(nul) - buffer);
      return fail("looks like a binary file (NUL byte at offset " + std::to_string(at) +
                  "); not checked");
    }
    if (got > limits.max_bytes - file.text.size())
      return fail("input is over the limit of " + std::to_string(limits.max_bytes) +
                  " bytes (raise it with --max-size)");
    file.text.append(buffer, got);
  }
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
