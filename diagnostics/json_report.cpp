// JSON rendering of CheckedDocument.
#include "diagnostics/json_report.h"

#include "diagnostics/source_view.h"
#include "grammar/dialects.h"

namespace blockls {
namespace {

nlohmann::json position_pair(const SourceView& view, size_t offset) {
  const uint32_t line = view.lines.line_of(std::min(offset, view.text.size()));
  const OutwardPosition p = view.position(line, offset);
  return {{"line", p.line}, {"column", p.column}};
}

} // namespace

nlohmann::json command_params_json(std::string_view text, const Block& block,
                                   const Command& command) {
  nlohmann::json params = nlohmann::json::object();
  const CatalogRules& rules = dialect_info(block.dialect).catalog;
  const std::string_view action_param = rules.action_param;
  for (const Parameter& p : command.params) {
    if (!action_param.empty() && p.name == action_param) continue; // names the command
    std::string value(p.value(text));
    // The dialect's output key (sections: lowerCamelCase), else the name as written.
    std::string key = rules.output_key ? rules.output_key(p.name) : p.name;
    // (One look-up, and the value moved in: a content parameter may be large.)
    auto [at, added] = params.get_ref<nlohmann::json::object_t&>().try_emplace(std::move(key));
    nlohmann::json& slot = at->second;
    if (added)
      slot = std::move(value);
    else if (slot.is_array())
      slot.push_back(std::move(value));
    else
      slot = nlohmann::json::array({std::move(slot), std::move(value)});
  }
  return params;
}

nlohmann::json fix_json(std::string_view text, const LineIndex& lines, const Fix& fix) {
  const SourceView view{text, lines};
  nlohmann::json edits = nlohmann::json::array();
  for (const TextEdit& e : fix.edits) {
    const nlohmann::json start = position_pair(view, e.range.begin);
    const nlohmann::json end = position_pair(view, e.range.end);
    edits.push_back({{"start_line", start["line"]},
                     {"start_column", start["column"]},
                     {"end_line", end["line"]},
                     {"end_column", end["column"]},
                     {"new_text", e.new_text}});
  }
  return {{"title", fix.title}, {"preferred", fix.preferred}, {"edits", std::move(edits)}};
}

nlohmann::json diagnostic_json(std::string_view text, const CheckedDocument& checked,
                               const Diagnostic& d) {
  const SourceView view{text, checked.parsed.lines};
  const OutwardPosition start = view.start_of(d);
  const OutwardPosition end = view.end_of(d);
  nlohmann::json j = {
      {"code", d.code},
      {"message", d.message},
      {"severity", severity_name(d.severity)},
      {"line_number", start.line},
      {"column", start.column},
      {"end_line", end.line},
      {"end_column", end.column},
      {"length", view.utf16_length(d.range)},
      {"content", std::string(view.line_content(d.line))},
      {"context_window", view.context_window(d.line)},
      {"fix_hint", d.fix_hint},
      {"dialect", dialect_name(d.dialect)},
  };
  if (d.block >= 0 && static_cast<size_t>(d.block) < checked.parsed.blocks.size()) {
    const Block& b = checked.parsed.blocks[d.block];
    j["block_id"] = b.id;
    j["block_context"] = {
        {"start_line", b.start_line + 1},
        {"end_line", b.end_line ? nlohmann::json(*b.end_line + 1) : nlohmann::json(nullptr)},
        {"block_hash", b.id},
        {"commands_parsed", b.commands.size()}};
  } else {
    j["block_id"] = nullptr;
    j["block_context"] = nullptr;
  }
  if (d.dialect == Dialect::nesl) j["context"] = view.nesl_context(d.line); // nesl-js's window
  nlohmann::json fixes = nlohmann::json::array();
  for (const Fix& f : d.fixes)
    fixes.push_back(fix_json(text, checked.parsed.lines, f));
  j["fixes"] = std::move(fixes);
  return j;
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
  const Block& block = checked.parsed.blocks[b];
  nlohmann::json commands = nlohmann::json::array();
  for (size_t c = 0; c < block.commands.size(); ++c) {
    const Command& cmd = block.commands[c];
    const ActionSpec* spec = catalog.find(block.dialect, cmd.name);
    commands.push_back({{"type", cmd.name},
                        {"action", spec ? nlohmann::json(spec->name) : nlohmann::json(nullptr)},
                        {"params", command_params_json(text, block, cmd)},
                        {"line", cmd.line + 1},
                        {"valid", checked.verdicts[b].command_valid[c]}});
  }
  return {{"commands", std::move(commands)},
          {"metadata",
           {{"start_line", block.start_line + 1},
            {"end_line",
             block.end_line ? nlohmann::json(*block.end_line + 1) : nlohmann::json(nullptr)},
            {"hash", block.id},
            {"dialect", dialect_name(block.dialect)},
            {"era", era_name(block.era)},
            {"valid", checked.verdicts[b].valid}}}};
}

nlohmann::json summary_json(const Summary& s) {
  return {{"blocks_parsed", s.blocks_parsed},
          {"blocks_valid", s.blocks_valid},
          {"commands_found", s.commands_found},
          {"commands_valid", s.commands_valid},
          {"errors", s.errors},
          {"warnings", s.warnings},
          {"infos", s.infos}};
}

nlohmann::json document_json(std::string_view text, const CheckedDocument& checked,
                             const ActionCatalog& catalog) {
  nlohmann::json blocks = nlohmann::json::array();
  for (size_t b = 0; b < checked.parsed.blocks.size(); ++b)
    blocks.push_back(block_json(text, checked, b, catalog));
  nlohmann::json errors = nlohmann::json::array();
  for (const Diagnostic& d : checked.diagnostics)
    errors.push_back(diagnostic_json(text, checked, d));
  return {{"blocks", std::move(blocks)},
          {"errors", std::move(errors)},
          {"summary", summary_json(summarize(checked))}};
}

} // namespace blockls
