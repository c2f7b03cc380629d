// The LSP backend of the plan: the effects of the blocks that would apply become one
// WorkspaceEdit (documentChanges: CreateFile, TextDocumentEdit, RenameFile, DeleteFile) that
// the language server sends with workspace/applyEdit. Protocol-free: plain JSON out.
#pragma once

#include "apply/simulate.h"
#include "diagnostics/file_uri.h" // file_uri: the URIs of the edit

#include <nlohmann/json.hpp>
#include <string>

namespace blockls::apply {

struct WorkspaceEditOptions {
  std::string position_encoding = "utf-16"; // "utf-16" or "utf-8" (as negotiated)
  bool change_annotations = false;          // client supports changeAnnotations
};

struct WorkspaceEditResult {
  nlohmann::json edit; // {"documentChanges": [...]} (+ changeAnnotations)
  nlohmann::json
      changes; // {"changes": {uri: [TextEdit]}} or null when creates/renames/deletes are needed
  nlohmann::json results; // per action: clada-shaped results (reads return content here)
};

// Effects of every block of `simulation` that succeeded; failed blocks contribute nothing.
WorkspaceEditResult workspace_edit(const Simulation& simulation,
                                   const WorkspaceEditOptions& options = {});

} // namespace blockls::apply
