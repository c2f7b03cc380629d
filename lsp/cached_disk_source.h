// The language server's view of the disk for workspace checks: apply::DiskSource with the
// contents of regular files cached under (size, mtime, ctime, inode, device, mode), and a
// record of every path a simulation read, so that the next keystroke's analysis can learn
// which files changed since an earlier one (refresh() looks at each recorded path again) and
// take over every block that observed none of them without reading its files again. Shared by
// the analyses of a session (thread-safe); clear() when paths may resolve differently.
#pragma once

#include "apply/file_source.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unordered_map>
#include <vector>

namespace blockls::lsp {

class CachedDiskSource final : public apply::FileSource {
public:
  explicit CachedDiskSource(size_t max_bytes = 64u * 1024 * 1024) : max_bytes_(max_bytes) {}
  apply::FileState read(const std::string& path) const override;
  std::vector<std::string> list_tree(const std::string& dir) const override;

  // Looks at every recorded path again and records those that changed since they were last
  // seen. One lstat per path that exists; a path that did not exist is answered by its nearest
  // existing ancestor, looked at once per refresh: as long as that ancestor is unchanged
  // (creating an entry changes its directory's mtime) and its mtime is older than the racy
  // window before it was recorded, nothing below it appeared. Returns the generation a
  // simulation starting now reads at: a change seen later gets a later one.
  uint64_t refresh();
  // The paths seen changed after `generation` (which refresh() returned), or nullopt when
  // that is no longer known (clear() since, or too many changes to keep).
  std::optional<std::vector<std::string>> changed_since(uint64_t generation) const;
  // Forgets every content and record; earlier generations become unknown.
  void clear();

  struct Stats {
    size_t hits = 0, misses = 0, bytes = 0, paths = 0;
    size_t looked = 0; // paths the last refresh() examined one by one (not by an ancestor)
  };
  Stats stats() const;

private:
  struct Key {
    bool exists = false; // the rest is zero for a path that does not exist
    int64_t size = 0, mtime_ns = 0, ctime_ns = 0;
    uint64_t ino = 0, dev = 0;
    uint32_t mode = 0;
    bool operator==(const Key&) const = default;
  };
  static Key key_of(const std::string& path);
  static Key key_of(const struct stat& st);
  // An existing ancestor of missing paths, as it was at seen_ns (wall clock, taken before
  // the paths were found missing).
  struct Anchor {
    std::string path;
    Key key;
    int64_t seen_ns = 0;
  };
  struct Entry {
    std::string path;
    Key key;                    // what the path was when last seen
    apply::FileContent content; // regular files whose content is cached
    bool has_content = false;
    // A path that does not exist: its nearest existing ancestor (shared by the paths below
    // it). Null: not known yet.
    std::shared_ptr<const Anchor> anchor;
  };
  // Whether nothing was created below `a` since it was recorded, given that its lstat now
  // gives `now`.
  static bool anchor_holds(const Anchor& a, const Key& now);
  // Records what `path` is now; a change from what was recorded is logged. Under mutex_.
  Entry& record(const std::string& path, const Key& key) const;
  void record(Entry& e, const Key& key) const;
  void log_change(const std::string& path) const;

  apply::DiskSource disk_;
  size_t max_bytes_;
  mutable std::mutex mutex_;
  // Every path read, in a vector (refresh() walks them all on every keystroke: contiguous
  // memory, not a hash table's nodes) with an index by path. Entries are only ever added,
  // until clear() (which bumps clears_).
  mutable std::vector<Entry> entries_;
  // entries_[i].anchor.get(), side by side: refresh() walks this (8 bytes a path) and reads an
  // entry itself only for a path it looks at (one that exists or has no anchor) or an anchor
  // not met before; walking the entries was ~0.6 ms per keystroke at 10 MB (70,000 paths).
  mutable std::vector<const Anchor*> entry_anchors_;
  mutable std::unordered_map<std::string, size_t> index_;
  mutable uint64_t clears_ = 0;
  mutable Stats stats_;
  mutable uint64_t generation_ = 1;
  // Changes seen, oldest first: (generation, path). Generations up to log_start_ are not all
  // in it any more.
  mutable std::vector<std::pair<uint64_t, std::string>> log_;
  mutable uint64_t log_start_ = 0;
};

} // namespace blockls::lsp
