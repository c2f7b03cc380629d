// One LSP session: the state the dispatcher and the handlers share (documents, requests in
// flight, what the client supports, the settings) and the bookkeeping they all use (replying
// exactly once, requests to the client, waiting for an analysis, scheduling). Everything here
// runs on the io thread; only the analyses run on the scheduler's worker (see server.cpp).
#pragma once

#include "lsp/analysis.h"
#include "lsp/documents.h"
#include "lsp/features.h"
#include "lsp/process_watch.h"
#include "lsp/protocol.h"
#include "lsp/protocol_results.h"
#include "lsp/protocol_types.h"
#include "lsp/scheduler.h"
#include "lsp/server.h"
#include "lsp/settings.h"
#include "lsp/transport.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace blockls::lsp {

// The key of a request id in the maps below (its JSON text: 1 and "1" differ).
std::string id_key(const json& id);

// A request not answered yet.
struct InFlight {
  json id;
  std::string method;
  std::string waiting_uri; // parked until the analysis of this document is current
  bool implicit = false;   // answered with ContentModified when the document changes
};

using AnalysisFn = std::function<void(std::shared_ptr<const Analysis>)>;

// A request parked on a document until its current analysis arrives.
struct Waiter {
  std::string key;
  AnalysisFn fn;
};

// An open document.
struct Doc {
  std::string uri;
  int64_t version = 0;
  uint64_t generation = 0;
  DocumentText text;
  bool desynced = false;
  std::string desync_reason;
  std::shared_ptr<const Analysis> analysis; // the newest delivered (maybe of an older generation)
  std::vector<Waiter> waiters;
};

class Session {
public:
  using PublishFn = std::function<void(const std::string& uri, std::shared_ptr<const Analysis>)>;
  using GoneFn = std::function<void(int pid)>;

  // `publish` receives each finished analysis, `client_gone` the end of the watched client.
  Session(const ServerOptions& options, int in_fd, int out_fd, PublishFn publish,
          GoneFn client_gone);

  // ---- output ----
  void log(LogLevel level, const std::string& message);
  void send(json message);
  void notify(const std::string& method, json params);
  void show_message(int type, const std::string& message);
  // $/progress for the work-done token of a request (nothing when the request had none).
  void progress(const json& token, const WorkDoneProgress& value);
  // Answers request `id` unless it was answered already (then logs: a bug, never a 2nd reply).
  bool take(const json& id);
  void reply(const json id, json result); // by value: `id` may live in in_flight
  void reply_error(const json id, int code, const std::string& message);
  // A request to the client; `cb` gets its result or error (after 100 unanswered ones, the
  // oldest fails with "no response from the client").
  void request(const std::string& method, json params,
               std::function<void(const json& result, const json* error)> cb);
  // Runs the callback of a request to the client with its answer; what the callback throws
  // (a malformed answer) is logged, and the server keeps serving.
  void answer(const std::string& out_id, std::function<void(const json&, const json*)> cb,
              const json& result, const json* error);

  // ---- lifecycle ----
  // LSP `processId` / --clientProcessId: a server whose client is gone exits.
  void watch_client(int pid, const char* from);
  // Answers what is still parked and stops the io loop with exit code `code`.
  void finish(int code);

  // ---- documents and analyses ----
  Doc* find_doc(const std::string& uri);
  void schedule(Doc& doc);
  void reschedule_all();
  void files_changed(const std::string& why);
  // Implicit cancellation: parked automatic requests are now about an old version.
  void invalidate_waiters(Doc& doc, int code, const std::string& why);
  // Runs `fn` with the analysis of the document's current version, now or when it arrives.
  void with_analysis(const json& id, const std::string& uri, bool implicit, AnalysisFn fn);
  // Answers the blockls/sync requests once every open document's analysis is current.
  void check_sync();
  // Settings and workspace roots changed: a new context (its problems shown to the user).
  void rebuild_context(const std::vector<std::string>& earlier_problems);
  FeatureContext features(const std::string& uri, const Analysis& a) const;

  // Construction order matters: the transport, scheduler and watch use io.
  const ServerOptions options;
  Settings settings;
  std::shared_ptr<boost::asio::io_context> io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work;
  StdioTransport transport;
  Scheduler scheduler;
  ProcessWatch client_watch; // after io: destroyed before it
  std::shared_ptr<const AnalysisContext> context;
  std::shared_ptr<CachedDiskSource> files = std::make_shared<CachedDiskSource>();

  bool initialized = false, shutdown = false;
  int exit_code = 1;
  json client_capabilities = json::object(), server_capabilities = json::object();
  ClientCapabilities client; // as read by initialize
  bool watching_files = false;
  std::vector<std::string> workspace_roots;

  std::map<std::string, Doc> docs;
  uint64_t generation = 0;
  std::map<std::string, InFlight> in_flight;
  std::vector<json> sync_waiters;
  uint64_t next_out_id = 0;
  std::map<std::string, std::function<void(const json&, const json*)>> out_pending;
  std::deque<std::string> out_order;
};

} // namespace blockls::lsp
