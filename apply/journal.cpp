// Journal format: STATE/roots/<hash>/journal-<pid>-<n>.json lists the roots of the run
// and every path with its original kind (missing, file, dir, link) and mode, and (version 3)
// what the block may leave there ("left": missing, dir, or a file's size and SHA-256); file
// contents are copied to journal-<pid>-<n>/<index> beside it. The .json file is the commit
// point: it is written (temp + fsync + rename) only after every copy is fsynced, and deleted
// first when the block is done, so a journal on disk always describes a complete original
// state. Restoring goes through Beneath, so even a journal cannot make blockls follow a link out
// of its roots, and restores only the paths that hold their original or what the block left:
// anything else there now is someone else's, and stays.
#include "apply/journal.h"

#include "apply/beneath.h"
#include "apply/path_policy.h"
#include "apply/sha256.h"
#include "apply/simulate.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::apply {
namespace {

// Version 3 adds "left" to every entry. A version-2 journal (an older blockls) is still read:
// it does not say what the block wrote, so only a path that holds its original counts as
// restorable and everything else is left alone (see change_since()).
constexpr int kJournalVersion = 3;
constexpr int kOldestJournalVersion = 2;

std::string base_of(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

std::string errno_text(const std::string& what, const std::string& path) {
  return fmt::format("{} {}: {}", what, path, std::strerror(errno));
}

void sync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A file of the (private) state directory, read whole; `limit` bounds what a corrupt or
// hostile entry can make us allocate.
bool read_private(const std::string& path, std::string* out, size_t limit = SIZE_MAX) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<size_t>(st.st_size) > limit) {
    ::close(fd);
    errno = EINVAL;
    return false;
  }
  out->clear();
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return n == 0;
    }
    out->append(buf, static_cast<size_t>(n));
  }
}

// Writes a file of the state directory atomically (the directory is this user's own).
bool write_private(const std::string& path, std::string_view text, std::string* error) {
  const std::string temp = path + ".blockls-tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    *error = errno_text("cannot create", temp);
    return false;
  }
  if (!write_all(fd, text) || ::fsync(fd) != 0) {
    *error = errno_text("cannot write", temp);
    ::close(fd);
    ::unlink(temp.c_str());
    return false;
  }
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    *error = errno_text("cannot rename onto", path);
    ::unlink(temp.c_str());
    return false;
  }
  sync_dir(parent_of(path));
  return true;
}

// mkdir -p for the state directory; the last `private_levels` components are created 0700
// and must be directories of this user that no one else can write or enter.
bool make_private_dir(const std::string& dir, int private_levels, std::string* error) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (dir != "/" && !make_private_dir(parent_of(dir), private_levels - 1, error)) return false;
    if (::mkdir(dir.c_str(), private_levels > 0 ? 0700 : 0755) != 0 && errno != EEXIST) {
      *error = errno_text("cannot create the state directory", dir);
      return false;
    }
    if (::lstat(dir.c_str(), &st) != 0) {
      *error = errno_text("cannot read the state directory", dir);
      return false;
    }
  }
  if (!S_ISDIR(st.st_mode)) {
    *error = fmt::format("{} is not a directory (a symbolic link?); blockls will not keep its "
                         "journals there",
                         dir);
    return false;
  }
  if (private_levels > 0 && (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)) {
    *error = fmt::format("{} must be a directory owned by this user with mode 0700 (it has "
                         "owner {} and mode {:04o}); blockls will not keep its journals there",
                         dir, st.st_uid, st.st_mode & 07777);
    return false;
  }
  return true;
}

} // namespace

// The state directory of one root, named by a hash of the root's canonical path: the same
// directory is found again however the root is named on the command line, and a journal can
// never be matched to a different root (every journal also records its root, checked on
// recovery). FNV-1a: stable across builds and platforms, unlike std::hash.
std::optional<std::string> state_dir_of(const std::string& root, std::string* error) {
  const std::string home = state_home(error);
  if (home.empty()) return std::nullopt;
  char buf[PATH_MAX];
  if (!::realpath(root.c_str(), buf)) {
    *error = errno_text("cannot read the root", root);
    return std::nullopt;
  }
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : std::string_view(buf)) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return fmt::format("{}/roots/{:016x}", home, h);
}

