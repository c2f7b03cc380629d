// Catalog validation. The checks run on a name-only view of a command so that a candidate
// fix (a renamed command, action or parameter) can be validated before it is offered.
#include "diagnostics/catalog_validation.h"

#include "diagnostics/suggest.h"
#include "grammar/bytes.h"
#include "grammar/dialects.h"
#include "grammar/line_breaks.h"
#include "grammar/xml/xml_tools.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <map>

namespace blockls {
namespace {

struct Issue {
  std::string_view code;
  Severity severity;
  int param = -1; // index into the view's params, -1 = the command itself
  std::string message;
  std::string hint;
};

struct ParamView {
  std::string_view name;
  std::string_view value;
};

struct CommandView {
  Dialect dialect;
  std::string_view name;         // command name / action
  bool has_action = true;        // false when the dialect's action parameter is missing
  std::vector<ParamView> params; // without the action parameter (NESL's `action`)
};

// The catalog rules of the dialect (grammar/dialect.h): which names it uses, where the
// command's name is, how values are read.
const CatalogRules& rules_of(Dialect dialect) {
  return dialect_info(dialect).catalog;
}

// True when `name` is the parameter that names the command (NESL's `action`; an inline
// comparison: no library memcmp call for a few bytes).
bool is_action_key(const CatalogRules& rules, std::string_view name) {
  return !rules.action_param.empty() && same_bytes(name, rules.action_param);
}

// Whether a value of the parameter can be wrong: a string that need not be a path cannot.
bool needs_type_check(const ParamSpec& spec) {
  return spec.type != ParamType::string || spec.absolute_path;
}

std::string_view trim(std::string_view s) {
  const auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && ws(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && ws(s.back()))
    s.remove_suffix(1);
  return s;
}

bool is_js_int_roundtrip(std::string_view v) {
  std::string_view digits = v;
  if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
  if (digits.empty() || digits.size() > 15) return false;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  if (digits.size() > 1 && digits.front() == '0') return false;
  return v != "-0";
}

bool is_absolute_path(std::string_view v) {
  if (v.starts_with("/") || v.starts_with("\\\\")) return true;
  return v.size() >= 3 && std::isalpha(static_cast<unsigned char>(v[0])) && v[1] == ':' &&
         v[2] == '\\';
}

const ActionSpec* find_action(const ActionCatalog& catalog, Dialect dialect,
                              std::string_view name) {
  return catalog.find(dialect, name);
}

const ParamSpec* find_param(const ActionSpec& spec, Dialect dialect, std::string_view name) {
  return spec.find_param(dialect, name);
}

std::string display_name(const ParamSpec& p, Dialect dialect) {
  return std::string(ActionSpec::display_name(p, dialect));
}

// The name a model writes a missing parameter by: an XML directive's child tag (the catalog's
// `code` is execute_command's <command>), else display_name. (Only when one is missing.)
std::string name_to_write(const ParamSpec& p, const CommandView& cmd) {
  if (cmd.dialect == Dialect::xml)
    for (const xml::Tool& tool : xml::all_tools())
      if (tool.action == cmd.name || tool.name == cmd.name)
        for (const xml::ToolParam& tp : tool.params)
          if (tp.catalog == p.name) return std::string(tp.tag);
  return display_name(p, cmd.dialect);
}

std::vector<Issue> collect_issues(const ActionCatalog& catalog, const CommandView& cmd,
                                  bool report_missing) {
  std::vector<Issue> issues;
  const CatalogRules& rules = rules_of(cmd.dialect);
  // The command is named by its own name (TELT's `=== NAME ===`) or by a parameter.
  const bool named_by_param = !rules.action_param.empty();
  if (named_by_param && !cmd.has_action) {
    if (report_missing)
      issues.push_back({"MISSING_ACTION", Severity::command_error, -1,
                        std::string(rules.missing_action_message),
                        std::string(rules.missing_action_hint)});
    return issues;
  }
  const ActionSpec* spec = find_action(catalog, cmd.dialect, cmd.name);
  if (!spec) {
    if (rules.unknown_commands_quiet) return issues; // command input for any program
    if (!named_by_param)
      issues.push_back({"UNKNOWN_COMMAND", Severity::command_error, -1,
                        fmt::format("Unknown command '{}'", cmd.name),
                        "The command is parsed but never executed; use a command of the catalog"});
    else
      issues.push_back({"UNKNOWN_ACTION", Severity::command_error, -1,
                        fmt::format("Unknown action: {}", cmd.name),
                        "The block is parsed but never executed; use an action of the catalog"});
    return issues;
  }
  // How often each of the action's parameters was given (indexed like spec->params).
  constexpr size_t kStackParams = 32;
  int seen_stack[kStackParams] = {};
  std::vector<int> seen_heap;
  int* seen = seen_stack;
  if (spec->params.size() > kStackParams) {
    seen_heap.assign(spec->params.size(), 0);
    seen = seen_heap.data();
  }
  for (size_t i = 0; i < cmd.params.size(); ++i) {
    const ParamView& p = cmd.params[i];
    const ParamSpec* ps = find_param(*spec, cmd.dialect, p.name);
    if (!ps) {
      issues.push_back({"UNKNOWN_PARAM", Severity::parameter_warning, static_cast<int>(i),
                        fmt::format("Unknown parameter '{}' for {} '{}'; it is ignored", p.name,
                                    rules.command_word, cmd.name),
                        "Remove it or rename it to a parameter of the action"});
      continue;
    }
    if (++seen[ps - spec->params.data()] == 2 && rules.repeated_params)
      issues.push_back({"DUPLICATE_PARAM", Severity::command_error, static_cast<int>(i),
                        fmt::format("Parameter '{}' is given more than once; {} takes a single {}",
                                    p.name, cmd.name, display_name(*ps, cmd.dialect)),
                        "Keep one of the values and delete the other delimiter and its lines"});
    if (!needs_type_check(*ps)) continue; // any text will do
    const std::string error = type_error(*ps, rules.trim_values ? trim(p.value) : p.value);
    if (!error.empty())
      issues.push_back(
          {"INVALID_PARAM_TYPE", Severity::command_error, static_cast<int>(i), error,
           fmt::format("Give {} as {}", display_name(*ps, cmd.dialect),
                       ps->type == ParamType::integer       ? "a whole number, e.g. \"2\""
                       : ps->type == ParamType::boolean     ? "\"true\" or \"false\""
                       : ps->type == ParamType::enumeration ? "one of the allowed values"
                                                            : "an absolute path")});
  }
  if (report_missing) {
    for (const ParamSpec& ps : spec->params) {
      if (!ps.required || seen[&ps - spec->params.data()] > 0) continue;
      const std::string name = name_to_write(ps, cmd);
      issues.push_back(
          {"MISSING_PARAM", Severity::command_error, -1,
           fmt::format("Missing required parameter: {}", name),
           fmt::format("{}{}{}", rules.add_param_before, name, rules.add_param_after)});
    }
  }
  return issues;
}

std::map<std::string_view, int> count_codes(const std::vector<Issue>& issues) {
  std::map<std::string_view, int> counts;
  for (const Issue& i : issues)
    ++counts[i.code];
  return counts;
}

// True when `after` removes one `code` issue and adds none of any code.
bool is_clean_improvement(const std::vector<Issue>& before, const std::vector<Issue>& after,
                          std::string_view code) {
  const auto b = count_codes(before), a = count_codes(after);
  for (const auto& [c, n] : a) {
    const auto it = b.find(c);
    if (n > (it == b.end() ? 0 : it->second)) return false;
  }
  const auto ia = a.find(code);
  return (ia == a.end() ? 0 : ia->second) < b.at(code);
}

struct Located {
  const Block* block;
  int block_index;
  const Command* command;
  std::vector<const Parameter*> params; // parallel to CommandView::params
};

// The diagnostic of `issue`, which gives it its message and hint (moved out: only its code
// and parameter are read afterwards).
Diagnostic make_diagnostic(Issue& issue, const Located& loc, Dialect dialect, std::string_view text,
                           const LineIndex& lines) {
  Diagnostic d(dialect);
  d.code = issue.code;
  d.severity = issue.severity;
  d.block = loc.block_index;
  d.message = std::move(issue.message);
  d.fix_hint = std::move(issue.hint);
  // TELT's "Add a --PATH <hash>-- delimiter": the block's own hash, which the model must write.
  if (issue.code == "MISSING_PARAM" && !loc.block->id.empty())
    if (const size_t at = d.fix_hint.find("<hash>"); at != std::string::npos)
      d.fix_hint.replace(at, 6, loc.block->id);
  if (issue.param >= 0) {
    const Parameter* p = loc.params[issue.param];
    d.line = p->line;
    d.range =
        issue.code == "INVALID_PARAM_TYPE" ? without_break_cr(text, p->value_range) : p->name_range;
  } else if (rules_of(dialect).action_param.empty() || loc.command->name_range.size() > 0) {
    d.line = loc.command->line;
    d.range = loc.command->name_range;
  } else {
    d.line = loc.block->start_line;
    d.range = {lines.line_start(d.line), lines.line_end(text, d.line)};
  }
  if (d.range.size() == 0 && d.line < lines.line_count())
    d.range = {lines.line_start(d.line), lines.line_end(text, d.line)};
  else
    d.line = lines.line_of(d.range.begin); // a value or action token may sit below its command line
  return d;
}

// A name that a quoted NESL token can be rewritten in place (no escapes inside).
bool plain_quoted(std::string_view text, const Parameter& p) {
  const std::string_view token = slice(text, p.value_range);
  return token.size() == p.value(text).size() + 2 && token.front() == '"' && token.back() == '"';
}

// The parameter names an action takes in the dialect's terms (TELT's upper-case ones).
std::vector<std::string> param_names_of(const ActionSpec& spec, const CatalogRules& rules) {
  std::vector<std::string> names;
  for (const ParamSpec& ps : spec.params) {
    if (rules.names == CatalogNames::upper)
      names.insert(names.end(), ps.telt_names.begin(), ps.telt_names.end());
    else
      names.push_back(ps.name);
  }
  return names;
}

// For a command renamed to a catalog action (`renamed`, its view): renames each parameter that
// action does not know to its closest name (close_names' first, not one the command has already
// where the dialect has no repeats) in `renamed` and adds the edit and its words to `fix`
// ("... and 'CONTNT' to 'CONTENT'"). `*names` keeps the new names the view points to. False when
// some unknown parameter has no such name (or none is unknown: nothing to add).
bool rename_unknown_params(const ActionCatalog& catalog, const CatalogRules& rules,
                           const Command& command, const Located& loc, CommandView& renamed,
                           std::vector<std::string>* names, Fix* fix) {
  const ActionSpec* spec = find_action(catalog, renamed.dialect, renamed.name);
  if (!spec) return false;
  const std::vector<std::string> candidates = param_names_of(*spec, rules);
  names->reserve(renamed.params.size()); // (the views point into it: no reallocation)
  for (size_t i = 0; i < renamed.params.size(); ++i) {
    const std::string_view name = renamed.params[i].name;
    if (find_param(*spec, renamed.dialect, name)) continue;
    std::optional<std::string> pick;
    for (std::string& c : close_names(name, candidates)) {
      if (rules.repeated_params || std::none_of(command.params.begin(), command.params.end(),
                                                [&](const Parameter& p) { return p.name == c; })) {
        pick = std::move(c);
        break;
      }
    }
    if (!pick) return false;
    fix->title += fmt::format(" and '{}' to '{}'", name, *pick);
    fix->edits.push_back({loc.params[i]->name_range, *pick});
    renamed.params[i].name = names->emplace_back(std::move(*pick));
  }
  return !names->empty();
}

// The hint over the names a diagnostic's fixes offer, in their order (the preferred first):
// "Did you mean 'A'?", "... 'A' or 'B'?", "... 'A', 'B' or 'C'?" — every name a fix offers,
// not only the last one looked at.
std::string did_you_mean(const std::vector<std::string>& names) {
  std::string hint = "Did you mean ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) hint += i + 1 == names.size() ? " or " : ", ";
    hint += fmt::format("'{}'", names[i]);
  }
  hint += '?';
  return hint;
}

void add_fixes(Diagnostic& d, const Issue& issue, const std::vector<Issue>& all,
               const CommandView& view, const Located& loc, const ActionCatalog& catalog,
               std::string_view text, bool report_missing) {
  const CatalogRules& rules = rules_of(view.dialect);
  std::vector<std::string> offered; // the names the fixes offer, the preferred one first
  if (issue.code == "UNKNOWN_COMMAND" || issue.code == "UNKNOWN_ACTION") {
    const std::vector<std::string>& candidates = catalog.all_names(view.dialect);
    ByteRange target = loc.command->name_range;
    if (!rules.action_param.empty()) { // rename the value of the parameter naming the command
      const Parameter* action = nullptr;
      for (const Parameter& p : loc.command->params)
        if (is_action_key(rules, p.name)) action = &p;
      if (!action || !plain_quoted(text, *action)) return;
      target = {action->value_range.begin + 1, action->value_range.end - 1};
    }
    for (const std::string& c : close_names(view.name, candidates)) {
      CommandView renamed = view;
      renamed.name = c;
      Fix fix{fmt::format("Change '{}' to '{}'", view.name, c), d.fixes.empty(), {{target, c}}};
      // A command misspelt with a parameter misspelt too (its parameters are only looked at
      // once the command is known): the parameters renamed with it, when that makes it clean.
      std::vector<std::string> param_names;
      if (!is_clean_improvement(all, collect_issues(catalog, renamed, report_missing),
                                issue.code) &&
          !rename_unknown_params(catalog, rules, *loc.command, loc, renamed, &param_names, &fix)) {
        continue;
      }
      if (!is_clean_improvement(all, collect_issues(catalog, renamed, report_missing), issue.code))
        continue;
      d.fixes.push_back(std::move(fix));
      offered.push_back(c);
    }
    if (!offered.empty()) d.fix_hint = did_you_mean(offered);
    return;
  }
  if (issue.code == "UNKNOWN_PARAM") {
    const ActionSpec* spec = find_action(catalog, view.dialect, view.name);
    if (!spec) return;
    const std::vector<std::string> candidates = param_names_of(*spec, rules);
    const std::string_view name = view.params[issue.param].name;
    for (const std::string& c : close_names(name, candidates)) {
      // Without repeats (NESL), a key that exists already would be a DUPLICATE_KEY error.
      if (!rules.repeated_params &&
          std::any_of(loc.command->params.begin(), loc.command->params.end(),
                      [&](const Parameter& p) { return p.name == c; }))
        continue;
      CommandView renamed = view;
      renamed.params[issue.param].name = c;
      if (!is_clean_improvement(all, collect_issues(catalog, renamed, report_missing), issue.code))
        continue;
      d.fixes.push_back({fmt::format("Rename '{}' to '{}'", name, c),
                         d.fixes.empty(),
                         {{loc.params[issue.param]->name_range, c}}});
      offered.push_back(c);
    }
    if (!offered.empty()) d.fix_hint = did_you_mean(offered);
  }
}

// True when collect_issues() would find nothing for the command: its action is in the
// catalog, every parameter is one of the action's (TELT: each at most once) with a value of
// its type, and every required parameter is there. False when it cannot tell cheaply (then
// the full rules decide). Most commands are valid: this spares them the views.
bool surely_valid(std::string_view text, const Block& block, const Command& command,
                  const ActionCatalog& catalog) {
  const CatalogRules& rules = rules_of(block.dialect);
  // A command without its action parameter (NESL's `action`) has no name (then, or with an
  // empty action, the full rules decide): no loop over the parameters to look for the key.
  if (command.name.empty() && !rules.action_param.empty()) return false;
  const ActionSpec* spec = find_action(catalog, block.dialect, command.name);
  if (!spec || spec->params.size() > 64) return false;
  uint64_t seen = 0;
  for (const Parameter& p : command.params) {
    if (is_action_key(rules, p.name)) continue;
    const ParamSpec* ps = find_param(*spec, block.dialect, p.name);
    if (!ps) return false;
    if (needs_type_check(*ps)) {
      const std::string_view value = p.value(text);
      // type_error() builds a message only for a wrong value.
      if (!type_error(*ps, rules.trim_values ? trim(value) : value).empty()) return false;
    }
    const uint64_t bit = uint64_t{1} << (ps - spec->params.data());
    if (rules.repeated_params && (seen & bit) != 0) return false;
    seen |= bit;
  }
  const uint64_t required = catalog.required_mask(*spec);
  return (seen & required) == required;
}

void validate_command(std::string_view text, const Block& block, int block_index,
                      const LineIndex& lines, const Command& command, const ActionCatalog& catalog,
                      bool report_missing, std::vector<Diagnostic>* out) {
  if (report_missing && surely_valid(text, block, command, catalog)) return;
  CommandView view{block.dialect, command.name, true, {}};
  Located loc{&block, block_index, &command, {}};
  view.params.reserve(command.params.size());
  loc.params.reserve(command.params.size());
  const CatalogRules& rules = rules_of(block.dialect);
  bool has_action = false;
  for (const Parameter& p : command.params) {
    if (is_action_key(rules, p.name)) {
      has_action = true;
      continue;
    }
    view.params.push_back({p.name, p.value(text)});
    loc.params.push_back(&p);
  }
  view.has_action = rules.action_param.empty() || has_action;
  std::vector<Issue> issues = collect_issues(catalog, view, report_missing);
  for (Issue& issue : issues) {
    Diagnostic d = make_diagnostic(issue, loc, block.dialect, text, lines);
    add_fixes(d, issue, issues, view, loc, catalog, text, report_missing);
    out->push_back(std::move(d));
  }
}

} // namespace

