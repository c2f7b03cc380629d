// What the language server knows about one version of a document, computed off the protocol
// thread by the engine: check_document, the apply plan and (when a root is configured) the
// workspace simulation. Protocol-free: the server turns an Analysis into LSP JSON.
#pragma once

#include "apply/config.h"
#include "apply/plan.h"
#include "apply/simulate.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace blockls::lsp {

// The user's settings (initializationOptions / workspace/didChangeConfiguration).
struct Settings {
  bool telt = true;
  bool nesl = true;
  std::vector<std::string> allowed_roots; // empty: the workspace folders
  std::vector<std::string> deny_patterns; // empty: the apply module's defaults
  bool exec_allowed = false;
  std::string schema_file; // clada YAML (merged) or catalog JSON (replaces)
  size_t max_document_bytes = 32u * 1024 * 1024;
  std::string docs_url; // base URL of docs/codes/ pages
};

// Settings resolved once (catalog loaded, roots canonicalised); shared by every analysis.
struct AnalysisContext {
  Settings settings;
  std::shared_ptr<const ActionCatalog> catalog;
  std::optional<apply::ApplyConfig> apply_config; // nullopt: no root, no workspace checks
  std::vector<std::string> problems;              // settings that could not be honoured
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
  apply::Plan plan;
  std::optional<apply::Simulation> simulation;
  std::vector<Diagnostic> diagnostics; // engine + workspace diagnostics, by line
  std::chrono::microseconds elapsed{0};

  const LineIndex& lines() const { return checked.parsed.lines; }
  // The block whose lines contain `line`, or -1.
  int block_at_line(uint32_t line) const;
  // Error-severity diagnostics of block `b` (engine and workspace).
  size_t block_errors(int b) const;
  const apply::BlockSimulation* block_simulation(int b) const;
};

std::shared_ptr<const Analysis> analyze(std::shared_ptr<const std::string> text, int64_t version,
                                        uint64_t generation,
                                        std::shared_ptr<const AnalysisContext> context);

} // namespace blockls::lsp