namespace {

bool is_journal_name(std::string_view name) {
  // journal-<digits>-<digits>
  if (!name.starts_with("journal-")) return false;
  name.remove_prefix(8);
  const size_t dash = name.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (i != dash && (name[i] < '0' || name[i] > '9')) return false;
  return true;
}

bool has_control_or_bad_utf8(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}

bool below(const std::string& path, const std::string& root) {
  return root == "/" ? path.size() > 1
                     : path.size() > root.size() + 1 && path.compare(0, root.size(), root) == 0 &&
                           path[root.size()] == '/';
}

// A state the block may leave at a path: nothing, a directory, or a file with this content.
struct LeftState {
  EntryKind kind = EntryKind::missing;
  uint64_t size = 0;
  std::string sha256;
  bool operator==(const LeftState&) const = default;
  static LeftState of(EntryKind kind) {
    LeftState s;
    s.kind = kind;
    return s;
  }
};

const char* left_kind_name(EntryKind kind) {
  return kind == EntryKind::file ? "file" : kind == EntryKind::directory ? "dir" : "missing";
}

struct Entry {
  std::string path;
  std::string kind; // missing, file, dir, link
  unsigned mode = 0;
  std::string saved; // file: the copy inside the journal's directory
  std::string target;
  std::vector<LeftState> left; // what the block may leave here (empty in a version-2 journal)
};

struct ParsedJournal {
  int version = kJournalVersion;
  std::string block; // the block's label, for messages
  std::vector<std::string> roots;
  std::vector<Entry> entries;
};

bool is_sha256_hex(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// Checks a journal's whole shape and every path before anything is restored.
bool parse_journal(const std::string& text, const std::string& expected_root, ParsedJournal* out,
                   std::string* error) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    *error = fmt::format("not JSON ({})", e.what());
    return false;
  }
  const nlohmann::json version = j.is_object() ? j.value("version", nlohmann::json()) : nullptr;
  if (!version.is_number_integer() || version.get<int64_t>() < kOldestJournalVersion ||
      version.get<int64_t>() > kJournalVersion) {
    *error = fmt::format("not a version {} to {} journal object", kOldestJournalVersion,
                         kJournalVersion);
    return false;
  }
  out->version = version.get<int>();
  const auto str = [&](const nlohmann::json& o, const char* key, std::string* v) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return false;
    *v = it->get<std::string>();
    return true;
  };
  std::string root;
  str(j, "block", &out->block);
  if (!str(j, "root", &root) || root != expected_root) {
    *error = fmt::format("it belongs to another root ({})", root.empty() ? "none" : root);
    return false;
  }
  const auto roots = j.find("roots");
  if (roots == j.end() || !roots->is_array() || roots->empty()) {
    *error = "\"roots\" must be a non-empty array";
    return false;
  }
  for (const nlohmann::json& r : *roots) {
    char buf[PATH_MAX];
    if (!r.is_string() || r.get<std::string>().empty() || r.get<std::string>()[0] != '/' ||
        !::realpath(r.get<std::string>().c_str(), buf) || r.get<std::string>() != buf) {
      *error = fmt::format("root {} is not an existing canonical directory", r.dump());
      return false;
    }
    out->roots.push_back(r.get<std::string>());
  }
  if (std::find(out->roots.begin(), out->roots.end(), expected_root) == out->roots.end()) {
    *error = "its roots do not include the root being recovered";
    return false;
  }
  const auto entries = j.find("entries");
  if (entries == j.end() || !entries->is_array()) {
    *error = "\"entries\" must be an array";
    return false;
  }
  for (size_t i = 0; i < entries->size(); ++i) {
    const nlohmann::json& e = (*entries)[i];
    Entry x;
    if (!e.is_object() || !str(e, "path", &x.path) || !str(e, "kind", &x.kind)) {
      *error = fmt::format("entry {} has no string \"path\" and \"kind\"", i);
      return false;
    }
    if (x.path.empty() || x.path[0] != '/' || normalize_lexically(x.path) != x.path ||
        has_control_or_bad_utf8(x.path) ||
        std::none_of(out->roots.begin(), out->roots.end(),
                     [&](const std::string& r) { return below(x.path, r); })) {
      *error = fmt::format("entry {}: {} is not a path below the journal's roots", i, x.path);
      return false;
    }
    if (x.kind == "file" || x.kind == "dir") {
      const auto mode = e.find("mode");
      if (mode == e.end() || !mode->is_number_unsigned() || mode->get<unsigned long>() > 07777) {
        *error = fmt::format("entry {}: \"mode\" must be a number from 0 to 07777", i);
        return false;
      }
      x.mode = mode->get<unsigned>() & 0777; // never setuid, setgid or sticky
    }
    if (x.kind == "file") {
      if (!str(e, "saved", &x.saved) || x.saved != std::to_string(i)) {
        *error = fmt::format("entry {}: \"saved\" must name copy {} of the journal", i, i);
        return false;
      }
    } else if (x.kind == "link") {
      if (!str(e, "target", &x.target) || x.target.empty() || x.target.size() >= PATH_MAX) {
        *error = fmt::format("entry {}: a link needs a \"target\"", i);
        return false;
      }
    } else if (x.kind != "missing" && x.kind != "dir") {
      *error = fmt::format("entry {}: unknown kind '{}'", i, x.kind);
      return false;
    }
    if (out->version >= 3) {
      const auto left = e.find("left");
      if (left == e.end() || !left->is_array()) {
        *error = fmt::format("entry {}: \"left\" must be an array", i);
        return false;
      }
      for (const nlohmann::json& l : *left) {
        LeftState state;
        std::string kind;
        if (!l.is_object() || !str(l, "kind", &kind)) {
          *error = fmt::format("entry {}: every \"left\" state needs a \"kind\"", i);
          return false;
        }
        if (kind == "file") {
          state.kind = EntryKind::file;
          const auto size = l.find("size");
          if (size == l.end() || !size->is_number_unsigned() || !str(l, "sha256", &state.sha256) ||
              !is_sha256_hex(state.sha256)) {
            *error = fmt::format("entry {}: a \"left\" file needs a \"size\" and a \"sha256\"", i);
            return false;
          }
          state.size = size->get<uint64_t>();
        } else if (kind == "dir") {
          state.kind = EntryKind::directory;
        } else if (kind != "missing") {
          *error = fmt::format("entry {}: unknown \"left\" kind '{}'", i, kind);
          return false;
        }
        x.left.push_back(std::move(state));
      }
    }
    out->entries.push_back(std::move(x));
  }
  return true;
}