std::string type_error(const ParamSpec& spec, std::string_view value) {
  switch (spec.type) {
  case ParamType::integer:
    if (!is_js_int_roundtrip(value)) return fmt::format("Invalid integer value: {}", value);
    break;
  case ParamType::boolean:
    if (value != "true" && value != "false") return fmt::format("Invalid boolean value: {}", value);
    break;
  case ParamType::enumeration:
    if (std::find(spec.values.begin(), spec.values.end(), value) == spec.values.end())
      return fmt::format("Invalid enum value: {}. Allowed: {}", value,
                         fmt::join(spec.values, ", "));
    break;
  case ParamType::string:
    break;
  }
  if (spec.absolute_path && !is_absolute_path(value))
    return fmt::format("Invalid absolute path: {}", value);
  return {};
}

// Missing parameters are reported even in blocks with syntax errors (where a parameter may have
// been lost to the error): were they hidden, fixing the syntax error would make them appear, and
// a fix must never add a diagnostic.
void validate_blocks(std::string_view text, const ParsedDocument& doc, const ActionCatalog& catalog,
                     size_t first_block, size_t end_block, std::vector<Diagnostic>* out) {
  for (size_t b = first_block; b < end_block; ++b)
    validate_block(text, doc.blocks[b], b, doc.lines, catalog, out);
}

void validate_block(std::string_view text, const Block& block, size_t block_index,
                    const LineIndex& lines, const ActionCatalog& catalog,
                    std::vector<Diagnostic>* out) {
  for (const Command& c : block.commands)
    validate_command(text, block, static_cast<int>(block_index), lines, c, catalog, true, out);
}

} // namespace blockls
