// Resolved paths remembered across the simulations that share them. A check writes nothing, so a
// path resolves the same way every time it is asked within one simulation; the language server
// keeps one memo per configuration across keystrokes and clears it when the files change
// (watched-file events, saves, applies), so an edit does not lstat() every component of every
// path of the transcript again. Thread-safe: analyses of several documents share it.
#pragma once

#include "apply/path_policy.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace blockls::apply {

class PathMemo {
public:
  // resolve_path(config, raw), remembered. A memo serves one configuration only.
  ResolvedPath resolve(const ApplyConfig& config, std::string_view raw);
  // Forgets every answer; epoch() changes, so results computed before are known to be stale.
  void clear();
  uint64_t epoch() const;

private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, ResolvedPath> answers_;
  uint64_t epoch_ = 0;
};

} // namespace blockls::apply
