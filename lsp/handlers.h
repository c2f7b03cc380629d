// The request and notification handlers server.cpp dispatches to, one file per family. Each
// runs on the io thread with the session; a request handler answers `id` exactly once (now or
// later, through Session::reply / reply_error) or throws LspError for the dispatcher to answer.
#pragma once

#include "lsp/session.h"

namespace blockls::lsp {

// lsp/requests/initialize.cpp: capability negotiation, then file-watch registration.
void initialize(Session& s, const json& id, const json& params);
void initialized(Session& s, const json& params);

// lsp/requests/code_action.cpp
void code_action(Session& s, const json& id, const json& params);
void resolve_code_action(Session& s, const json& id, const json& params);

// lsp/requests/outline.cpp: the views of the whole document.
void code_lens(Session& s, const json& id, const json& params);
void document_symbol(Session& s, const json& id, const json& params);
void folding_range(Session& s, const json& id, const json& params);

// lsp/requests/hover.cpp
void hover(Session& s, const json& id, const json& params);

// lsp/requests/execute_command.cpp: executeBlock, executeAll and showDebugInfo.
void execute_command(Session& s, const json& id, const json& params);
// lsp/requests/execute_block.cpp: runs the blocks once the analysis is current.
void execute_blocks(Session& s, const json& id, const ExecuteBlockArguments& args, bool all,
                    const json& token, std::shared_ptr<const Analysis> a);
// lsp/requests/debug_info.cpp
json debug_info(Session& s, const json& arg);

// lsp/requests/sync.cpp: blockls/sync answers once every open document is analysed.
void sync(Session& s, const json& id, const json& params);

// lsp/notifications/text_sync.cpp
void did_open(Session& s, const json& params);
void did_change(Session& s, const json& params);
void did_close(Session& s, const json& params);
void did_save(Session& s, const json& params);

// lsp/notifications/workspace.cpp: configuration, watched files, workspace folders.
void did_change_configuration(Session& s, const json& params);
void did_change_watched_files(Session& s, const json& params);
void did_change_workspace_folders(Session& s, const json& params);

// lsp/notifications/cancel.cpp
void cancel_request(Session& s, const json& params);

// lsp/publish.cpp: an analysis arrived from the scheduler: publish it, run what waited on it.
void publish_analysis(Session& s, const std::string& uri, std::shared_ptr<const Analysis> a);
// Empty diagnostics for a closed document.
void clear_diagnostics(Session& s, const std::string& uri);

} // namespace blockls::lsp
