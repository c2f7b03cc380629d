// The runner of each catalog action, one file each under apply/actions/ (file_write.cpp,
// file_replace_text.cpp, ...), and the table that finds the runner of an action by name
// (dispatch.cpp). A runner sees the simulation through its ActionHost: it checks the
// parameters and the files, reports what is wrong, and records the effects and the result.
#pragma once

#include "apply/actions/action_host.h"

#include <string_view>

namespace blockls::apply {

using ActionRunner = void (*)(ActionHost& host);

// The runner of the action named `action` (the catalog's lower-case name); null when blockls
// cannot run it.
ActionRunner find_runner(std::string_view action);

// Each in apply/actions/<action>.cpp, but for the two that share their sibling's code:
// file_append (file_write.cpp) and file_replace_all_text (file_replace_text.cpp).
void run_file_write(ActionHost& host);
void run_file_append(ActionHost& host);
void run_file_replace_text(ActionHost& host);
void run_file_replace_all_text(ActionHost& host);
void run_file_replace_text_range(ActionHost& host);
void run_file_delete(ActionHost& host);
void run_file_move(ActionHost& host);
void run_file_read(ActionHost& host);
void run_files_read(ActionHost& host);
void run_file_read_numbered(ActionHost& host);
void run_file_replace_lines(ActionHost& host);
void run_files_replace_all_text(ActionHost& host);
void run_file_patch(ActionHost& host);
void run_dir_create(ActionHost& host);
void run_dir_delete(ActionHost& host);
void run_exec(ActionHost& host);

} // namespace blockls::apply
