// CachedDiskSource (see cached_disk_source.h).
#include "lsp/cached_disk_source.h"

#include <algorithm>
#include <ctime>

namespace blockls::lsp {
namespace {

// More changes than this are not kept one by one: analyses older than them compare every
// observation again (a checkout that touched thousands of files).
constexpr size_t kMaxLoggedChanges = 100000;

// How long after a directory's mtime a change may still carry the same mtime: timestamps
// come from a clock that lags by a tick (a few ms) on sub-second filesystems; one whose
// timestamps have no sub-second part (FAT, HFS+, ext3) may round by up to 2 s.
constexpr int64_t kRacyNs = 100'000'000;
constexpr int64_t kRacyCoarseNs = 3'000'000'000;

int64_t wall_clock_ns() {
  struct timespec ts {};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace

bool CachedDiskSource::anchor_holds(const Anchor& a, const Key& now) {
  if (!(now == a.key)) return false;
  const int64_t window = a.key.mtime_ns % 1000000000 == 0 ? kRacyCoarseNs : kRacyNs;
  return a.key.mtime_ns < a.seen_ns - window;
}

CachedDiskSource::Key CachedDiskSource::key_of(const struct stat& st) {
  Key key;
  key.exists = true;
  key.size = st.st_size;
  key.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  key.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  key.ino = st.st_ino;
  key.dev = st.st_dev;
  key.mode = st.st_mode;
  return key;
}

// lstat of `path` as a key; a path that cannot be examined counts as missing.
CachedDiskSource::Key CachedDiskSource::key_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return key_of(st);
}

void CachedDiskSource::log_change(const std::string& path) const {
  if (log_.size() >= kMaxLoggedChanges) {
    log_.clear();
    log_start_ = generation_;
  }
  // A generation later than any handed out: every analysis that saw the old state has an
  // earlier one, so changed_since() reports the path to it.
  log_.emplace_back(++generation_, path);
}

CachedDiskSource::Entry& CachedDiskSource::record(const std::string& path, const Key& key) const {
  const auto [it, inserted] = index_.try_emplace(path, entries_.size());
  if (inserted) {
    entry_anchors_.push_back(nullptr);
    Entry& e = entries_.emplace_back();
    e.path = path;
    e.key = key;
    return e;
  }
  Entry& e = entries_[it->second];
  record(e, key);
  return e;
}

void CachedDiskSource::record(Entry& e, const Key& key) const {
  if (e.key == key) return;
  log_change(e.path);
  if (e.has_content) stats_.bytes -= e.content.size();
  e.content = {};
  e.has_content = false;
  e.anchor.reset();
  entry_anchors_[static_cast<size_t>(&e - entries_.data())] = nullptr;
  e.key = key;
}

apply::FileState CachedDiskSource::read(const std::string& path) const {
  // What apply::DiskSource::read returns, with one lstat for the common cases.
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    record(path, {});
    return {}; // missing
  }
  const Key key = key_of(st);
  if (!S_ISREG(st.st_mode)) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      record(path, key);
    }
    if (!S_ISDIR(st.st_mode)) return disk_.read(path); // symlinks and others: not cached
    apply::FileState s;
    s.kind = apply::FileState::Kind::directory;
    s.mode = st.st_mode & 07777;
    return s;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const Entry& e = record(path, key);
    if (e.has_content) {
      ++stats_.hits;
      apply::FileState s;
      s.kind = apply::FileState::Kind::file;
      s.content = e.content;
      s.mode = key.mode & 07777;
      return s;
    }
  }
  apply::FileState s = disk_.read(path);
  // Cached only when the file did not change while it was read; if it did, the next lstat
  // sees a key other than the one recorded and logs the change.
  struct stat again {};
  if (s.kind != apply::FileState::Kind::file || ::lstat(path.c_str(), &again) != 0 ||
      !S_ISREG(again.st_mode) || !(key_of(again) == key) ||
      static_cast<int64_t>(s.content.size()) != key.size)
    return s;
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.misses;
  if (s.content.size() > max_bytes_) return s;
  if (stats_.bytes + s.content.size() > max_bytes_) { // simple bound: drop every content
    for (Entry& e : entries_) {
      e.content = {};
      e.has_content = false;
    }
    stats_.bytes = 0;
  }
  const auto it = index_.find(path);
  if (it == index_.end()) return s; // cleared meanwhile
  Entry& e = entries_[it->second];
  if (!(e.key == key) || e.has_content) return s; // changed or cached meanwhile
  e.content = s.content;
  e.has_content = true;
  stats_.bytes += s.content.size();
  return s;
}

