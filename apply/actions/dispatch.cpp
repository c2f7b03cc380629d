// The table of action runners: the one place that maps an action's name to its runner.
#include "apply/actions/runners.h"

#include <array>
#include <utility>

namespace blockls::apply {
namespace {

// A linear search: a plan asks once per action, and the table is short.
constexpr std::array<std::pair<std::string_view, ActionRunner>, 16> kRunners{{
    {"file_write", run_file_write},
    {"file_append", run_file_append},
    {"file_replace_text", run_file_replace_text},
    {"file_replace_all_text", run_file_replace_all_text},
    {"file_replace_text_range", run_file_replace_text_range},
    {"file_delete", run_file_delete},
    {"file_move", run_file_move},
    {"file_read", run_file_read},
    {"files_read", run_files_read},
    {"dir_create", run_dir_create},
    {"dir_delete", run_dir_delete},
    {"exec", run_exec},
    {"file_read_numbered", run_file_read_numbered},
    {"file_replace_lines", run_file_replace_lines},
    {"files_replace_all_text", run_files_replace_all_text},
    {"file_patch", run_file_patch},
}};

} // namespace

ActionRunner find_runner(std::string_view action) {
  for (const auto& [name, runner] : kRunners)
    if (name == action) return runner;
  return nullptr;
}

} // namespace blockls::apply
