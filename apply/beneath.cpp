// Descriptor-relative file operations (see beneath.h). Each public operation opens the parent
// directory by walking from the root's descriptor, so a symbolic link planted in place of a
// directory after the path was checked is refused with ELOOP/ENOTDIR rather than followed.
#include "apply/beneath.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::apply {
namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

std::string errno_text(std::string_view what, std::string_view path, int err) {
  if (err == ELOOP || err == ENOTDIR)
    return fmt::format("{} {}: a directory on the way is a symbolic link or not a directory "
                       "(changed while blockls was running?)",
                       what, path);
  return fmt::format("{} {}: {}", what, path, std::strerror(err));
}

bool read_fd(int fd, std::string* out) {
  out->clear();
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out->append(buf, static_cast<size_t>(n));
  }
}

EntryInfo stat_at(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return {};
  EntryInfo info;
  info.mode = st.st_mode & 07777;
  info.size = static_cast<uint64_t>(st.st_size);
  info.kind = S_ISREG(st.st_mode)   ? EntryKind::file
              : S_ISDIR(st.st_mode) ? EntryKind::directory
              : S_ISLNK(st.st_mode) ? EntryKind::link
                                    : EntryKind::other;
  return info;
}

// Empties the directory `dir` (an open descriptor) recursively without following links.
bool remove_contents(int dir, const std::string& shown, std::string* error) {
  const int dup = ::openat(dir, ".", kDirFlags);
  if (dup < 0) {
    *error = errno_text("cannot open", shown, errno);
    return false;
  }
  DIR* h = ::fdopendir(dup);
  if (!h) {
    ::close(dup);
    *error = errno_text("cannot list", shown, errno);
    return false;
  }
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(h)) {
    const std::string_view n = e->d_name;
    if (n != "." && n != "..") names.emplace_back(n);
  }
  ::closedir(h);
  for (const std::string& n : names) {
    const std::string child = shown + "/" + n;
    if (stat_at(dir, n).kind == EntryKind::directory) {
      UniqueFd sub(::openat(dir, n.c_str(), kDirFlags));
      if (!sub) {
        *error = errno_text("cannot open", child, errno);
        return false;
      }
      if (!remove_contents(sub.get(), child, error)) return false;
      if (::unlinkat(dir, n.c_str(), AT_REMOVEDIR) != 0) {
        *error = errno_text("cannot delete", child, errno);
        return false;
      }
    } else if (::unlinkat(dir, n.c_str(), 0) != 0 && errno != ENOENT) {
      *error = errno_text("cannot delete", child, errno);
      return false;
    }
  }
  return true;
}

} // namespace

bool write_all(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

unsigned default_file_mode() {
  static const unsigned mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666u & ~static_cast<unsigned>(mask);
  }();
  return mode;
}

std::string Beneath::temp_name(std::string_view base, const std::string& tag) {
  return fmt::format(".{}.blockls-tmp-{}", base, tag);
}

