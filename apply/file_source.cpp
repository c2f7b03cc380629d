// The disk as a FileSource (lstat, no symlink followed) and the overlay of earlier actions.
#include "apply/file_source.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::apply {
namespace {

using Kind = FileState::Kind;

bool is_below(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (dir == "/" || path[dir.size()] == '/');
}

} // namespace

std::string parent_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

FileState DiskSource::read(const std::string& path) const {
  FileState s;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return s;
  s.mode = st.st_mode & 07777;
  if (S_ISDIR(st.st_mode)) {
    s.kind = Kind::directory;
    return s;
  }
  if (!S_ISREG(st.st_mode)) {
    s.kind = Kind::other;
    if (S_ISLNK(st.st_mode)) { // keep the target so a journal can restore the link
      char buf[4096];
      const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
      if (n > 0) s.content = FileContent(std::string_view(buf, static_cast<size_t>(n)));
    }
    return s;
  }
  if (not_read(s.mode, static_cast<uint64_t>(st.st_size), max_file_bytes_, &s)) return s;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    s.kind = Kind::other;
    return s;
  }
  s.kind = Kind::file;
  std::string content;
  content.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    content.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  s.content = FileContent(content);
  return s;
}

std::vector<std::string> DiskSource::list_tree(const std::string& dir) const {
  std::vector<std::string> out;
  std::vector<std::string> todo{dir};
  while (!todo.empty()) {
    const std::string d = todo.back();
    todo.pop_back();
    DIR* h = ::opendir(d.c_str());
    if (!h) continue;
    while (const dirent* ent = ::readdir(h)) {
      const std::string name = ent->d_name;
      if (name == "." || name == "..") continue;
      const std::string p = d + "/" + name;
      out.push_back(p);
      struct stat st {};
      if (::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) todo.push_back(p);
    }
    ::closedir(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

FileState Overlay::read(const std::string& path) const {
  if (const auto it = entries_.find(path); it != entries_.end()) return it->second;
  // The nearest parent the overlay knows decides: a directory lets the base answer, anything
  // else means the path cannot exist.
  std::string_view dir = path;
  for (size_t slash = dir.rfind('/'); slash != std::string_view::npos && slash > 0;
       slash = dir.rfind('/')) {
    dir = dir.substr(0, slash);
    const auto it = entries_.find(dir);
    if (it == entries_.end()) continue;
    if (it->second.kind != Kind::directory) return {};
    break;
  }
  return base_->read(path);
}

std::vector<std::string> Overlay::list_tree(const std::string& dir) const {
  std::vector<std::string> all = base_->list_tree(dir);
  for (auto it = entries_.upper_bound(dir); it != entries_.end() && is_below(it->first, dir); ++it)
    all.push_back(it->first);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<std::string> out;
  for (std::string& p : all)
    if (read(p).kind != Kind::missing) out.push_back(std::move(p));
  return out;
}

void Overlay::set(const std::string& path, FileState state) {
  entries_[path] = std::move(state);
}

void Overlay::merge(const FileStates& changes) {
  for (const auto& [path, state] : changes)
    entries_.insert_or_assign(path, state);
}

} // namespace blockls::apply
