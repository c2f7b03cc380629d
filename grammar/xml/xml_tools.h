// The directives the xml dialect knows (spec/dialects.md, "XML directives"): the seed's
// `log_message` and the Cline/Roo tools, each with its parameters (child elements) and the
// catalog action and parameter names they map to. A tag names a directive only when it is one
// of these, or within edit distance 2 of one (a near miss, UNKNOWN_COMMAND); every other tag
// is text.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace blockls::xml {

// How a parameter's value is read (see XmlParser).
enum class ValueKind : uint8_t {
  trimmed, // a short value (a path, a command): surrounding whitespace removed
  raw,     // file text: one leading and one trailing line break removed, else verbatim
  diff,    // SEARCH/REPLACE blocks (replace_in_file, apply_diff): raw, then split
};

struct ToolParam {
  std::string_view tag;     // the child element (`path`, `content`, `diff`, `command`)
  std::string_view catalog; // the catalog parameter it becomes; empty: the tool's own (dropped)
  ValueKind kind = ValueKind::trimmed;
  bool required = false; // checked by the parser only when the tool has no catalog action
  // The value ends at its LAST closing tag before the directive's end, not its first (Cline's
  // and Roo's reading of write_to_file's content: a file may hold the tag).
  bool to_last_close = false;
};

struct Tool {
  std::string_view name;   // the directive's tag
  std::string_view action; // the catalog action (file_write, …); empty: nothing to apply
  std::span<const ToolParam> params;
  // A fixed catalog parameter the tool implies (execute_command runs its command with bash).
  std::string_view implied_param, implied_value;
};

// The tool whose tag is exactly `name`; null when none.
const Tool* find_tool(std::string_view name);

// The tool `name` nearly spells (edit distance 1 or 2, and `name` neither an HTML element nor
// another agent tool); null when none. Cheap: only names of a close length are compared.
const Tool* near_tool(std::string_view name);

// The parameter `tag` of `tool`; null when the tool has none of that name.
const ToolParam* find_param(const Tool& tool, std::string_view tag);

// Every known tool, in the table's order (for the docs and tests).
std::span<const Tool> all_tools();
// True when `tag` names a parameter of any tool (`content`, `diff`, `path`, ...).
bool any_tool_param(std::string_view tag);

} // namespace blockls::xml
