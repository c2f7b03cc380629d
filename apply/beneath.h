// File operations confined to the allowed roots by construction. Every operation walks its
// path from an open directory descriptor of the root that contains it, one component at a
// time with O_NOFOLLOW | O_DIRECTORY, and then acts relative to the parent's descriptor
// (openat, mkdirat, renameat, unlinkat, fchmod). A path that was checked as a string and is
// then swapped by another process (a directory replaced by a symbolic link to somewhere
// else) makes the operation fail instead of writing outside the root. The walk is linear in
// the number of components.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace blockls::apply {

// Writes all of `text` to `fd`, again after a short write or an interrupted one; false on an
// error (errno says which).
bool write_all(int fd, std::string_view text);

// An owned file descriptor (closed on destruction).
class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  explicit operator bool() const { return fd_ >= 0; }

private:
  int fd_ = -1;
};

// What a path is, seen from its parent directory without following a final link.
enum class EntryKind { missing, file, directory, link, other };

struct EntryInfo {
  EntryKind kind = EntryKind::missing;
  unsigned mode = 0; // permission bits (07777)
  uint64_t size = 0; // files: bytes
};

// The open roots of one run. Paths given to its operations are absolute and resolved (as
// resolve_path returns them); each is taken relative to the longest allowed root that
// contains it. A path in no root, or the root itself, is refused.
class Beneath {
public:
  // Opens every root (canonical absolute directories). False and `error` when one cannot be
  // opened as a directory.
  bool open(const std::vector<std::string>& roots, std::string* error);

  EntryInfo stat(const std::string& path) const;
  // Reads a regular file (not through a link). False when missing, not a file, or unreadable.
  bool read_file(const std::string& path, std::string* out, std::string* error) const;
  // Reads the target of a symbolic link.
  bool read_link(const std::string& path, std::string* out, std::string* error) const;
  // Writes `text` atomically (temporary file beside it, fsync, rename, directory fsync).
  // `mode` is masked to 0777 (setuid/setgid/sticky are never set); 0 = default for new files.
  bool write_file(const std::string& path, std::string_view text, unsigned mode,
                  const std::string& temp_tag, std::string* error) const;
  bool remove_file(const std::string& path, std::string* error) const;
  bool rename(const std::string& from, const std::string& to, std::string* error) const;
  // mkdir -p below the root (each new directory fsynced into its parent).
  bool make_dirs(const std::string& path, std::string* error) const;
  // Removes a directory and everything below it, no link followed.
  bool remove_tree(const std::string& path, std::string* error) const;
  // Removes an empty directory; fails (ENOTEMPTY) when anything is in it.
  bool remove_empty_dir(const std::string& path, std::string* error) const;
  // The names in a directory (not through a link; a root too), "." and ".." left out.
  bool list_dir(const std::string& path, std::vector<std::string>* names, std::string* error) const;
  bool make_dir(const std::string& path, unsigned mode, std::string* error) const;
  bool make_link(const std::string& path, const std::string& target, std::string* error) const;
  bool set_mode(const std::string& path, unsigned mode, std::string* error) const;
  // The name of the temporary file that write_file uses for `path` (for clean-up).
  static std::string temp_name(std::string_view base, const std::string& tag);

  // The parent directory of `path`, opened by walking from its root; `name` receives the
  // last component. `create` makes missing directories on the way.
  UniqueFd open_parent(const std::string& path, bool create, std::string* name,
                       std::string* error) const;

private:
  struct Root {
    std::string path;
    std::shared_ptr<UniqueFd> fd;
  };
  const Root* root_of(const std::string& path, std::string_view* rel) const;
  std::vector<Root> roots_;
};

// The default permissions of a new file (0666 less the umask).
unsigned default_file_mode();

// Gives `temp_fd`, a temporary file about to be renamed over a file of owner `uid` and group
// `gid`, that owner and group where the process may: run as root (sudo, a container over a
// mounted checkout), a rewritten file would otherwise become root's. Failing that (EPERM: an
// ordinary user cannot give a file away), the group alone, if it is one of the user's; failing
// that too, the file stays the process's, as with any editor that saves by renaming. Call it
// before setting the mode: a chown clears the set-user-ID and set-group-ID bits. Shared by
// apply (Beneath::write_file) and `fix --in-place` (cli/input.cpp).
void keep_owner(int temp_fd, uid_t uid, gid_t gid);

} // namespace blockls::apply
