// File changes to a typed WorkspaceEdit. Each edit's range is converted against the file's text
// just before that edit.
#include "lsp/workspace_edit.h"

#include "diagnostics/file_uri.h"

#include <fmt/format.h>

namespace blockls::lsp {
namespace {

// The annotation of the changes of one block (when the client supports annotations).
std::string annotation_id(int block, const std::string& block_id) {
  return "block-" + block_id + "-" + std::to_string(block);
}

LspTextEdit text_edit(const apply::FileChange& c, PositionEncoding encoding) {
  const std::string& before = c.before.str();
  const LineIndex lines(before);
  return {to_range(PositionMapper(before, lines, encoding), c.range), c.new_text, std::nullopt};
}

} // namespace

WorkspaceEditResult workspace_edit(const apply::FileChanges& changes,
                                   const WorkspaceEditOptions& options) {
  WorkspaceEditResult r;
  WorkspaceEdit edit;
  std::vector<DocumentChange>& document_changes = edit.document_changes.emplace();
  document_changes.reserve(changes.changes.size());
  std::map<std::string, std::vector<LspTextEdit>> plain;
  for (const apply::FileChange& c : changes.changes) {
    std::string uri = file_uri(c.path);
    std::optional<std::string> annotation;
    if (options.change_annotations) annotation = annotation_id(c.block, c.block_id);
    switch (c.kind) {
    case apply::FileChange::Kind::create:
      // (a create is not annotated: the edit that fills the file is)
      document_changes.push_back(
          CreateFile{std::move(uri), CreateFileOptions{false, false}, std::nullopt});
      break;
    case apply::FileChange::Kind::edit: {
      LspTextEdit e = text_edit(c, options.encoding);
      e.annotation_id = std::move(annotation);
      if (changes.only_edits) plain[uri].push_back(e);
      // Filled member by member: GCC 12 at -O3 takes the braced temporary's string for
      // uninitialized (a false -Wmaybe-uninitialized that stops -Werror builds).
      TextDocumentEdit edit;
      edit.text_document.uri = std::move(uri);
      edit.edits.push_back(std::move(e));
      document_changes.push_back(std::move(edit));
      break;
    }
    case apply::FileChange::Kind::remove:
      document_changes.push_back(DeleteFile{std::move(uri), std::nullopt, std::move(annotation)});
      break;
    case apply::FileChange::Kind::rename:
      document_changes.push_back(RenameFile{std::move(uri), file_uri(c.new_path),
                                            RenameFileOptions{c.overwrite, std::nullopt},
                                            std::move(annotation)});
      break;
    case apply::FileChange::Kind::remove_tree:
      document_changes.push_back(
          DeleteFile{std::move(uri), DeleteFileOptions{true, std::nullopt}, std::move(annotation)});
      break;
    }
  }
  if (options.change_annotations && !changes.blocks.empty()) {
    std::map<std::string, ChangeAnnotation>& annotations = edit.change_annotations.emplace();
    for (const apply::BlockSimulation* block : changes.blocks)
      annotations[annotation_id(block->block, block->block_id)] = {
          fmt::format("blockls: block {}", block->block_id), true, std::nullopt};
  }
  r.edit = json(edit);
  if (changes.only_edits) {
    WorkspaceEdit only;
    only.changes = std::move(plain);
    r.changes = json(only);
  }
  r.results = changes.results;
  return r;
}

} // namespace blockls::lsp
