// Effects to WorkspaceEdit. A write to an existing file becomes one TextEdit covering the
// bytes that differ (common prefix and suffix kept), with its range computed against the
// file's text just before that effect, in the negotiated position encoding.
#include "apply/workspace_edit.h"

#include "grammar/line_index.h"
#include "grammar/text_edit.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

nlohmann::json position(std::string_view text, const LineIndex& lines, size_t offset, bool utf8) {
  const uint32_t line = lines.line_of(offset);
  const size_t column = utf8 ? lines.utf8_column(offset) : lines.utf16_column(text, offset);
  return {{"line", line}, {"character", column}};
}

nlohmann::json text_edit(std::string_view before, std::string_view after, bool utf8) {
  const ByteRange span = differing_span(before, after);
  const size_t prefix = span.begin, suffix = before.size() - span.end;
  const LineIndex lines(before);
  return {{"range",
           {{"start", position(before, lines, prefix, utf8)},
            {"end", position(before, lines, before.size() - suffix, utf8)}}},
          {"newText", std::string(after.substr(prefix, after.size() - suffix - prefix))}};
}

} // namespace

WorkspaceEditResult workspace_edit(const Simulation& simulation,
                                   const WorkspaceEditOptions& options) {
  WorkspaceEditResult r;
  const bool utf8 = options.position_encoding == "utf-8";
  nlohmann::json changes = nlohmann::json::array();
  nlohmann::json plain = nlohmann::json::object();
  nlohmann::json annotations = nlohmann::json::object();
  bool plain_ok = true;
  r.results = nlohmann::json::array();
  for (const BlockSimulation& block : simulation.blocks) {
    const std::string annotation = "block-" + block.block_id + "-" + std::to_string(block.block);
    for (const ActionOutcome& o : block.actions) {
      r.results.push_back(result_json(o));
      if (!block.ok) continue;
      for (const FileEffect& e : o.effects) {
        nlohmann::json change;
        switch (e.kind) {
        case FileEffect::Kind::write: {
          const std::string uri = file_uri(e.path);
          if (!e.before) {
            changes.push_back({{"kind", "create"},
                               {"uri", uri},
                               {"options", {{"overwrite", false}, {"ignoreIfExists", false}}}});
            plain_ok = false;
          }
          nlohmann::json edit = text_edit(text_or_empty(e.before), e.after.str(), utf8);
          if (options.change_annotations) edit["annotationId"] = annotation;
          changes.push_back(
              {{"textDocument", {{"uri", uri}, {"version", nullptr}}}, {"edits", {edit}}});
          plain[uri].push_back(edit);
          break;
        }
        case FileEffect::Kind::remove:
          changes.push_back({{"kind", "delete"}, {"uri", file_uri(e.path)}});
          plain_ok = false;
          break;
        case FileEffect::Kind::move:
          changes.push_back({{"kind", "rename"},
                             {"oldUri", file_uri(e.path)},
                             {"newUri", file_uri(e.new_path)},
                             {"options", {{"overwrite", e.dest_before.has_value()}}}});
          plain_ok = false;
          break;
        case FileEffect::Kind::remove_dir:
          changes.push_back(
              {{"kind", "delete"}, {"uri", file_uri(e.path)}, {"options", {{"recursive", true}}}});
          plain_ok = false;
          break;
        case FileEffect::Kind::make_dir: // no WorkspaceEdit operation: folders of new files are
                                         // created implicitly
        case FileEffect::Kind::exec:     // run by the server, reported as a result
          break;
        }
        if (options.change_annotations && !changes.empty() && changes.back().contains("kind"))
          changes.back()["annotationId"] = annotation;
      }
    }
    if (options.change_annotations && block.ok)
      annotations[annotation] = {{"label", fmt::format("blockls: block {}", block.block_id)},
                                 {"needsConfirmation", true}};
  }
  r.edit = {{"documentChanges", changes}};
  if (options.change_annotations && !annotations.empty()) r.edit["changeAnnotations"] = annotations;
  r.changes = plain_ok ? nlohmann::json{{"changes", plain}} : nlohmann::json();
  return r;
}

} // namespace blockls::apply
