// PathMemo (see path_memo.h).
#include "apply/path_memo.h"

namespace blockls::apply {

ResolvedPath PathMemo::resolve(const ApplyConfig& config, std::string_view raw) {
  const std::string key(raw);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = answers_.find(key); it != answers_.end()) return it->second;
  }
  // Resolved outside the lock: it lstat()s, and another document's analysis may be waiting.
  ResolvedPath resolved = resolve_path(config, raw);
  std::lock_guard<std::mutex> lock(mutex_);
  answers_.try_emplace(key, resolved);
  return resolved;
}

void PathMemo::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  answers_.clear();
  ++epoch_;
}

uint64_t PathMemo::epoch() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return epoch_;
}

} // namespace blockls::apply