std::vector<std::string> CachedDiskSource::list_tree(const std::string& dir) const {
  return disk_.list_tree(dir); // listings are not recorded: reuse always compares them
}

uint64_t CachedDiskSource::refresh() {
  const int64_t started = wall_clock_ns(); // before any lstat of this refresh
  // lstat runs outside the lock (another document's analysis may be reading); only the paths
  // that must be looked at one by one are copied out, with their entry's index.
  struct Look {
    size_t entry;
    std::string path;
    Key now;
    std::shared_ptr<const Anchor> anchor; // for a path found missing
  };
  std::vector<Look> looks;
  // The anchors of the missing paths (few: one per directory written into) and whether each
  // still holds; the last one found is tried first, as paths below one directory come in runs.
  std::vector<std::pair<std::shared_ptr<const Anchor>, bool>> anchors;
  std::vector<const Anchor*> known; // anchors[k].first.get(): the walks compare these
  size_t last = 0;
  const auto anchor_index = [&](const Anchor* a) {
    if (last < known.size() && known[last] == a) return last;
    for (size_t k = 0; k < known.size(); ++k)
      if (known[k] == a) return last = k;
    return known.size(); // not there
  };
  uint64_t clears = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    clears = clears_;
    for (size_t i = 0; i < entry_anchors_.size(); ++i) {
      const Anchor* const anchor = entry_anchors_[i]; // null: the path exists, or has no anchor yet
      if (!anchor)
        looks.push_back({i, entries_[i].path, {}, nullptr});
      else if (anchor_index(anchor) == known.size()) {
        anchors.emplace_back(entries_[i].anchor, false);
        known.push_back(anchor);
      }
    }
  }
  bool all_hold = true;
  for (auto& [anchor, holds] : anchors) {
    holds = anchor_holds(*anchor, key_of(anchor->path));
    all_hold = all_hold && holds;
  }
  if (!all_hold) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (clears != clears_) return generation_;
    for (size_t i = 0; i < entry_anchors_.size(); ++i) {
      if (const Anchor* const anchor = entry_anchors_[i]) {
        const size_t a = anchor_index(anchor);
        if (a == known.size() || !anchors[a].second)
          looks.push_back({i, entries_[i].path, {}, nullptr});
      }
    }
  }
  // A missing path's nearest existing ancestor, found once per refresh for the paths below it.
  std::unordered_map<std::string, Key> seen;
  std::unordered_map<std::string, std::shared_ptr<const Anchor>> new_anchors;
  auto key_now = [&](const std::string& path) -> const Key& {
    auto it = seen.find(path);
    if (it == seen.end()) it = seen.emplace(path, key_of(path)).first;
    return it->second;
  };
  for (Look& l : looks) {
    l.now = key_of(l.path);
    if (l.now.exists) continue;
    std::string up = l.path;
    do {
      up = apply::parent_of(up);
    } while (up != "/" && !key_now(up).exists);
    std::shared_ptr<const Anchor>& a = new_anchors[up];
    if (!a) a = std::make_shared<const Anchor>(Anchor{up, key_now(up), started});
    l.anchor = a;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (clears != clears_) return generation_; // everything forgotten meanwhile
  stats_.looked = looks.size();
  for (Look& l : looks) {
    Entry& e = entries_[l.entry];
    record(e, l.now);
    if (!l.now.exists && e.key == l.now) {
      e.anchor = std::move(l.anchor);
      entry_anchors_[l.entry] = e.anchor.get();
    }
  }
  return generation_;
}

std::optional<std::vector<std::string>> CachedDiskSource::changed_since(uint64_t generation) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (generation < log_start_) return std::nullopt;
  std::vector<std::string> out;
  for (auto it = log_.rbegin(); it != log_.rend() && it->first > generation; ++it)
    out.push_back(it->second);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void CachedDiskSource::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  entry_anchors_.clear();
  index_.clear();
  ++clears_;
  stats_.bytes = 0;
  log_.clear();
  log_start_ = ++generation_;
}

CachedDiskSource::Stats CachedDiskSource::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats s = stats_;
  s.paths = entries_.size();
  return s;
}

} // namespace blockls::lsp