// A path the journal will not restore, and why.
struct Kept {
  std::string path;
  std::string why;
};

// Whether `e` now holds its original or a state the block may have left there: then restoring
// it only undoes the block (or changes nothing). Otherwise the reason it is someone else's.
// A version-2 journal records no "left": the block's write cannot be told from a later edit,
// so only the original counts and every other state is kept (never clobber what may be a
// user's work; the message says how to go on).
std::optional<std::string> change_since(const Beneath& files, const Entry& e,
                                        const std::string& dir) {
  const EntryInfo now = files.stat(e.path);
  std::string content, why;
  if (now.kind == EntryKind::file && !files.read_file(e.path, &content, &why))
    return fmt::format("cannot be read: {}", why);
  if (e.kind == "missing" && now.kind == EntryKind::missing) return std::nullopt;
  if (e.kind == "dir" && now.kind == EntryKind::directory) return std::nullopt;
  if (e.kind == "link" && now.kind == EntryKind::link) {
    std::string target;
    if (files.read_link(e.path, &target, &why) && target == e.target) return std::nullopt;
  }
  if (e.kind == "file" && now.kind == EntryKind::file) {
    std::string original;
    if (!read_private(dir + "/" + e.saved, &original))
      return fmt::format("its saved original cannot be read: {}", std::strerror(errno));
    if (content == original) return std::nullopt;
  }
  std::string hash;
  for (const LeftState& s : e.left) {
    if (s.kind != now.kind) continue;
    if (s.kind != EntryKind::file) return std::nullopt;
    if (s.size != content.size()) continue;
    if (hash.empty()) hash = sha256_hex(content);
    if (hash == s.sha256) return std::nullopt;
  }
  if (e.left.empty())
    return "differs from its original, and this journal (of an older blockls) does not record "
           "what the block wrote";
  const bool block_wrote_file = std::any_of(
      e.left.begin(), e.left.end(), [](const LeftState& s) { return s.kind == EntryKind::file; });
  const bool block_removed = std::any_of(e.left.begin(), e.left.end(), [](const LeftState& s) {
    return s.kind == EntryKind::missing;
  });
  if (now.kind == EntryKind::missing) return "deleted since, not by the block";
  if (now.kind == EntryKind::file && block_wrote_file) return "changed since the block wrote it";
  if (e.kind == "missing") return "created since, not by the block";
  if (block_removed) return "created again since the block deleted or moved it";
  return "changed since, not by the block";
}

