// The WorkspaceEdit the server sends with workspace/applyEdit to run blocks in the editor:
// apply/'s protocol-free file changes as documentChanges (CreateFile, TextDocumentEdit,
// RenameFile, DeleteFile), ranges converted by PositionMapper in the negotiated encoding.
#pragma once

#include "apply/file_changes.h"
#include "lsp/protocol.h"
#include "lsp/protocol_edits.h"

#include <cstdint>
#include <map>
#include <string>

namespace blockls::lsp {

// A file the client has open in the server: its edits are addressed to that document (its URI,
// which may name the file through a symbolic link) at that version, so that a client whose
// buffer moved on rejects them instead of applying them at the wrong place.
struct OpenDocument {
  std::string uri;
  int64_t version = 0;
};

struct WorkspaceEditOptions {
  PositionEncoding encoding = PositionEncoding::utf16;
  bool change_annotations = false; // client supports changeAnnotations
  // Open documents by the absolute path the simulation uses for their file. Other files' edits
  // carry version null ("the content on disk is the truth", LSP 3.17).
  std::map<std::string, OpenDocument> open_documents;
};

// `edit` and `changes` are a WorkspaceEdit built as the struct, kept as its json because they
// travel on as json (ApplyWorkspaceEditParams, the results of a run).
struct WorkspaceEditResult {
  json edit;    // {"documentChanges": [...]} (+ changeAnnotations)
  json changes; // {"changes": {uri: [TextEdit]}}, null when creates/renames/deletes are needed
  json results; // per action: clada-shaped results (reads return content here)
};

// One TextDocumentEdit per run of edits of a file (the edits of several actions or blocks on one
// file, with no create, rename or delete of it between them, become one edit of the text before
// the first over the bytes that differ after the last): a TextDocumentEdit's edits all refer to
// the version it names, and a client checks that version before each TextDocumentEdit.
WorkspaceEditResult workspace_edit(const apply::FileChanges& changes,
                                   const WorkspaceEditOptions& options = {});

} // namespace blockls::lsp
