// JSON dump of the model for equality checks.
#include "support/model_dump.h"

namespace blockls::test {
namespace {

nlohmann::json range(ByteRange r) {
  return {r.begin, r.end};
}

} // namespace

nlohmann::json dump_diagnostic(const Diagnostic& d) {
  nlohmann::json fixes = nlohmann::json::array();
  for (const Fix& f : d.fixes) {
    nlohmann::json edits = nlohmann::json::array();
    for (const TextEdit& e : f.edits)
      edits.push_back({range(e.range), e.new_text});
    fixes.push_back({f.title, f.preferred, edits});
  }
  return {{"code", d.code},
          {"severity", severity_name(d.severity)},
          {"dialect", dialect_name(d.dialect)},
          {"block", d.block},
          {"line", d.line},
          {"range", range(d.range)},
          {"message", d.message},
          {"hint", d.fix_hint},
          {"fixes", fixes},
          {"line_dependent", d.line_dependent},
          {"across_blocks", d.across_blocks}};
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
  for (const Diagnostic& d : doc.diagnostics)
    diags.push_back(dump_diagnostic(d));
  nlohmann::json line_starts = nlohmann::json::array();
  for (uint32_t l = 0; l < doc.lines.line_count(); ++l)
    line_starts.push_back(doc.lines.line_start(l));
  nlohmann::json points = nlohmann::json::array();
  for (const ResumePoint& p : doc.resume_points)
    points.push_back({p.offset, p.line, p.blocks, p.diagnostics, p.fence_open,
                      std::string(1, p.fence_marker), p.fence_length, p.dialect_state,
                      p.before_start});
  return {{"lines", doc.lines.line_count()},
          {"line_starts", line_starts},
          {"blocks", blocks},
          {"diagnostics", diags},
          {"resume_points", points}};
}

} // namespace blockls::test