bool Beneath::open(const std::vector<std::string>& roots, std::string* error) {
  roots_.clear();
  for (const std::string& r : roots) {
    auto fd = std::make_shared<UniqueFd>(::open(r.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!*fd) {
      *error = errno_text("cannot open the root", r, errno);
      return false;
    }
    roots_.push_back({r, std::move(fd)});
  }
  return true;
}

const Beneath::Root* Beneath::root_of(const std::string& path, std::string_view* rel) const {
  const Root* best = nullptr;
  for (const Root& r : roots_) {
    const bool below = r.path == "/" ? path.size() > 1 && path[0] == '/'
                                     : path.size() > r.path.size() + 1 &&
                                           path.compare(0, r.path.size(), r.path) == 0 &&
                                           path[r.path.size()] == '/';
    if (below && (!best || r.path.size() > best->path.size())) best = &r;
  }
  if (best) *rel = std::string_view(path).substr(best->path == "/" ? 1 : best->path.size() + 1);
  return best;
}

UniqueFd Beneath::open_parent(const std::string& path, bool create, std::string* name,
                              std::string* error) const {
  std::string_view rel;
  const Root* root = root_of(path, &rel);
  if (!root) {
    *error = fmt::format("{} is not below an allowed root", path);
    return UniqueFd();
  }
  UniqueFd dir(::openat(root->fd->get(), ".", kDirFlags));
  if (!dir) {
    *error = errno_text("cannot open the root", root->path, errno);
    return UniqueFd();
  }
  size_t pos = 0;
  for (;;) {
    const size_t slash = rel.find('/', pos);
    const std::string part(
        rel.substr(pos, slash == std::string_view::npos ? rel.npos : slash - pos));
    if (part.empty() || part == "." || part == "..") {
      *error = fmt::format("{} is not a resolved path", path);
      return UniqueFd();
    }
    if (slash == std::string_view::npos) {
      *name = part;
      return dir;
    }
    UniqueFd next(::openat(dir.get(), part.c_str(), kDirFlags));
    if (!next && errno == ENOENT && create) {
      if (::mkdirat(dir.get(), part.c_str(), 0777) != 0 && errno != EEXIST) {
        *error = errno_text("cannot create directory",
                            path.substr(0, path.size() - rel.size() + slash), errno);
        return UniqueFd();
      }
      ::fsync(dir.get());
      next = UniqueFd(::openat(dir.get(), part.c_str(), kDirFlags));
    }
    if (!next) {
      *error = errno_text("cannot open directory", path.substr(0, path.size() - rel.size() + slash),
                          errno);
      return UniqueFd();
    }
    dir = std::move(next);
    pos = slash + 1;
  }
}

EntryInfo Beneath::stat(const std::string& path) const {
  for (const Root& r : roots_)
    if (r.path == path) return {EntryKind::directory, 0};
  std::string name, error;
  const UniqueFd dir = open_parent(path, false, &name, &error);
  if (!dir) return {};
  return stat_at(dir.get(), name);
}

bool Beneath::read_file(const std::string& path, std::string* out, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  const UniqueFd fd(
      ::openat(dir.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0) {
    *error = errno_text("cannot read", path, errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = fmt::format("cannot read {}: not a regular file", path);
    return false;
  }
  if (!read_fd(fd.get(), out)) {
    *error = errno_text("cannot read", path, errno);
    return false;
  }
  return true;
}

bool Beneath::read_link(const std::string& path, std::string* out, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  char buf[4096];
  const ssize_t n = ::readlinkat(dir.get(), name.c_str(), buf, sizeof buf);
  if (n < 0) {
    *error = errno_text("cannot read the link", path, errno);
    return false;
  }
  out->assign(buf, static_cast<size_t>(n));
  return true;
}

void keep_owner(int temp_fd, uid_t uid, gid_t gid) {
  if (uid == ::geteuid() && gid == ::getegid()) return;
  if (::fchown(temp_fd, uid, gid) != 0 && gid != ::getegid())
    (void)::fchown(temp_fd, static_cast<uid_t>(-1), gid); // the group alone, if allowed
}

namespace {

// The owner and group of the regular file `name` in `dir`, kept by the temporary file that
// replaces it (see keep_owner above); nothing for a new file.
void keep_owner_of(int dir, const std::string& name, int temp_fd) {
  struct stat old {};
  if (::fstatat(dir, name.c_str(), &old, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(old.st_mode)) return;
  keep_owner(temp_fd, old.st_uid, old.st_gid);
}

} // namespace

bool Beneath::write_file(const std::string& path, std::string_view text, unsigned mode,
                         const std::string& temp_tag, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  const std::string temp = temp_name(name, temp_tag);
  const std::string shown = path.substr(0, path.size() - name.size()) + temp;
  ::unlinkat(dir.get(), temp.c_str(), 0); // a leftover of an interrupted run with this tag
  UniqueFd fd(::openat(dir.get(), temp.c_str(),
                       O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) {
    const int err = errno;
    // Most often a directory the user made read-only: say so, naming the file to write and
    // its directory rather than the temporary name alone.
    if (err == EACCES || err == EPERM || err == EROFS)
      *error = fmt::format("cannot write {}: its directory {} does not let blockls create a file "
                           "in it ({}: {})",
                           path, path.substr(0, path.size() - name.size() - 1), temp,
                           std::strerror(err));
    else
      *error = errno_text("cannot create a temporary file", shown, err);
    return false;
  }
  const auto fail = [&](const char* what) {
    *error = errno_text(what, shown, errno);
    ::unlinkat(dir.get(), temp.c_str(), 0);
    return false;
  };
  if (!write_all(fd.get(), text)) return fail("cannot write");
  keep_owner_of(dir.get(), name, fd.get());
  if (::fchmod(fd.get(), (mode ? mode : default_file_mode()) & 0777) != 0)
    return fail("cannot set the mode of");
  if (::fsync(fd.get()) != 0) return fail("cannot fsync");
  if (::close(fd.release()) != 0) return fail("cannot close");
  if (::renameat(dir.get(), temp.c_str(), dir.get(), name.c_str()) != 0)
    return fail("cannot rename the temporary file onto its target,");
  ::fsync(dir.get());
  return true;
}

bool Beneath::remove_file(const std::string& path, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  if (::unlinkat(dir.get(), name.c_str(), 0) != 0) {
    *error = errno_text("cannot delete", path, errno);
    return false;
  }
  ::fsync(dir.get());
  return true;
}

bool Beneath::rename(const std::string& from, const std::string& to, std::string* error) const {
  std::string from_name, to_name;
  const UniqueFd from_dir = open_parent(from, false, &from_name, error);
  if (!from_dir) return false;
  const UniqueFd to_dir = open_parent(to, true, &to_name, error);
  if (!to_dir) return false;
  if (::renameat(from_dir.get(), from_name.c_str(), to_dir.get(), to_name.c_str()) != 0) {
    *error = errno_text("cannot move", from, errno);
    return false;
  }
  ::fsync(from_dir.get());
  ::fsync(to_dir.get());
  return true;
}

bool Beneath::make_dirs(const std::string& path, std::string* error) const {
  for (const Root& r : roots_)
    if (r.path == path) return true; // the root itself exists (it is open)
  std::string name;
  const UniqueFd dir = open_parent(path, true, &name, error);
  if (!dir) return false;
  if (::mkdirat(dir.get(), name.c_str(), 0777) != 0) {
    if (errno == EEXIST && stat_at(dir.get(), name).kind == EntryKind::directory) return true;
    *error = errno_text("cannot create directory", path, errno);
    return false;
  }
  ::fsync(dir.get());
  return true;
}

bool Beneath::make_dir(const std::string& path, unsigned mode, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  if (::mkdirat(dir.get(), name.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = errno_text("cannot create directory", path, errno);
    return false;
  }
  const UniqueFd self(::openat(dir.get(), name.c_str(), kDirFlags));
  if (!self || ::fchmod(self.get(), mode & 0777) != 0) {
    *error = errno_text("cannot set the mode of", path, errno);
    return false;
  }
  ::fsync(dir.get());
  return true;
}

bool Beneath::make_link(const std::string& path, const std::string& target,
                        std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  if (::symlinkat(target.c_str(), dir.get(), name.c_str()) != 0 && errno != EEXIST) {
    *error = errno_text("cannot restore link", path, errno);
    return false;
  }
  ::fsync(dir.get());
  return true;
}

bool Beneath::set_mode(const std::string& path, unsigned mode, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  const UniqueFd fd(
      ::openat(dir.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd || ::fchmod(fd.get(), mode & 0777) != 0) {
    *error = errno_text("cannot set the mode of", path, errno);
    return false;
  }
  return true;
}

bool Beneath::remove_empty_dir(const std::string& path, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  if (::unlinkat(dir.get(), name.c_str(), AT_REMOVEDIR) != 0) {
    *error = errno_text("cannot delete the directory", path, errno);
    return false;
  }
  ::fsync(dir.get());
  return true;
}

bool Beneath::list_dir(const std::string& path, std::vector<std::string>* names,
                       std::string* error) const {
  int fd = -1;
  for (const Root& r : roots_)
    if (r.path == path) fd = ::openat(r.fd->get(), ".", kDirFlags); // a root itself
  if (fd < 0) {
    std::string name;
    const UniqueFd parent = open_parent(path, false, &name, error);
    if (!parent) return false;
    fd = ::openat(parent.get(), name.c_str(), kDirFlags);
  }
  DIR* h = fd < 0 ? nullptr : ::fdopendir(fd);
  if (!h) {
    *error = errno_text("cannot list", path, errno);
    if (fd >= 0) ::close(fd);
    return false;
  }
  names->clear();
  while (const dirent* e = ::readdir(h)) {
    const std::string_view n = e->d_name;
    if (n != "." && n != "..") names->emplace_back(n);
  }
  ::closedir(h);
  return true;
}

bool Beneath::remove_tree(const std::string& path, std::string* error) const {
  std::string name;
  const UniqueFd dir = open_parent(path, false, &name, error);
  if (!dir) return false;
  const EntryKind kind = stat_at(dir.get(), name).kind;
  if (kind == EntryKind::missing) return true;
  if (kind == EntryKind::directory) {
    UniqueFd self(::openat(dir.get(), name.c_str(), kDirFlags));
    if (!self) {
      *error = errno_text("cannot open", path, errno);
      return false;
    }
    if (!remove_contents(self.get(), path, error)) return false;
    if (::unlinkat(dir.get(), name.c_str(), AT_REMOVEDIR) != 0) {
      *error = errno_text("cannot delete", path, errno);
      return false;
    }
  } else if (::unlinkat(dir.get(), name.c_str(), 0) != 0) {
    *error = errno_text("cannot delete", path, errno);
    return false;
  }
  ::fsync(dir.get());
  return true;
}

} // namespace blockls::apply
