// File input/output for the CLI. POSIX calls are used for the atomic rewrite (fsync and
// rename in the same directory) so an interrupted `blockls fix --in-place` never leaves a
// half-written file.
#include "cli/input.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::cli {

std::string display_path(const std::string& path) { return path == "-" ? "<stdin>" : path; }

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
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = display_path(path) + ": read error: " + std::strerror(errno);
      if (fd != 0) ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    file.text.append(buffer, static_cast<size_t>(n));
    if (file.text.size() > limits.max_bytes) {
      *error = display_path(path) + ": input is over the limit of " +
               std::to_string(limits.max_bytes) + " bytes (raise it with --max-size)";
      if (fd != 0) ::close(fd);
      return std::nullopt;
    }
  }
  if (fd != 0) ::close(fd);
  if (const void* nul = std::memchr(file.text.data(), '\0', file.text.size())) {
    const size_t at = static_cast<const char*>(nul) - file.text.data();
    *error = display_path(path) + ": looks like a binary file (NUL byte at offset " +
             std::to_string(at) + "); not checked";
    return std::nullopt;
  }
  return file;
}

bool write_file_atomically(const std::string& path, const std::string& text, std::string* error) {
  struct stat st {};
  const bool existed = ::stat(path.c_str(), &st) == 0;
  const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
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
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
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
