// Effects to file changes: the differing span of each write, the operations of the others.
#include "apply/file_changes.h"

#include "grammar/text_edit.h"

namespace blockls::apply {
namespace {

// The write of `after` over `before` as one edit of the bytes that differ.
FileChange edit(const std::string& path, const FileContent& before, std::string_view after) {
  FileChange c;
  c.kind = FileChange::Kind::edit;
  c.path = path;
  c.before = before;
  const std::string& text = before.str();
  const ByteRange span = differing_span(text, after);
  const size_t suffix = text.size() - span.end;
  c.range = span;
  c.new_text = std::string(after.substr(span.begin, after.size() - suffix - span.begin));
  return c;
}

} // namespace

FileChanges file_changes(const Simulation& simulation) {
  FileChanges out;
  out.results = nlohmann::json::array();
  for (const BlockSimulation& block : simulation.blocks) {
    if (block.ok) out.blocks.push_back(&block);
    for (const ActionOutcome& o : block.actions) {
      out.results.push_back(result_json(o));
      if (!block.ok) continue;
      for (const FileEffect& e : *o.effects) {
        FileChange c;
        switch (e.kind) {
        case FileEffect::Kind::write:
          if (!e.before) {
            c.kind = FileChange::Kind::create;
            c.path = e.path;
            c.block = block.block;
            c.block_id = block.block_id;
            out.changes.push_back(std::move(c));
            out.only_edits = false;
          }
          c = edit(e.path, e.before.value_or(FileContent()), e.after.str());
          break;
        case FileEffect::Kind::remove:
          c.kind = FileChange::Kind::remove;
          c.path = e.path;
          break;
        case FileEffect::Kind::move:
          c.kind = FileChange::Kind::rename;
          c.path = e.path;
          c.new_path = e.new_path;
          c.overwrite = e.dest_before.has_value();
          break;
        case FileEffect::Kind::remove_dir:
          c.kind = FileChange::Kind::remove_tree;
          c.path = e.path;
          break;
        case FileEffect::Kind::make_dir: // implicit: folders of new files are created with them
        case FileEffect::Kind::exec:     // run by the caller, reported as a result
          continue;
        }
        out.only_edits = out.only_edits && c.kind == FileChange::Kind::edit;
        c.block = block.block;
        c.block_id = block.block_id;
        out.changes.push_back(std::move(c));
      }
    }
  }
  return out;
}

} // namespace blockls::apply
