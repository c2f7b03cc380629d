// JSON dump of the model for equality checks.
#include "support/model_dump.h"

namespace blockls::test {
namespace {

nlohmann::json range(ByteRange r) { return {r.begin, r.end}; }

} // namespace

nlohmann::json dump_diagnostic(const Diagnostic& d) {
  nlohmann::json fixes = nlohmann::json::array();
  for (const Fix& f : d.fixes) {
    nlohmann::json edits = nlohmann::json::array();
    for (const TextEdit& e : f.edits) edits.push_back({range(e.range), e.new_text});
    fixes.push_back({f.title, f.preferred, edits});
  }
  return {{"code", d.code},        {"severity", severity_name(d.severity)},
          {"dialect", dialect_name(d.dialect)}, {"block", d.block},
          {"line", d.line},        {"range", range(d.range)},
          {"message", d.message},  {"hint", d.fix_hint},
          {"fixes", fixes}};
}

nlohmann::json dump(std::string_view text, const ParsedDocument& doc) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const Block& b : doc.blocks) {
    nlohmann::json commands = nlohmann::json::array();
    for (const Command& c : b.commands) {
      nlohmann::json params = nlohmann::json::array();
      for (const Parameter& p : c.params)
        params.push_back({p.name, range(p.name_range), range(p.value_range), p.line,
                          std::string(p.value(text))});
      commands.push_back({c.name, range(c.name_range), c.line, params});
    }
    blocks.push_back({{"dialect", dialect_name(b.dialect)},
                      {"era", era_name(b.era)},
                      {"id", b.id},
                      {"id_range", range(b.id_range)},
                      {"start", b.start_line},
                      {"end", b.end_line ? nlohmann::json(*b.end_line) : nlohmann::json(nullptr)},
                      {"range", range(b.range)},
                      {"fence_close", b.fence_close_line ? nlohmann::json(*b.fence_close_line)
                                                         : nlohmann::json(nullptr)},
                      {"commands", commands}});
  }
  nlohmann::json diags = nlohmann::json::array();
  for (const Diagnostic& d : doc.diagnostics) diags.push_back(dump_diagnostic(d));
  return {{"lines", doc.lines.line_count()}, {"blocks", blocks}, {"diagnostics", diags}};
}

} // namespace blockls::test
