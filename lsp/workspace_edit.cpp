// File changes to a typed WorkspaceEdit. Each edit's range is converted against the file's text
// just before that edit; consecutive edits of one file are joined into one (workspace_edit.h).
#include "lsp/workspace_edit.h"

#include "diagnostics/file_uri.h"
#include "grammar/text_edit.h"

#include <fmt/format.h>
#include <optional>

namespace blockls::lsp {
namespace {

// The annotation of the changes of one block (when the client supports annotations).
std::string annotation_id(int block, const std::string& block_id) {
  return "block-" + block_id + "-" + std::to_string(block);
}

LspTextEdit text_edit(const std::string& before, ByteRange range, std::string new_text,
                      PositionEncoding encoding) {
  const LineIndex lines(before);
  return {to_range(PositionMapper(before, lines, encoding), range), std::move(new_text),
          std::nullopt};
}

// The text of an edit's file after it.
std::string text_after(const apply::FileChange& c) {
  const std::string& before = c.before.str();
  return before.substr(0, c.range.begin) + c.new_text + before.substr(c.range.end);
}

// The edits of one file since its last create, rename or delete: the first, where its
// TextDocumentEdit is, and (once a second one is joined to it) the text after the last.
struct EditRun {
  size_t index = 0; // in documentChanges
  const apply::FileChange* first = nullptr;
  std::optional<std::string> after;
};

} // namespace

WorkspaceEditResult workspace_edit(const apply::FileChanges& changes,
                                   const WorkspaceEditOptions& options) {
  WorkspaceEditResult r;
  WorkspaceEdit edit;
  std::vector<DocumentChange>& document_changes = edit.document_changes.emplace();
  document_changes.reserve(changes.changes.size());
  std::map<std::string, EditRun> runs; // by path: the edits still to be joined
  // The URI of a file: its open document's when it has one.
  auto uri_of = [&](const std::string& path) {
    const auto it = options.open_documents.find(path);
    return it != options.open_documents.end() ? it->second.uri : file_uri(path);
  };
  for (const apply::FileChange& c : changes.changes) {
    std::string uri = uri_of(c.path);
    std::optional<std::string> annotation;
    if (options.change_annotations) annotation = annotation_id(c.block, c.block_id);
    if (c.kind != apply::FileChange::Kind::edit) {
      // Edits after this one start a new TextDocumentEdit.
      runs.erase(c.path);
      if (!c.new_path.empty()) runs.erase(c.new_path);
    }
    switch (c.kind) {
    case apply::FileChange::Kind::create:
      // (a create is not annotated: the edit that fills the file is)
      document_changes.push_back(
          CreateFile{std::move(uri), CreateFileOptions{false, false}, std::nullopt});
      break;
    case apply::FileChange::Kind::edit: {
      if (auto run = runs.find(c.path); run != runs.end()) {
        // A later edit of the same file: joined to the run's one edit, which now goes from the
        // text before the first to the text after this one. (Its `before` is the run's text
        // so far; if it were not, it would start a TextDocumentEdit of its own.)
        EditRun& joined = run->second;
        if (!joined.after) joined.after = text_after(*joined.first);
        if (c.before.str() == *joined.after) {
          joined.after = text_after(c);
          const std::string& before = joined.first->before.str();
          const ByteRange span = differing_span(before, *joined.after);
          const size_t suffix = before.size() - span.end;
          LspTextEdit& e = std::get<TextDocumentEdit>(document_changes[joined.index]).edits[0];
          std::optional<std::string> first_annotation = std::move(e.annotation_id);
          e = text_edit(
              before, span,
              joined.after->substr(span.begin, joined.after->size() - suffix - span.begin),
              options.encoding);
          e.annotation_id = std::move(first_annotation);
          break;
        }
      }
      LspTextEdit e = text_edit(c.before.str(), c.range, c.new_text, options.encoding);
      e.annotation_id = std::move(annotation);
      // Filled member by member: GCC 12 at -O3 takes the braced temporary's string for
      // uninitialized (a false -Wmaybe-uninitialized that stops -Werror builds).
      TextDocumentEdit edit;
      edit.text_document.uri = std::move(uri);
      if (const auto open = options.open_documents.find(c.path);
          open != options.open_documents.end())
        edit.text_document.version = open->second.version;
      edit.edits.push_back(std::move(e));
      runs[c.path] = EditRun{document_changes.size(), &c, std::nullopt};
      document_changes.push_back(std::move(edit));
      break;
    }
    case apply::FileChange::Kind::remove:
      document_changes.push_back(DeleteFile{std::move(uri), std::nullopt, std::move(annotation)});
      break;
    case apply::FileChange::Kind::rename:
      document_changes.push_back(RenameFile{std::move(uri), uri_of(c.new_path),
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
    // Only edits: one run per file, its edit relative to the file before them all.
    WorkspaceEdit only;
    std::map<std::string, std::vector<LspTextEdit>>& plain = only.changes.emplace();
    for (const DocumentChange& change : *edit.document_changes)
      if (const auto* e = std::get_if<TextDocumentEdit>(&change)) {
        std::vector<LspTextEdit>& edits = plain[e->text_document.uri];
        edits.insert(edits.end(), e->edits.begin(), e->edits.end());
      }
    r.changes = json(only);
  }
  r.results = changes.results;
  return r;
}

} // namespace blockls::lsp