// Every path that restoring would overwrite or delete although the block did not leave it so:
// changed journaled paths, and anything unjournaled in a directory the block created (removing
// that directory would take it along).
std::vector<Kept> find_kept(const Beneath& files, const ParsedJournal& journal,
                            const std::string& dir) {
  std::set<std::string> journaled;
  for (const Entry& e : journal.entries)
    journaled.insert(e.path);
  std::vector<Kept> kept;
  for (const Entry& e : journal.entries) {
    if (std::optional<std::string> why = change_since(files, e, dir)) {
      kept.push_back({e.path, std::move(*why)});
      continue;
    }
    if (e.kind == "dir" || files.stat(e.path).kind != EntryKind::directory) continue;
    std::vector<std::string> names;
    std::string why;
    if (!files.list_dir(e.path, &names, &why)) {
      kept.push_back({e.path, fmt::format("cannot be listed: {}", why)});
      continue;
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names)
      if (!journaled.count(e.path + "/" + name))
        kept.push_back(
            {e.path + "/" + name, fmt::format("not the block's, in {} which it created", e.path)});
  }
  return kept;
}

// A path kept, inside one, or holding one is not touched: restoring it would need to overwrite
// or delete the kept path (a directory the block made that now holds a user's file stays).
bool near_kept(const std::string& path, const std::set<std::string>& kept) {
  if (kept.empty()) return false;
  if (kept.count(path)) return true;
  const auto below_path = kept.lower_bound(path + "/");
  if (below_path != kept.end() && below(*below_path, path)) return true;
  for (std::string d = parent_of(path); d.size() > 1 && d != path; d = parent_of(d))
    if (kept.count(d)) return true;
  return false;
}

