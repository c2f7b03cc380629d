// Incremental sync: each change is applied against the text left by the previous one, its
// range validated in the negotiated encoding (columns past a line end clamp to it, as the
// spec says; a line past the end, a reversed range or a mistyped field rejects the batch).
// A ranged change copies the text once and updates the line index from the old one (line
// starts are the bytes after each "\n": those before the range stay, those after it shift,
// the inserted text's are added) instead of scanning the whole text again.
#include "lsp/documents.h"

#include "diagnostics/json_text.h"

namespace blockls::lsp {

DocumentText DocumentText::from(std::string text) {
  DocumentText d;
  auto owned = std::make_shared<const std::string>(std::move(text));
  d.lines = std::make_shared<const LineIndex>(*owned);
  d.text = std::move(owned);
  return d;
}

bool apply_content_changes(const DocumentText& current, const json& changes,
                           PositionEncoding encoding, DocumentText* out, std::string* error) {
  DocumentText doc = current;
  std::shared_ptr<std::string> owned; // doc.text when this batch created it
  if (!changes.is_array()) {
    *error = "contentChanges is not an array";
    return false;
  }
  for (size_t i = 0; i < changes.size(); ++i) {
    const json& change = changes[i];
    const std::string where = "contentChanges[" + std::to_string(i) + "]";
    if (!change.is_object() || !change.contains("text") || !change["text"].is_string()) {
      *error = where + ".text is missing or not a string";
      return false;
    }
    const std::string& text = change["text"].get_ref<const std::string&>();
    auto range_it = change.find("range");
    if (range_it == change.end() || range_it->is_null()) {
      doc = DocumentText::from(text);
      owned = nullptr;
      continue;
    }
    std::optional<ByteRange> range;
    try {
      range = doc.mapper(encoding).range(*range_it);
    } catch (const LspError& e) {
      *error = where + ".range: " + e.what();
      return false;
    }
    if (!range) {
      *error = where + ".range " + dump_json(*range_it) + " is outside the document (" +
               std::to_string(doc.lines->line_count()) + " lines) or reversed";
      return false;
    }
    doc.lines = std::make_shared<const LineIndex>(
        edit_line_index(*doc.lines, range->begin, range->end, text));
    if (owned) { // a text this batch made, not shared yet: edited in place
      owned->replace(range->begin, range->size(), text);
      continue;
    }
    owned = std::make_shared<std::string>();
    owned->reserve(doc.text->size() - range->size() + text.size());
    owned->append(*doc.text, 0, range->begin);
    owned->append(text);
    owned->append(*doc.text, range->end, std::string::npos);
    doc.text = owned;
  }
  *out = std::move(doc);
  return true;
}

} // namespace blockls::lsp
