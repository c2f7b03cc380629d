// The effects of a simulation as the file operations that reproduce them, in order, for a
// backend that applies them somewhere else (the language server turns them into a
// WorkspaceEdit, lsp/workspace_edit.h): files created, edited (one byte range of the text
// before the edit replaced), renamed, deleted. Protocol-free: paths, byte ranges and texts.
#pragma once

#include "apply/simulate.h"
#include "grammar/model.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace blockls::apply {

struct FileChange {
  enum class Kind { create, edit, rename, remove, remove_tree };
  Kind kind = Kind::edit;
  std::string path;       // absolute (rename: the source)
  std::string new_path;   // rename: the destination
  bool overwrite = false; // rename: the destination exists and is replaced
  FileContent before;     // edit: the text `range` is in (empty for a file just created)
  ByteRange range;        // edit: the bytes of `before` replaced (the part that differs)
  std::string new_text;   // edit: what replaces them
  int block = -1;         // the block that causes it, and its id
  std::string block_id;
};

struct FileChanges {
  std::vector<const BlockSimulation*> blocks; // the blocks that succeeded, in order (pointing
                                              // into the simulation)
  std::vector<FileChange> changes;
  bool only_edits = true; // nothing is created, renamed or deleted
  nlohmann::json results; // per action of every block: clada-shaped results (reads' content)
};

// The changes of every block of `simulation` that succeeded; failed blocks contribute their
// results only. A write to an existing file is one edit covering the bytes that differ (common
// prefix and suffix kept); a new file is a create followed by an edit of the empty text.
// Directories made are implicit in the files created; exec effects are not file changes.
FileChanges file_changes(const Simulation& simulation);

} // namespace blockls::apply
