// The user's settings (initializationOptions / workspace/didChangeConfiguration): the struct,
// how they are read from the client's JSON, and how showDebugInfo reports them.
#pragma once

#include "grammar/dialect_set.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace blockls::lsp {

struct Settings {
  DialectSet dialects = DialectSet::all();
  std::vector<std::string> allowed_roots; // empty: the workspace folders
  std::vector<std::string> deny_patterns; // added to the apply module's defaults
  bool exec_allowed = false;
  std::string schema_file; // clada YAML (merged) or catalog JSON (replaces)
  size_t max_document_bytes = 32u * 1024 * 1024;
  std::string docs_url; // base URL of docs/codes/ pages
};

// Reads the blockls settings from `raw` (either the settings object itself or
// {"blockls": {...}}) over `settings`: fields absent stay, a mistyped one stays and is described
// in `problems`. Not an object: nothing changes.
void read_settings(const nlohmann::json& raw, Settings* settings,
                   std::vector<std::string>* problems);

// The settings as showDebugInfo reports them (one flag per registered dialect).
nlohmann::json settings_json(const Settings& settings);

} // namespace blockls::lsp
