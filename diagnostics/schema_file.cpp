// See schema_file.h. The file is opened without blocking and examined through its descriptor
// (no race between a check of the path and the read), then read up to one byte past the limit.
#include "diagnostics/schema_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls {
namespace {

// The bytes of the regular file `path`, at most kMaxSchemaBytes of them.
bool read_schema_text(const std::string& path, std::string* text, std::string* error) {
  // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for one.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = path + ": cannot open schema file: " + std::strerror(errno);
    return false;
  }
  const auto fail = [&](std::string message) {
    ::close(fd);
    *error = path + ": " + std::move(message);
    return false;
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(std::string("cannot examine: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("the schema is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return fail("the schema is not a regular file");
  const auto too_large = [&] {
    return fail("the schema file is over the limit of " + std::to_string(kMaxSchemaBytes) +
                " bytes");
  };
  if (static_cast<unsigned long long>(st.st_size) > kMaxSchemaBytes) return too_large();
  text->clear();
  text->reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) { // the file may grow while it is read: the limit is checked on what was read
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::string("read error: ") + std::strerror(errno));
    }
    if (n == 0) break;
    text->append(buffer, static_cast<size_t>(n));
    if (text->size() > kMaxSchemaBytes) return too_large();
  }
  ::close(fd);
  return true;
}

} // namespace

std::unique_ptr<ActionCatalog> load_action_catalog(const std::string& path, std::string* error) {
  auto catalog = std::make_unique<ActionCatalog>(ActionCatalog::builtin());
  if (path.empty()) return catalog;
  std::string text;
  if (!read_schema_text(path, &text, error)) return nullptr;
  std::string problem;
  if (path.ends_with(".json")) {
    auto parsed = ActionCatalog::from_json(text, &problem);
    if (parsed) {
      *catalog = std::move(*parsed);
      return catalog;
    }
  } else if (catalog->merge_schema_yaml(text, &problem)) {
    return catalog;
  }
  *error = path + ": " + problem;
  return nullptr;
}

} // namespace blockls
