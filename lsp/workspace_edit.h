// The WorkspaceEdit the server sends with workspace/applyEdit to run blocks in the editor:
// apply/'s protocol-free file changes as documentChanges (CreateFile, TextDocumentEdit,
// RenameFile, DeleteFile), ranges converted by PositionMapper in the negotiated encoding.
#pragma once

#include "apply/file_changes.h"
#include "lsp/protocol.h"
#include "lsp/protocol_edits.h"

namespace blockls::lsp {

struct WorkspaceEditOptions {
  PositionEncoding encoding = PositionEncoding::utf16;
  bool change_annotations = false; // client supports changeAnnotations
};

// `edit` and `changes` are a WorkspaceEdit built as the struct, kept as its json because they
// travel on as json (ApplyWorkspaceEditParams, the results of a run).
struct WorkspaceEditResult {
  json edit;    // {"documentChanges": [...]} (+ changeAnnotations)
  json changes; // {"changes": {uri: [TextEdit]}}, null when creates/renames/deletes are needed
  json results; // per action: clada-shaped results (reads return content here)
};

WorkspaceEditResult workspace_edit(const apply::FileChanges& changes,
                                   const WorkspaceEditOptions& options = {});

} // namespace blockls::lsp
