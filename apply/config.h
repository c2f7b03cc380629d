// What `blockls apply` and `check --root` may touch: the root, other allowed roots, the deny
// globs and whether exec runs. Built once by the CLI (or the language server) and passed down.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace blockls::apply {

// The largest file an action reads (FILE_TOO_LARGE past it): a file's text is held whole,
// with a few copies while a block is checked and applied, so a block naming a multi-gigabyte
// log must get a clear refusal, not exhaust the memory.
inline constexpr uint64_t kDefaultMaxFileBytes = uint64_t{64} << 20;

struct ApplyConfig {
  std::string root;                       // absolute and canonical (no symlinks, no trailing '/')
  std::vector<std::string> allowed_roots; // absolute and canonical; empty = {root}
  std::vector<std::string> deny_globs = {"**/.git/**", "**/.ssh/**", "**/node_modules/**"};
  bool allow_exec = false;
  std::chrono::milliseconds exec_timeout{30000};
  uint64_t max_file_bytes = kDefaultMaxFileBytes; // the sources of one run all use it
};

// The directory under the root that holds journals and the lock; always denied to actions.
inline constexpr const char* kStateDirName = ".blockls";

// Canonicalises `root` (realpath) into a config with the defaults; false (and `error`) when
// the root is not an existing directory.
bool make_config(const std::string& root, ApplyConfig* config, std::string* error);
// Adds an allowed root (canonicalised); false when it does not exist.
bool add_allowed_root(ApplyConfig* config, const std::string& dir, std::string* error);

} // namespace blockls::apply
