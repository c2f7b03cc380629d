// File changes to WorkspaceEdit JSON. Each edit's range is converted against the file's text
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

json text_edit(const apply::FileChange& c, PositionEncoding encoding) {
  const std::string& before = c.before.str();
  const LineIndex lines(before);
  return {{"range", PositionMapper(before, lines, encoding).range_json(c.range)},
          {"newText", c.new_text}};
}

} // namespace

WorkspaceEditResult workspace_edit(const apply::FileChanges& changes,
                                   const WorkspaceEditOptions& options) {
  WorkspaceEditResult r;
  json document_changes = json::array();
  json plain = json::object();
  for (const apply::FileChange& c : changes.changes) {
    const std::string uri = file_uri(c.path);
    const std::string annotation = annotation_id(c.block, c.block_id);
    json change;
    switch (c.kind) {
    case apply::FileChange::Kind::create:
      // (a create is not annotated: the edit that fills the file is)
      document_changes.push_back({{"kind", "create"},
                                  {"uri", uri},
                                  {"options", {{"overwrite", false}, {"ignoreIfExists", false}}}});
      continue;
    case apply::FileChange::Kind::edit: {
      json edit = text_edit(c, options.encoding);
      if (options.change_annotations) edit["annotationId"] = annotation;
      document_changes.push_back(
          {{"textDocument", {{"uri", uri}, {"version", nullptr}}}, {"edits", {edit}}});
      plain[uri].push_back(edit);
      continue;
    }
    case apply::FileChange::Kind::remove:
      change = {{"kind", "delete"}, {"uri", uri}};
      break;
    case apply::FileChange::Kind::rename:
      change = {{"kind", "rename"},
                {"oldUri", uri},
                {"newUri", file_uri(c.new_path)},
                {"options", {{"overwrite", c.overwrite}}}};
      break;
    case apply::FileChange::Kind::remove_tree:
      change = {{"kind", "delete"}, {"uri", uri}, {"options", {{"recursive", true}}}};
      break;
    }
    if (options.change_annotations) change["annotationId"] = annotation;
    document_changes.push_back(std::move(change));
  }
  r.edit = {{"documentChanges", document_changes}};
  if (options.change_annotations && !changes.blocks.empty()) {
    json annotations = json::object();
    for (const apply::BlockSimulation* block : changes.blocks)
      annotations[annotation_id(block->block, block->block_id)] = {
          {"label", fmt::format("blockls: block {}", block->block_id)},
          {"needsConfirmation", true}};
    r.edit["changeAnnotations"] = annotations;
  }
  r.changes = changes.only_edits ? json{{"changes", plain}} : json();
  r.results = changes.results;
  return r;
}

} // namespace blockls::lsp
