// Journal format: ROOT/.blockls/journal-<pid>-<n>.json lists every path with its original
// kind (missing, file, dir, link) and mode; file contents are copied to
// ROOT/.blockls/journal-<pid>-<n>/<index>. The .json file is the commit point: it is written
// (temp + fsync + rename) only after every copy is fsynced, and deleted first when the block
// is done, so a journal on disk always describes a complete original state.
#include "apply/journal.h"

#include "apply/simulate.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::apply {
namespace {

std::string parent_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

std::string temp_path_for(const std::string& path, const std::string& tag) {
  return parent_of(path) + "/." + base_of(path) + ".blockls-tmp-" + tag;
}

unsigned default_mode() {
  static const unsigned mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666u & ~static_cast<unsigned>(mask);
  }();
  return mode;
}

bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool read_all(const std::string& path, std::string* out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out->clear();
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return true;
}

std::string errno_text(const std::string& what, const std::string& path) {
  return fmt::format("{} {}: {}", what, path, std::strerror(errno));
}

} // namespace

void sync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

bool make_dirs(const std::string& dir, std::string* error) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    errno = ENOTDIR;
    *error = errno_text("cannot create directory", dir);
    return false;
  }
  if (dir != "/" && !make_dirs(parent_of(dir), error)) return false;
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    *error = errno_text("cannot create directory", dir);
    return false;
  }
  sync_dir(parent_of(dir));
  return true;
}

bool write_atomically(const std::string& path, const std::string& text, unsigned mode,
                      const std::string& temp_tag, std::string* error) {
  const std::string temp = temp_path_for(path, temp_tag);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    *error = errno_text("cannot create a temporary file", temp);
    return false;
  }
  const auto fail = [&](const char* what) {
    *error = errno_text(what, temp);
    ::close(fd);
    ::unlink(temp.c_str());
    return false;
  };
  if (!write_all(fd, text)) return fail("cannot write");
  if (::fchmod(fd, mode ? mode : default_mode()) != 0) return fail("cannot set the mode of");
  if (::fsync(fd) != 0) return fail("cannot fsync");
  if (::close(fd) != 0) {
    *error = errno_text("cannot close", temp);
    ::unlink(temp.c_str());
    return false;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    *error = errno_text("cannot rename the temporary file onto", path);
    ::unlink(temp.c_str());
    return false;
  }
  sync_dir(parent_of(path));
  return true;
}

StateDir::~StateDir() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

bool StateDir::open(const std::string& root, std::string* error) {
  root_ = root;
  dir_ = root + "/" + kStateDirName;
  struct stat st {};
  if (::lstat(dir_.c_str(), &st) != 0) {
    if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) {
      *error = errno_text("cannot create", dir_);
      return false;
    }
    sync_dir(root);
  } else if (!S_ISDIR(st.st_mode)) {
    *error = fmt::format("{} is not a directory (a symbolic link?); blockls will not use it", dir_);
    return false;
  }
  const std::string ignore = dir_ + "/.gitignore";
  if (::access(ignore.c_str(), F_OK) != 0) {
    std::string unused;
    write_atomically(ignore, "*\n", 0644, "init", &unused);
  }
  const std::string lock = dir_ + "/lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (lock_fd_ < 0) {
    *error = errno_text("cannot open", lock);
    return false;
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    *error = fmt::format("another blockls apply is running in {} (lock {})", root, lock);
    return false;
  }
  return true;
}

std::string StateDir::next_journal_name() {
  return fmt::format("journal-{}-{}", ::getpid(), ++counter_);
}