// Restores the state a parsed journal describes, as far as it is safe: the paths in `kept`
// (see find_kept) stay as they are. Copies are read from `dir` (the journal's own directory)
// only. Each step is atomic per path and leaves every path at its original or at a state the
// block left, so a recovery killed midway finds the same picture and finishes the job.
bool restore(const Beneath& files, const ParsedJournal& journal, const std::string& dir,
             const std::string& tag, std::vector<Kept>* kept, std::string* error) {
  // The temporary files of this journal (a write of the block or of an earlier recovery that
  // was interrupted) are blockls's own, whatever else happened.
  for (const Entry& e : journal.entries) {
    std::string ignored;
    files.remove_file(parent_of(e.path) + "/" + Beneath::temp_name(base_of(e.path), tag), &ignored);
  }
  *kept = find_kept(files, journal, dir);
  std::set<std::string> kept_paths;
  for (const Kept& k : *kept)
    kept_paths.insert(k.path);
  // Pass 1, children first: remove what the block created or turned into something else. A
  // directory is removed only once empty (its journaled children went first): if anything
  // appeared in it since find_kept looked, removing fails and the journal stays.
  for (auto it = journal.entries.rbegin(); it != journal.entries.rend(); ++it) {
    if (near_kept(it->path, kept_paths)) continue;
    const EntryKind now = files.stat(it->path).kind;
    if (now == EntryKind::missing) continue;
    const bool is_dir = now == EntryKind::directory;
    bool remove = false;
    if (it->kind == "missing") {
      remove = true;
    } else if (it->kind == "link") {
      std::string target, ignored;
      remove = now != EntryKind::link || !files.read_link(it->path, &target, &ignored) ||
               target != it->target;
    } else if (it->kind == "file") {
      remove = is_dir;
    } else { // dir
      remove = !is_dir;
    }
    if (remove &&
        !(is_dir ? files.remove_empty_dir(it->path, error) : files.remove_file(it->path, error)))
      return false;
  }
  // Pass 2, parents first: restore the originals.
  for (const Entry& e : journal.entries) {
    if (near_kept(e.path, kept_paths)) continue;
    if (e.kind == "dir") {
      if (!files.make_dir(e.path, e.mode, error)) return false;
    } else if (e.kind == "link") {
      if (!files.make_link(e.path, e.target, error)) return false;
    } else if (e.kind == "file") {
      std::string original, current, ignored;
      if (!read_private(dir + "/" + e.saved, &original)) {
        *error = errno_text("cannot read the saved original of", e.path);
        return false;
      }
      const EntryInfo now = files.stat(e.path);
      if (now.kind == EntryKind::file && (now.mode & 0777) == e.mode &&
          files.read_file(e.path, &current, &ignored) && current == original)
        continue;
      if (!files.write_file(e.path, original, e.mode, tag, error)) return false;
    }
  }
  return true;
}

// The kept paths for a message: "PATH (why); ..." (the first 20, then how many more).
std::string describe_kept(const std::vector<Kept>& kept) {
  constexpr size_t kShown = 20;
  std::vector<std::string> parts;
  for (size_t i = 0; i < kept.size() && i < kShown; ++i)
    parts.push_back(fmt::format("{} ({})", kept[i].path, kept[i].why));
  std::string text = fmt::format("{}", fmt::join(parts, "; "));
  if (kept.size() > kShown) text += fmt::format("; and {} more", kept.size() - kShown);
  return text;
}

void remove_journal(const std::string& dir) {
  ::unlink((dir + ".json").c_str());
  sync_dir(parent_of(dir));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

} // namespace

std::string state_home(std::string* error) {
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v && *v == '/' ? std::string(v) : std::string();
  };
  std::string home = env("BLOCKLS_STATE_DIR");
  if (!home.empty()) return normalize_lexically(home);
  home = env("XDG_STATE_HOME");
  if (!home.empty()) return normalize_lexically(home) + "/blockls";
  home = env("HOME");
  if (!home.empty()) return normalize_lexically(home) + "/.local/state/blockls";
  *error = "no state directory: set HOME, XDG_STATE_HOME or BLOCKLS_STATE_DIR (an absolute path)";
  return {};
}

StateDir::~StateDir() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

