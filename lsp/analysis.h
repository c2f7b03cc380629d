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
#include "lsp/cached_disk_source.h"
#include "lsp/settings.h"
#include "lsp/text_origin.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace blockls::lsp {

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

// The deny globs actions are checked against: the apply module's defaults (**/.git/**,
// **/.ssh/**, **/node_modules/**), then the denyPatterns setting's, each once. The setting adds
// to the defaults, as `blockls apply --deny` does; it cannot remove them.
std::vector<std::string> effective_deny_globs(const Settings& settings);

std::shared_ptr<const AnalysisContext>
make_context(const Settings& settings, const std::vector<std::string>& workspace_roots);

// Storage of a superseded analysis for the next one to write over (spare_storage).
struct SpareStorage {
  std::vector<apply::PlannedAction> actions;
  std::vector<apply::BlockSimulation> blocks;
};

struct Analysis {
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const AnalysisContext> context;
  int64_t version = 0;
  uint64_t generation = 0;
  uint64_t text_id = 0;   // TextOrigin::id of `text` (0: not known)
  bool too_large = false; // not checked (see `failure`): nothing but one diagnostic
  // Why the check failed when it did (it ran out of memory): too_large is then set too, and
  // this is the one diagnostic's message. Empty for a document over max_document_bytes.
  std::string failure;
  std::optional<apply::Simulation> simulation; // only with a workspace root
  uint64_t path_epoch = 0;                     // context->paths->epoch() the simulation used
  uint64_t files_generation = 0;               // the file cache's generation the simulation read at

  std::vector<Diagnostic> diagnostics; // engine + workspace diagnostics, by line
  std::chrono::microseconds elapsed{0};
  bool incremental = false; // the engine re-checked only what changed since the base
  std::vector<uint32_t> block_error_counts; // per block: error-severity diagnostics (all kinds)

  // The engine's result; shared with the analysis this one was made from when the text is the
  // same (a re-check for files changed on disk), together with its plan.
  const CheckedDocument& checked() const { return *checked_; }
  const LineIndex& lines() const { return checked_->parsed.lines; }
  // The apply plan, built on first use (thread-safe; empty when too_large).
  const apply::Plan& plan() const;
  // The same, shared (an analysis of the same text takes it over).
  std::shared_ptr<const apply::Plan> plan_ptr() const {
    plan();
    return plan_;
  }
  // The block whose lines contain `line`, or -1.
  int block_at_line(uint32_t line) const;
  // Error-severity diagnostics of block `b` (engine and workspace).
  size_t block_errors(int b) const;
  const apply::BlockSimulation* block_simulation(int b) const;

private:
  friend std::shared_ptr<const Analysis> failed_analysis(std::shared_ptr<const std::string>,
                                                         int64_t, uint64_t,
                                                         std::shared_ptr<const AnalysisContext>,
                                                         std::string);
  friend std::shared_ptr<const Analysis> analyze(std::shared_ptr<const std::string>, int64_t,
                                                 uint64_t, std::shared_ptr<const AnalysisContext>,
                                                 std::shared_ptr<CachedDiskSource>,
                                                 std::shared_ptr<const Analysis>, const TextOrigin&,
                                                 struct SpareStorage*);
  friend struct SpareStorage spare_storage(std::shared_ptr<const Analysis>);
  std::shared_ptr<const CheckedDocument> checked_;
  mutable std::once_flag plan_once_;
  mutable std::shared_ptr<const apply::Plan> plan_;
};

// `files` is what the workspace simulation reads (only used with a root); null: the disk,
// uncached. `base`, an earlier analysis of the same document, lets the engine re-check only
// the part of the text that changed since (the result is the same as without it); it is used
// only when it was made with the same context. `origin`: where `text` came from; when it was
// edited from the base's text, the edit's span saves comparing the two texts to find it.
// `spare`: see spare_storage (what of it the analysis uses is taken, and left empty).
std::shared_ptr<const Analysis> analyze(std::shared_ptr<const std::string> text, int64_t version,
                                        uint64_t generation,
                                        std::shared_ptr<const AnalysisContext> context,
                                        std::shared_ptr<CachedDiskSource> files = nullptr,
                                        std::shared_ptr<const Analysis> base = nullptr,
                                        const TextOrigin& origin = {},
                                        SpareStorage* spare = nullptr);

// The simulated blocks and the planned actions of an analysis nobody will read again, taken
// out of it when this is its last reference (the rest of it is freed here; nothing is taken
// otherwise, nor a plan another analysis shares): `spare` for the next analyze, which writes
// its own plan's actions and simulation's blocks over them (apply::build_plan's `spare`,
// apply::SimulationOptions::spare) instead of into new storage while these are destroyed one
// by one.
SpareStorage spare_storage(std::shared_ptr<const Analysis> analysis);

// The analysis of a document whose check threw (`why`: what the user is told), so that the
// server publishes that instead of going down with the worker thread; like a document over
// the size limit, it offers nothing else, and the next change checks it afresh.
std::shared_ptr<const Analysis> failed_analysis(std::shared_ptr<const std::string> text,
                                                int64_t version, uint64_t generation,
                                                std::shared_ptr<const AnalysisContext> context,
                                                std::string why);

} // namespace blockls::lsp
