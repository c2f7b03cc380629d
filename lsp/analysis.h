// What the language server knows about one version of a document, computed off the protocol
// thread by the engine: check_with_verified_fixes, the apply plan and (when a root is
// configured) the workspace simulation. Protocol-free: the server turns an Analysis into LSP
// JSON. Only what publishing needs is computed eagerly: without a workspace root the plan is
// built on first use (code lenses, symbols, hover, execute), with one it is needed at once
// because the simulation's workspace diagnostics are published.
#pragma once

#include "apply/config.h"
#include "apply/plan.h"
#include "apply/simulate.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"
#include "grammar/dialect_set.h"
#include "lsp/settings.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace blockls::lsp {

// The simulation's view of the disk: apply::DiskSource with the contents of regular files
// cached under (size, mtime, ctime, inode, device), so files that did not change are not read
// again on every keystroke (lstat still runs for every path, so a file changed behind the
// server's back is seen at the next analysis). Directory listings are not cached. Shared by the
// analyses of a session (thread-safe); clear() on didChangeWatchedFiles, save and apply.
class CachedDiskSource final : public apply::FileSource {
public:
  explicit CachedDiskSource(size_t max_bytes = 64u * 1024 * 1024) : max_bytes_(max_bytes) {}
  apply::FileState read(const std::string& path) const override;
  std::vector<std::string> list_tree(const std::string& dir) const override;
  void clear();

  struct Stats {
    size_t hits = 0, misses = 0, bytes = 0;
  };
  Stats stats() const;

private:
  struct Key {
    int64_t size = 0, mtime_ns = 0, ctime_ns = 0;
    uint64_t ino = 0, dev = 0;
    uint32_t mode = 0;
    bool operator==(const Key&) const = default;
  };
  static Key key_of(const struct stat& st);
  struct Entry {
    Key key;
    apply::FileContent content; // shared with the simulations that read it
  };
  apply::DiskSource disk_;
  size_t max_bytes_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, Entry> entries_;
  mutable Stats stats_;
};

// Settings resolved once (catalog loaded, roots canonicalised); shared by every analysis.
struct AnalysisContext {
  Settings settings;
  std::shared_ptr<const ActionCatalog> catalog;
  std::optional<apply::ApplyConfig> apply_config; // nullopt: no root, no workspace checks
  std::vector<std::string> problems;              // settings that could not be honoured
  // Path resolutions shared by the analyses of this configuration; cleared (with the file
  // cache) when the files change.
  std::shared_ptr<apply::PathMemo> paths = std::make_shared<apply::PathMemo>();
};

std::shared_ptr<const AnalysisContext>
make_context(const Settings& settings, const std::vector<std::string>& workspace_roots);

struct Analysis {
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const AnalysisContext> context;
  int64_t version = 0;
  uint64_t generation = 0;
  bool too_large = false; // over max_document_bytes: nothing but one diagnostic
  CheckedDocument checked;
  std::optional<apply::Simulation> simulation; // only with a workspace root
  uint64_t path_epoch = 0;                     // context->paths->epoch() the simulation used

  std::vector<Diagnostic> diagnostics; // engine + workspace diagnostics, by line
  std::chrono::microseconds elapsed{0};
  bool incremental = false; // the engine re-checked only what changed since the base
  std::vector<uint32_t> block_error_counts; // per block: error-severity diagnostics (all kinds)

  const LineIndex& lines() const { return checked.parsed.lines; }
  // The apply plan, built on first use (thread-safe; empty when too_large).
  const apply::Plan& plan() const;
  // The block whose lines contain `line`, or -1.
  int block_at_line(uint32_t line) const;
  // Error-severity diagnostics of block `b` (engine and workspace).
  size_t block_errors(int b) const;
  const apply::BlockSimulation* block_simulation(int b) const;

private:
  friend std::shared_ptr<const Analysis> analyze(std::shared_ptr<const std::string>, int64_t,
                                                 uint64_t, std::shared_ptr<const AnalysisContext>,
                                                 std::shared_ptr<const apply::FileSource>,
                                                 std::shared_ptr<const Analysis>);
  mutable std::once_flag plan_once_;
  mutable apply::Plan plan_;
};

// `files` is what the workspace simulation reads (only used with a root); null: the disk,
// uncached. `base`, an earlier analysis of the same document, lets the engine re-check only
// the part of the text that changed since (the result is the same as without it); it is used
// only when it was made with the same context.
std::shared_ptr<const Analysis> analyze(std::shared_ptr<const std::string> text, int64_t version,
                                        uint64_t generation,
                                        std::shared_ptr<const AnalysisContext> context,
                                        std::shared_ptr<const apply::FileSource> files = nullptr,
                                        std::shared_ptr<const Analysis> base = nullptr);

} // namespace blockls::lsp