bool StateDir::open(const ApplyConfig& config, std::string* error) {
  root_ = config.root;
  roots_ =
      config.allowed_roots.empty() ? std::vector<std::string>{config.root} : config.allowed_roots;
  if (std::find(roots_.begin(), roots_.end(), root_) == roots_.end()) roots_.push_back(root_);
  const std::optional<std::string> dir = state_dir_of(root_, error);
  if (!dir) return false;
  dir_ = *dir;
  // STATE (0700), STATE/roots (0700), STATE/roots/<key> (0700).
  if (!make_private_dir(dir_, 3, error)) return false;
  if (!files_.open(roots_, error)) return false;
  const std::string lock = dir_ + "/lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (lock_fd_ < 0) {
    *error = errno_text("cannot open", lock);
    return false;
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    *error = fmt::format("another blockls apply is running in {} (lock {})", root_, lock);
    return false;
  }
  std::string ignored;
  write_private(dir_ + "/root", root_ + "\n", &ignored); // which root this is, for people
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
    }
    ::closedir(h);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = dir_ + "/" + name;
    if (name.ends_with(".blockls-tmp")) { // a journal whose atomic write was interrupted
      ::unlink(path.c_str());
      continue;
    }
    if (!name.ends_with(".json")) {
      if (is_journal_name(name) && ::access((path + ".json").c_str(), F_OK) != 0) {
        // Copies of a journal that was never committed: nothing was changed yet.
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
      }
      continue;
    }
    const std::string base = path.substr(0, path.size() - 5);
    std::string text, why;
    ParsedJournal journal;
    Beneath files;
    std::vector<Kept> kept;
    if (!is_journal_name(base_of(base)))
      why = "its name is not one blockls writes";
    else if (!read_private(path, &text, 64u << 20))
      why = fmt::format("it cannot be read ({})", std::strerror(errno));
    else if (parse_journal(text, root_, &journal, &why) && files.open(journal.roots, &why) &&
             restore(files, journal, base, base_of(base), &kept, &why)) {
      if (kept.empty()) {
        remove_journal(base);
        messages->push_back(fmt::format("rolled back the interrupted block recorded in {}", path));
        continue;
      }
      *error = fmt::format(
          "the journal {} was kept: {} changed after the interrupted block{} and {} left as {} "
          "{}: {}. Everything else the block changed was rolled back. To roll {} back too, put "
          "back what the block left there (or move your own files away) and run `blockls apply "
          "--recover --root {}`; to keep {} as {} {}, delete the journal (and the directory "
          "beside it, which holds the originals) to go on",
          path, kept.size() == 1 ? "1 path" : fmt::format("{} paths", kept.size()),
          journal.block.empty() ? "" : fmt::format(" ({})", journal.block),
          kept.size() == 1 ? "was" : "were", kept.size() == 1 ? "it" : "they",
          kept.size() == 1 ? "is" : "are", describe_kept(kept), kept.size() == 1 ? "it" : "them",
          root_, kept.size() == 1 ? "it" : "them", kept.size() == 1 ? "it" : "they",
          kept.size() == 1 ? "is" : "are");
      return false;
    }
    *error = fmt::format("the journal {} was left alone: {}. Inspect it, then delete it (and "
                         "the directory beside it) to go on",
                         path, why);
    return false;
  }
  sync_dir(dir_);
  return true;
}

