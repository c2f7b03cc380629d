// JSON rendering of CheckedDocument.
#include "diagnostics/json_report.h"

#include "diagnostics/source_view.h"
#include "grammar/dialects.h"

#include <algorithm>
#include <string>
#include <vector>

namespace blockls {
namespace {

OutwardPosition position_at(const SourceView& view, size_t offset) {
  const uint32_t line = view.lines.line_of(std::min(offset, view.text.size()));
  return view.position(line, offset);
}

} // namespace

// A command's parameters grouped by output key, in key order (as an object of nlohmann's sorts
// them): one value -> string, repeated -> array, the values of a key in source order.
void write_command_params(JsonWriter& w, std::string_view text, const Block& block,
                          const Command& command) {
  const CatalogRules& rules = dialect_info(block.dialect).catalog;
  const std::string_view action_param = rules.action_param;
  struct Entry {
    std::string_view key;
    std::string_view value;
  };
  // A command has a few parameters: their entries are kept on the stack and put in order by an
  // insertion sort (stable, as the values of a key keep their source order), so that a command
  // costs no allocation; a long list takes the vector and std::stable_sort.
  constexpr size_t kFew = 16;
  Entry few[kFew];
  std::vector<Entry> many;
  Entry* entries = few;
  if (command.params.size() > kFew) {
    many.resize(command.params.size());
    entries = many.data();
  }
  // The dialect's output keys (sections: lowerCamelCase), made once each (room for all, so that
  // the entries' views of them stay valid); else the name as written.
  std::vector<std::string> made;
  if (rules.output_key) made.reserve(command.params.size());
  size_t count = 0;
  for (const Parameter& p : command.params) {
    if (!action_param.empty() && p.name == action_param) continue; // names the command
    const std::string_view key = rules.output_key
                                     ? std::string_view(made.emplace_back(rules.output_key(p.name)))
                                     : std::string_view(p.name);
    entries[count++] = {key, p.value(text)};
  }
  const auto before = [](const Entry& a, const Entry& b) { return a.key < b.key; };
  if (count > kFew) {
    std::stable_sort(entries, entries + count, before);
  } else {
    for (size_t i = 1; i < count; ++i) {
      const Entry e = entries[i];
      size_t j = i;
      for (; j > 0 && before(e, entries[j - 1]); --j)
        entries[j] = entries[j - 1];
      entries[j] = e;
    }
  }
  w.begin_object();
  for (size_t i = 0; i < count;) {
    size_t j = i + 1;
    while (j < count && entries[j].key == entries[i].key)
      ++j;
    w.key(entries[i].key);
    if (j - i == 1) {
      w.string(entries[i].value);
    } else {
      w.begin_array();
      for (size_t k = i; k < j; ++k)
        w.string(entries[k].value);
      w.end_array();
    }
    i = j;
  }
  w.end_object();
}

void write_fix(JsonWriter& w, const SourceView& view, const Fix& fix) {
  w.begin_object();
  w.key("edits");
  w.begin_array();
  for (const TextEdit& e : fix.edits) {
    const OutwardPosition start = position_at(view, e.range.begin);
    const OutwardPosition end = position_at(view, e.range.end);
    w.begin_object();
    w.field("end_column", end.column);
    w.field("end_line", end.line);
    w.field("new_text", e.new_text);
    w.field("start_column", start.column);
    w.field("start_line", start.line);
    w.end_object();
  }
  w.end_array();
  w.field("preferred", fix.preferred);
  w.field("title", fix.title);
  w.end_object();
}

void write_diagnostic(JsonWriter& w, std::string_view text, const CheckedDocument& checked,
                      const Diagnostic& d) {
  const SourceView view{text, checked.parsed.lines};
  const OutwardPosition start = view.start_of(d);
  const OutwardPosition end = view.end_of(d);
  const Block* block = d.block >= 0 && static_cast<size_t>(d.block) < checked.parsed.blocks.size()
                           ? &checked.parsed.blocks[d.block]
                           : nullptr;
  // The keys in sorted order, as a dump of the nlohmann object this replaced wrote them.
  w.begin_object();
  w.key("block_context");
  if (block) {
    w.begin_object();
    w.field("block_hash", block->id);
    w.field("commands_parsed", static_cast<uint64_t>(block->commands.size()));
    w.key("end_line");
    if (block->end_line)
      w.number(*block->end_line + 1);
    else
      w.null();
    w.field("start_line", block->start_line + 1);
    w.end_object();
  } else {
    w.null();
  }
  w.key("block_id");
  if (block)
    w.string(block->id);
  else
    w.null();
  w.field("code", d.code);
  w.field("column", start.column);
  w.field("content", view.line_content(d.line));
  if (d.dialect == Dialect::nesl) w.field("context", view.nesl_context(d.line)); // nesl-js's
  w.field("context_window", view.context_window(d.line));
  w.field("dialect", dialect_name(d.dialect));
  w.field("end_column", end.column);
  w.field("end_line", end.line);
  w.field("fix_hint", d.fix_hint);
  w.key("fixes");
  w.begin_array();
  for (const Fix& f : d.fixes)
    write_fix(w, view, f);
  w.end_array();
  w.field("length", static_cast<uint64_t>(view.utf16_length(d.range)));
  w.field("line_number", start.line);
  w.field("message", d.message);
  w.field("severity", severity_name(d.severity));
  w.end_object();
}

void write_block(JsonWriter& w, std::string_view text, const CheckedDocument& checked, size_t b,
                 const ActionCatalog& catalog) {
  const Block& block = checked.parsed.blocks[b];
  w.begin_object();
  w.key("commands");
  w.begin_array();
  for (size_t c = 0; c < block.commands.size(); ++c) {
    const Command& cmd = block.commands[c];
    w.begin_object();
    w.key("action");
    if (const ActionSpec* spec = catalog.find(block.dialect, cmd.name))
      w.string(spec->name);
    else
      w.null();
    w.field("line", cmd.line + 1);
    w.key("params");
    write_command_params(w, text, block, cmd);
    w.field("type", cmd.name);
    w.field("valid", static_cast<bool>(checked.verdicts[b].command_valid[c]));
    w.end_object();
  }
  w.end_array();
  w.key("metadata");
  w.begin_object();
  w.field("dialect", dialect_name(block.dialect));
  w.key("end_line");
  if (block.end_line)
    w.number(*block.end_line + 1);
  else
    w.null();
  w.field("era", era_name(block.era));
  w.field("hash", block.id);
  w.field("start_line", block.start_line + 1);
  w.field("valid", checked.verdicts[b].valid);
  w.end_object();
  w.end_object();
}

void write_summary(JsonWriter& w, const Summary& s) {
  w.begin_object();
  w.field("blocks_parsed", static_cast<uint64_t>(s.blocks_parsed));
  w.field("blocks_valid", static_cast<uint64_t>(s.blocks_valid));
  w.field("commands_found", static_cast<uint64_t>(s.commands_found));
  w.field("commands_valid", static_cast<uint64_t>(s.commands_valid));
  w.field("errors", static_cast<uint64_t>(s.errors));
  w.field("infos", static_cast<uint64_t>(s.infos));
  w.field("warnings", static_cast<uint64_t>(s.warnings));
  w.end_object();
}

void write_document(JsonWriter& w, std::string_view text, const CheckedDocument& checked,
                    const ActionCatalog& catalog, std::optional<std::string_view> path) {
  w.begin_object();
  w.key("blocks");
  w.begin_array();
  for (size_t b = 0; b < checked.parsed.blocks.size(); ++b)
    write_block(w, text, checked, b, catalog);
  w.end_array();
  w.key("errors");
  w.begin_array();
  for (const Diagnostic& d : checked.diagnostics)
    write_diagnostic(w, text, checked, d);
  w.end_array();
  if (path) w.field("path", *path);
  w.key("summary");
  write_summary(w, summarize(checked));
  w.end_object();
}

namespace {

// A writer's output read back: the nlohmann::json views of the reports, for the few callers
// that edit or embed them (and tests). One writer, so the two can never disagree.
template <typename Write> nlohmann::json as_json(Write&& write) {
  std::string out;
  JsonWriter w(&out);
  write(w);
  return nlohmann::json::parse(out);
}

} // namespace

nlohmann::json command_params_json(std::string_view text, const Block& block,
                                   const Command& command) {
  return as_json([&](JsonWriter& w) { write_command_params(w, text, block, command); });
}

nlohmann::json fix_json(std::string_view text, const LineIndex& lines, const Fix& fix) {
  return as_json([&](JsonWriter& w) { write_fix(w, SourceView{text, lines}, fix); });
}

nlohmann::json diagnostic_json(std::string_view text, const CheckedDocument& checked,
                               const Diagnostic& d) {
  return as_json([&](JsonWriter& w) { write_diagnostic(w, text, checked, d); });
}

Summary summarize(const CheckedDocument& checked) {
  Summary s;
  s.blocks_parsed = checked.parsed.blocks.size();
  for (size_t b = 0; b < checked.parsed.blocks.size(); ++b) {
    const BlockVerdict& v = checked.verdicts[b];
    s.blocks_valid += v.valid;
    s.commands_found += checked.parsed.blocks[b].commands.size();
    for (bool ok : v.command_valid)
      s.commands_valid += ok;
  }
  for (const Diagnostic& d : checked.diagnostics) {
    if (is_error(d.severity))
      ++s.errors;
    else if (d.severity == Severity::parameter_warning)
      ++s.warnings;
    else
      ++s.infos;
  }
  return s;
}

nlohmann::json block_json(std::string_view text, const CheckedDocument& checked, size_t b,
                          const ActionCatalog& catalog) {
  return as_json([&](JsonWriter& w) { write_block(w, text, checked, b, catalog); });
}

nlohmann::json summary_json(const Summary& s) {
  return as_json([&](JsonWriter& w) { write_summary(w, s); });
}

nlohmann::json document_json(std::string_view text, const CheckedDocument& checked,
                             const ActionCatalog& catalog) {
  return as_json([&](JsonWriter& w) { write_document(w, text, checked, catalog, std::nullopt); });
}

} // namespace blockls
