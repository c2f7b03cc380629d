// The directive table (see xml_tools.h) and the near-miss test.
#include "grammar/xml/xml_tools.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace blockls::xml {
namespace {

// Cline's newer tools all accept a `task_progress` checklist; it is the tool's own.
constexpr ToolParam kWriteParams[] = {{"path", "path", ValueKind::trimmed},
                                      {"content", "content", ValueKind::raw, false, true},
                                      {"line_count", "", ValueKind::trimmed},
                                      {"task_progress", "", ValueKind::raw}};
constexpr ToolParam kDiffParams[] = {{"path", "path", ValueKind::trimmed},
                                     {"diff", "", ValueKind::diff, true},
                                     {"start_line", "", ValueKind::trimmed},
                                     {"task_progress", "", ValueKind::raw}};
constexpr ToolParam kReadParams[] = {{"path", "path", ValueKind::trimmed},
                                     {"start_line", "", ValueKind::trimmed},
                                     {"end_line", "", ValueKind::trimmed},
                                     {"task_progress", "", ValueKind::raw}};
constexpr ToolParam kExecParams[] = {{"command", "code", ValueKind::raw},
                                     {"cwd", "cwd", ValueKind::trimmed},
                                     {"requires_approval", "", ValueKind::trimmed},
                                     {"timeout", "", ValueKind::trimmed},
                                     {"task_progress", "", ValueKind::raw}};
constexpr ToolParam kInsertParams[] = {{"path", "", ValueKind::trimmed, true},
                                       {"line", "", ValueKind::trimmed, true},
                                       {"content", "", ValueKind::raw, true}};
constexpr ToolParam kLogParams[] = {{"message", "", ValueKind::raw, true},
                                    {"level", "", ValueKind::trimmed}};

constexpr Tool kTools[] = {
    {"write_to_file", "file_write", kWriteParams, "", ""},
    {"replace_in_file", "file_replace_text", kDiffParams, "", ""},
    {"apply_diff", "file_replace_text", kDiffParams, "", ""},
    {"read_file", "file_read", kReadParams, "", ""},
    {"execute_command", "exec", kExecParams, "lang", "bash"},
    {"insert_content", "", kInsertParams, "", ""},
    {"log_message", "", kLogParams, "", ""},
};

// Tags that are never a near miss: HTML elements and the other agent tools (Cline/Roo tools
// without a catalog action, and their near plurals), which are text like any unknown tag.
constexpr std::string_view kNeverNearMiss[] = {"access_mcp_resource",
                                               "ask_followup_question",
                                               "attempt_completion",
                                               "blockquote",
                                               "browser_action",
                                               "codebase_search",
                                               "condense",
                                               "datalist",
                                               "details",
                                               "fetch_instructions",
                                               "fieldset",
                                               "figcaption",
                                               "list_code_definition_names",
                                               "list_files",
                                               "load_mcp_documentation",
                                               "new_rule",
                                               "new_task",
                                               "noscript",
                                               "optgroup",
                                               "plan_mode_respond",
                                               "progress",
                                               "read_files",
                                               "report_bug",
                                               "search_and_replace",
                                               "search_files",
                                               "select",
                                               "summarize_task",
                                               "switch_mode",
                                               "template",
                                               "textarea",
                                               "use_mcp_tool",
                                               "web_fetch",
                                               "write_file",
                                               "replace_in_files",
                                               "read_file_lines",
                                               "execute_commands",
                                               "insert_file",
                                               "apply_patch",
                                               "log_messages",
                                               "file_read"};

// Levenshtein distance of `a` and `b`, or 3 when it is larger than 2 (rows of a banded table).
int distance_up_to_2(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > 2 || m > 40) return 3;
  std::array<int, 41> prev{}, cur{};
  for (size_t j = 0; j <= m; ++j)
    prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    int best = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      const int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
      best = std::min(best, cur[j]);
    }
    if (best > 2) return 3;
    prev = cur;
  }
  return std::min(prev[m], 3);
}

bool never_near_miss(std::string_view name) {
  return std::find(std::begin(kNeverNearMiss), std::end(kNeverNearMiss), name) !=
         std::end(kNeverNearMiss);
}

} // namespace

const Tool* find_tool(std::string_view name) {
  for (const Tool& t : kTools)
    if (t.name == name) return &t;
  return nullptr;
}

const Tool* near_tool(std::string_view name) {
  if (name.size() < 7) return nullptr; // every tool name has 9 or more bytes
  const Tool* best = nullptr;
  int best_d = 3;
  for (const Tool& t : kTools) {
    const int d = distance_up_to_2(name, t.name);
    if (d > 0 && d < best_d) {
      best = &t;
      best_d = d;
    }
  }
  if (!best || never_near_miss(name)) return nullptr;
  return best;
}

const ToolParam* find_param(const Tool& tool, std::string_view tag) {
  for (const ToolParam& p : tool.params)
    if (p.tag == tag) return &p;
  return nullptr;
}

std::span<const Tool> all_tools() {
  return kTools;
}

bool any_tool_param(std::string_view tag) {
  for (const Tool& tool : kTools)
    if (find_param(tool, tag)) return true;
  return false;
}

} // namespace blockls::xml