std::vector<std::string> pending_journals(const std::string& root) {
  std::vector<std::string> out;
  std::string error;
  const std::optional<std::string> dir = state_dir_of(root, &error);
  if (!dir) return out;
  if (DIR* h = ::opendir(dir->c_str())) {
    while (const dirent* e = ::readdir(h)) {
      const std::string_view name = e->d_name;
      if (name.starts_with("journal-") && name.ends_with(".json"))
        out.push_back(*dir + "/" + std::string(name));
    }
    ::closedir(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> planted_journals(const std::string& root) {
  std::vector<std::string> out;
  const std::string dir = root + "/" + kStateDirName;
  if (DIR* h = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(h)) {
      const std::string_view name = e->d_name;
      if (name.starts_with("journal-")) out.push_back(dir + "/" + std::string(name));
    }
    ::closedir(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool Journal::begin(StateDir& state, const std::string& label,
                    const std::vector<BlockChange>& changes, std::string* error) {
  state_ = &state;
  name_ = state.next_journal_name();
  dir_ = state.path() + "/" + name_;
  const Beneath& files = state.files();
  // Every path with what the block may leave there: its own change; a directory for each
  // parent that is not one yet (created by mkdir -p); nothing for everything under a
  // directory it removes (journaled too, to be restored).
  std::map<std::string, std::vector<LeftState>> left;
  const auto add = [&](const std::string& path, LeftState s) {
    std::vector<LeftState>& states = left[path];
    if (std::find(states.begin(), states.end(), s) == states.end()) states.push_back(std::move(s));
  };
  DiskSource disk;
  for (const BlockChange& c : changes) {
    LeftState s;
    s.kind = c.kind;
    if (c.kind == EntryKind::file) {
      s.size = c.content.size();
      s.sha256 = sha256_hex(c.content);
    }
    add(c.path, std::move(s));
    for (std::string d = parent_of(c.path);; d = parent_of(d)) {
      if (std::none_of(state.roots().begin(), state.roots().end(),
                       [&](const std::string& r) { return below(d, r); }) ||
          files.stat(d).kind == EntryKind::directory)
        break;
      add(d, LeftState::of(EntryKind::directory));
    }
    if (c.kind == EntryKind::missing && files.stat(c.path).kind == EntryKind::directory)
      for (const std::string& e : disk.list_tree(c.path))
        add(e, LeftState::of(EntryKind::missing));
  }
  std::vector<std::string> all;
  for (const auto& [path, states] : left)
    all.push_back(path);

  if (::mkdir(dir_.c_str(), 0700) != 0) {
    *error = errno_text("cannot create the journal", dir_);
    return false;
  }
  const auto fail = [&](std::string message) {
    *error = std::move(message);
    remove_journal(dir_);
    return false;
  };
  nlohmann::json entries = nlohmann::json::array();
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string& p = all[i];
    nlohmann::json e = {{"path", p}};
    const EntryInfo info = files.stat(p);
    switch (info.kind) {
    case EntryKind::missing:
      e["kind"] = "missing";
      break;
    case EntryKind::directory:
      e["kind"] = "dir";
      e["mode"] = info.mode;
      break;
    case EntryKind::link: {
      std::string target, why;
      if (!files.read_link(p, &target, &why)) return fail(why);
      e["kind"] = "link";
      e["target"] = target;
      break;
    }
    case EntryKind::file: {
      std::string content, why;
      if (!files.read_file(p, &content, &why)) return fail(why);
      const std::string copy = fmt::format("{}/{}", dir_, i);
      const int fd = ::open(copy.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      const bool saved = fd >= 0 && write_all(fd, content) && ::fsync(fd) == 0;
      if (fd >= 0) ::close(fd);
      if (!saved) return fail(errno_text("cannot save the original of", p));
      e["kind"] = "file";
      e["mode"] = info.mode;
      e["saved"] = std::to_string(i);
      break;
    }
    case EntryKind::other:
      return fail(fmt::format(
          "{} is neither a file, a directory nor a link; blockls will not touch it", p));
    }
    nlohmann::json states = nlohmann::json::array();
    for (const LeftState& s : left[p]) {
      nlohmann::json state = {{"kind", left_kind_name(s.kind)}};
      if (s.kind == EntryKind::file) {
        state["size"] = s.size;
        state["sha256"] = s.sha256;
      }
      states.push_back(std::move(state));
    }
    e["left"] = std::move(states);
    entries.push_back(std::move(e));
  }
  sync_dir(dir_);
  std::string text;
  try {
    text = nlohmann::json{{"version", kJournalVersion},
                          {"root", state.root()},
                          {"roots", state.roots()},
                          {"block", label},
                          {"entries", entries}}
               .dump(1);
  } catch (const nlohmann::json::exception&) {
    return fail("a path is not valid UTF-8 and cannot be journaled");
  }
  std::string why;
  if (!write_private(dir_ + ".json", text, &why)) return fail(why);
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

bool Journal::rollback(std::string* kept, std::string* error) {
  std::string text;
  ParsedJournal journal;
  if (!read_private(dir_ + ".json", &text)) {
    *error = errno_text("cannot read the journal", dir_ + ".json");
    return false;
  }
  if (!parse_journal(text, state_->root(), &journal, error)) return false;
  std::vector<Kept> left_alone;
  if (!restore(state_->files(), journal, dir_, name_, &left_alone, error)) return false;
  // What changed during the block but not by its writes (its own exec, another process) stays
  // as it is, as an exec's changes do; a later recovery could not restore it either.
  remove_journal(dir_);
  *kept = describe_kept(left_alone);
  return true;
}

} // namespace blockls::apply