bool StateDir::recover(std::vector<std::string>* messages, std::string* error) {
  std::vector<std::string> names;
  if (DIR* h = ::opendir(dir_.c_str())) {
    while (const dirent* e = ::readdir(h)) {
      const std::string_view name = e->d_name;
      if (name.starts_with("journal-")) names.emplace_back(name);
      // A journal (or .gitignore) whose atomic write was interrupted.
      if (name.find(".blockls-tmp-") != std::string_view::npos)
        ::unlink((dir_ + "/" + std::string(name)).c_str());
    }
    ::closedir(h);
  }
  std::sort(names.begin(), names.end());
  bool ok = true;
  for (const std::string& name : names) {
    const std::string path = dir_ + "/" + name;
    if (name.ends_with(".json")) {
      const std::string base = path.substr(0, path.size() - 5);
      std::string e;
      if (Journal::rollback_dir(base, &e)) {
        messages->push_back(fmt::format("rolled back the interrupted block recorded in {}", path));
      } else {
        *error = e;
        ok = false;
      }
    } else if (::access((path + ".json").c_str(), F_OK) != 0) {
      // Copies of a journal that was never committed: nothing was changed yet.
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  }
  sync_dir(dir_);
  return ok;
}

bool Journal::begin(StateDir& state, const std::string& label, std::vector<std::string> paths,
                    std::string* error) {
  name_ = state.next_journal_name();
  dir_ = state.path() + "/" + name_;
  // Missing parents (created by mkdir -p) and the contents of directories are journaled too.
  std::vector<std::string> all;
  DiskSource disk;
  for (const std::string& p : paths) {
    all.push_back(p);
    for (std::string d = parent_of(p); d.size() > state.root().size(); d = parent_of(d)) {
      struct stat st {};
      if (::lstat(d.c_str(), &st) == 0) break;
      all.push_back(d);
    }
    struct stat st {};
    if (::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      for (std::string& e : disk.list_tree(p))
        all.push_back(std::move(e));
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());

  if (::mkdir(dir_.c_str(), 0700) != 0) {
    *error = errno_text("cannot create the journal", dir_);
    return false;
  }
  nlohmann::json entries = nlohmann::json::array();
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string& p = all[i];
    nlohmann::json e = {{"path", p}};
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      e["kind"] = "missing";
    } else if (S_ISDIR(st.st_mode)) {
      e["kind"] = "dir";
      e["mode"] = st.st_mode & 07777;
    } else if (S_ISLNK(st.st_mode)) {
      e["kind"] = "link";
      e["target"] = disk.read(p).content;
    } else if (S_ISREG(st.st_mode)) {
      std::string content;
      if (!read_all(p, &content)) {
        *error = errno_text("cannot read", p);
        return false;
      }
      const std::string copy = fmt::format("{}/{}", dir_, i);
      const int fd = ::open(copy.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd < 0 || !write_all(fd, content) || ::fsync(fd) != 0) {
        *error = errno_text("cannot save the original of", p);
        if (fd >= 0) ::close(fd);
        return false;
      }
      ::close(fd);
      e["kind"] = "file";
      e["mode"] = st.st_mode & 07777;
      e["saved"] = std::to_string(i);
    } else {
      *error =
          fmt::format("{} is neither a file, a directory nor a link; blockls will not touch it", p);
      return false;
    }
    entries.push_back(std::move(e));
  }
  sync_dir(dir_);
  std::string text;
  try {
    text = nlohmann::json{{"version", 1}, {"block", label}, {"entries", entries}}.dump(1);
  } catch (const nlohmann::json::exception&) {
    *error = "a path is not valid UTF-8 and cannot be journaled";
    return false;
  }
  if (!write_atomically(dir_ + ".json", text, 0600, "journal", error)) return false;
  sync_dir(state.path());
  return true;
}

bool Journal::commit(std::string* error) {
  if (::unlink((dir_ + ".json").c_str()) != 0) {
    *error = errno_text("cannot delete the journal", dir_ + ".json");
    return false;
  }
  sync_dir(parent_of(dir_));
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
  return true;
}

bool Journal::rollback(std::string* error) {
  return rollback_dir(dir_, error);
}

bool Journal::rollback_dir(const std::string& dir, std::string* error) {
  std::string text;
  if (!read_all(dir + ".json", &text)) {
    *error = errno_text("cannot read the journal", dir + ".json");
    return false;
  }
  nlohmann::json journal;
  try {
    journal = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    *error = fmt::format("{}.json: corrupt journal: {}", dir, e.what());
    return false;
  }
  const std::string tag = base_of(dir);
  const nlohmann::json& entries = journal["entries"];
  namespace fs = std::filesystem;
  // Pass 1, children first: remove what the block created or turned into something else.
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    const std::string path = (*it)["path"];
    const std::string kind = (*it)["kind"];
    ::unlink(temp_path_for(path, tag).c_str());
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    const bool is_dir = S_ISDIR(st.st_mode);
    std::error_code ec;
    if (kind == "missing" || kind == "link" || (kind == "file" && is_dir)) {
      if (is_dir)
        fs::remove_all(path, ec);
      else
        ::unlink(path.c_str());
    } else if (kind == "dir" && !is_dir) {
      ::unlink(path.c_str());
    }
  }
  // Pass 2, parents first: restore the originals.
  for (const nlohmann::json& e : entries) {
    const std::string path = e["path"];
    const std::string kind = e["kind"];
    if (kind == "dir") {
      if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
        *error = errno_text("cannot restore directory", path);
        return false;
      }
      ::chmod(path.c_str(), e["mode"].get<unsigned>());
      sync_dir(parent_of(path));
    } else if (kind == "link") {
      const std::string target = e["target"];
      if (::symlink(target.c_str(), path.c_str()) != 0 && errno != EEXIST) {
        *error = errno_text("cannot restore link", path);
        return false;
      }
    } else if (kind == "file") {
      std::string original, current;
      if (!read_all(dir + "/" + e["saved"].get<std::string>(), &original)) {
        *error = errno_text("cannot read the saved original of", path);
        return false;
      }
      struct stat st {};
      const unsigned mode = e["mode"].get<unsigned>();
      if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == mode &&
          read_all(path, &current) && current == original)
        continue;
      if (!write_atomically(path, original, mode, tag, error)) return false;
    }
  }
  if (::unlink((dir + ".json").c_str()) != 0) {
    *error = errno_text("cannot delete the journal", dir + ".json");
    return false;
  }
  sync_dir(parent_of(dir));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return true;
}

} // namespace blockls::apply
