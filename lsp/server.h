// `blockls lsp`: the language server. server.cpp holds the lifecycle (initialize .. exit) and
// the dispatch; the handlers, one file per request family, and the session state they share
// are listed in lsp/README.md; the transport below moves bytes, the scheduler and the engine
// (lsp/analysis) compute.
#pragma once

#include "lsp/analysis.h"
#include "lsp/scheduler.h"

#include <chrono>
#include <cstddef>
#include <string>

namespace blockls::lsp {

enum class LogLevel { error, warning, info, debug };

struct ServerOptions {
  DebouncePolicy debounce;
  size_t max_message_bytes = 256u * 1024 * 1024;
  LogLevel log_level = LogLevel::warning;
  std::string version = "0"; // serverInfo.version
  Settings settings;         // defaults before initializationOptions (docs URL, size limit, ...)
  int client_process_id = 0; // --clientProcessId: exit when this process is gone (0: none)
  std::chrono::milliseconds process_poll_interval{1000}; // how often that process is checked
};

// Serves LSP on `in_fd`/`out_fd` until `exit` or the end of the input. Returns the process exit
// code: 0 after shutdown, 1 otherwise.
int run_server(const ServerOptions& options, int in_fd = 0, int out_fd = 1);

} // namespace blockls::lsp
