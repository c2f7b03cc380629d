// Text and JSON reports of a check in parts (see parted_report.h).
#include "cli/parted_report.h"

#include "fixits/parted_check.h"
#include "grammar/router/document_parser.h"

#include <utility>
#include <vector>

namespace blockls::cli {

PartedCheck print_text_in_parts(std::ostream& out, const std::string& shown, const InputFile& file,
                                const CheckOptions& options, size_t part_bytes,
                                const TextStyle& style) {
  PartedCheck result;
  // The text report is one diagnostic after another in check order, each read from the text
  // and the whole text's line index: the parts' reports, one after the other, are the whole's.
  LineIndex lines = index_document_lines(file.text, options.parse);
  result.parts = check_in_parts(file.text, lines, options, part_bytes, [&](CheckedDocument& part) {
    if ((result.changed = file.changed_since_read())) return false;
    print_text_diagnostics(out, shown, file.text, part, style);
    result.summary += summarize(part);
    return true;
  });
  if (!result.changed) result.changed = file.changed_since_read();
  return result;
}

namespace {

// An error kept for the end of the document object, with what it tells of its block.
struct KeptError {
  Diagnostic diagnostic;
  bool has_block = false;
  std::string block_id;
  ErrorBlockContext block; // its id is set from block_id when written
};

} // namespace

PartedCheck write_json_in_parts(JsonWriter& w, const std::string& shown, const InputFile& file,
                                const CheckOptions& options, const ActionCatalog& catalog,
                                size_t part_bytes) {
  PartedCheck result;
  std::vector<KeptError> errors;
  w.begin_object();
  w.key("blocks");
  w.begin_array();
  LineIndex lines = index_document_lines(file.text, options.parse);
  result.parts = check_in_parts(file.text, lines, options, part_bytes, [&](CheckedDocument& part) {
    if ((result.changed = file.changed_since_read())) return false;
    for (size_t b = 0; b < part.parsed.blocks.size(); ++b)
      write_block(w, file.text, part, b, catalog);
    result.summary += summarize(part);
    for (Diagnostic& d : part.diagnostics) {
      KeptError& kept = errors.emplace_back(KeptError{std::move(d), false, {}, {}});
      const int32_t b = kept.diagnostic.block;
      if (b < 0 || static_cast<size_t>(b) >= part.parsed.blocks.size()) continue;
      const Block& block = part.parsed.blocks[static_cast<size_t>(b)];
      kept.has_block = true;
      kept.block_id = block.id;
      kept.block = error_block_context(block);
    }
    return true;
  });
  w.end_array();
  w.key("errors");
  w.begin_array();
  for (KeptError& kept : errors) {
    kept.block.id = kept.block_id;
    write_error(w, file.text, lines, kept.has_block ? &kept.block : nullptr, kept.diagnostic);
  }
  w.end_array();
  w.field("path", shown);
  w.key("summary");
  write_summary(w, result.summary);
  w.end_object();
  if (!result.changed) result.changed = file.changed_since_read();
  return result;
}

} // namespace blockls::cli
