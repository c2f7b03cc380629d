// The language server proper. Threads: the transport's reader thread only posts frames into
// the io_context; everything else (documents, dispatch, replies, publishing) runs on the io
// thread; analyses run on the scheduler's worker. A replaced analysis is freed after the new
// one is published (freeing a large document's analysis takes milliseconds; a separate thread
// for it was measured slower: cross-thread frees contend on malloc's arena). Every request is
// answered exactly once: `in_flight_` holds the requests not yet answered, and reply() refuses a
// second answer.
#include "lsp/server.h"

#include "apply/journal.h"
#include "apply/run.h"
#include "apply/workspace_edit.h"
#include "diagnostics/json_text.h"
#include "grammar/dialects.h"
#include "lsp/documents.h"
#include "lsp/features.h"
#include "lsp/process_watch.h"
#include "lsp/transport.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <csignal>
#include <deque>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace blockls::lsp {
namespace {

const char* const kCommands[] = {"blockls.executeBlock", "blockls.executeAll",
                                 "blockls.showDebugInfo"};

std::string id_key(const json& id) {
  return dump_json(id);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// file:///a%20b -> /a b; "" for other schemes.
std::string path_from_uri(std::string_view uri) {
  if (!uri.starts_with("file://")) return "";
  uri.remove_prefix(7);
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex_value(uri[i + 1]) >= 0 &&
        hex_value(uri[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::vector<std::string> string_list(const json& value, const std::string& name,
                                     std::vector<std::string>* problems) {
  std::vector<std::string> out;
  if (!value.is_array()) {
    problems->push_back(name + " must be an array of strings");
    return out;
  }
  for (const json& v : value)
    if (v.is_string())
      out.push_back(v.get<std::string>());
    else
      problems->push_back(name + " must be an array of strings");
  return out;
}

// Reads the blockls settings from initializationOptions or didChangeConfiguration's settings
// (either the object itself or {"blockls": {...}}).
void read_settings(const json& raw, Settings* settings, std::vector<std::string>* problems) {
  if (!raw.is_object()) return;
  const json& s = raw.contains("blockls") && raw["blockls"].is_object() ? raw["blockls"] : raw;
  if (auto it = s.find("dialects"); it != s.end()) {
    // Every name is read: an unknown one is reported, the known ones still count.
    std::vector<std::string> unknown;
    settings->dialects = read_dialect_names(string_list(*it, "dialects", problems), &unknown);
    for (const std::string& message : unknown)
      problems->push_back("dialects: " + message);
  }
  if (auto it = s.find("allowedRoots"); it != s.end()) {
    settings->allowed_roots.clear();
    for (const std::string& r : string_list(*it, "allowedRoots", problems)) {
      const std::string path = r.starts_with("file://") ? path_from_uri(r) : r;
      settings->allowed_roots.push_back(path);
    }
  }
  if (auto it = s.find("denyPatterns"); it != s.end())
    settings->deny_patterns = string_list(*it, "denyPatterns", problems);
  if (auto it = s.find("execAllowed"); it != s.end()) {
    if (it->is_boolean())
      settings->exec_allowed = it->get<bool>();
    else
      problems->push_back("execAllowed must be a boolean");
  }
  if (auto it = s.find("schemaFile"); it != s.end()) {
    if (it->is_string())
      settings->schema_file = it->get<std::string>();
    else
      problems->push_back("schemaFile must be a string");
  }
  if (auto it = s.find("maxDocumentBytes"); it != s.end()) {
    if (it->is_number_unsigned())
      settings->max_document_bytes = it->get<size_t>();
    else
      problems->push_back("maxDocumentBytes must be a non-negative integer");
  }
  if (auto it = s.find("docsUrl"); it != s.end()) {
    if (it->is_string())
      settings->docs_url = it->get<std::string>();
    else
      problems->push_back("docsUrl must be a string");
  }
}

class Server {
public:
  Server(const ServerOptions& options, int in_fd, int out_fd)
      : options_(options), settings_(options.settings),
        io_(std::make_shared<boost::asio::io_context>()), work_(boost::asio::make_work_guard(*io_)),
        transport_(in_fd, out_fd, options.max_message_bytes),
        scheduler_(*io_, options.debounce,
                   [this](const std::string& uri, std::shared_ptr<const Analysis> a) {
                     on_analysis(uri, std::move(a));
                   }),
        client_watch_(*io_, options.process_poll_interval,
                      [this](int pid) { on_client_gone(pid); }) {
    context_ = make_context(settings_, {});
  }

  int run() {
    std::shared_ptr<boost::asio::io_context> io = io_;
    transport_.start(
        [io, this](Frame frame) {
          boost::asio::post(
              *io, [this, frame = std::move(frame)]() mutable { on_frame(std::move(frame)); });
        },
        [io, this] { boost::asio::post(*io, [this] { on_eof(); }); });
    if (options_.client_process_id > 0)
      watch_client(options_.client_process_id, "--clientProcessId");
    io_->run();
    scheduler_.stop();
    transport_.detach_reader();
    return exit_code_;
  }

private:
  struct InFlight {
    json id;
    std::string method;
    std::string waiting_uri; // parked until the analysis of this document is current
    bool implicit = false;   // answered with ContentModified when the document changes
  };
  using AnalysisFn = std::function<void(std::shared_ptr<const Analysis>)>;
  struct Waiter {
    std::string key;
    AnalysisFn fn;
  };
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

  // ---- logging and output ----------------------------------------------------------------
  void log(LogLevel level, const std::string& message) {
    if (level > options_.log_level) return;
    static const char* const names[] = {"E", "W", "I", "D"};
    std::cerr << "blockls[" << names[static_cast<int>(level)] << "] " << message << '\n'
              << std::flush;
  }

  void send(json message) {
    message["jsonrpc"] = "2.0";
    if (options_.log_level >= LogLevel::debug)
      log(LogLevel::debug, "--> " + dump_message(message).substr(0, 500));
    transport_.send(message);
  }

  void notify(const std::string& method, json params) {
    send({{"method", method}, {"params", std::move(params)}});
  }

  void show_message(int type, const std::string& message) {
    notify("window/showMessage", {{"type", type}, {"message", message}});
  }

  // Answers request `id` unless it was answered already (then logs: a bug, never a 2nd reply).
  bool take(const json& id) {
    auto it = in_flight_.find(id_key(id));
    if (it == in_flight_.end()) {
      log(LogLevel::error, "request " + dump_json(id) + " answered twice (second answer dropped)");
      return false;
    }
    in_flight_.erase(it);
    return true;
  }

  void reply(const json id, json result) { // by value: `id` may live in in_flight_
    if (!take(id)) return;
    send({{"id", id}, {"result", std::move(result)}});
  }

  void reply_error(const json id, int code, const std::string& message) {
    if (!id.is_null() && !take(id)) return;
    send({{"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

  void request(const std::string& method, json params,
               std::function<void(const json& result, const json* error)> cb) {
    const std::string id = "blockls-" + std::to_string(++next_out_id_);
    out_order_.push_back(id);
    out_pending_[id] = std::move(cb);
    if (out_order_.size() > 100) { // the client never answered: fail the oldest
      const std::string oldest = out_order_.front();
      out_order_.pop_front();
      auto it = out_pending_.find(oldest);
      if (it != out_pending_.end()) {
        auto fn = std::move(it->second);
        out_pending_.erase(it);
        const json error = {{"code", kInternalError}, {"message", "no response from the client"}};
        fn(nullptr, &error);
      }
    }
    send({{"id", id}, {"method", method}, {"params", std::move(params)}});
  }

  // ---- input -----------------------------------------------------------------------------
  void on_eof() {
    log(LogLevel::info, "end of input");
    finish(shutdown_ ? 0 : 1);
  }

  // LSP `processId` / --clientProcessId: a server whose client is gone exits (1 unless it was
  // shut down), as it would at the end of its input.
  void watch_client(int pid, const char* from) {
    if (!client_watch_.watch(pid))
      log(LogLevel::warning, std::string(from) + ": process " + std::to_string(pid) +
                                 " is not visible from here (another PID namespace?); not watched");
  }

  void on_client_gone(int pid) {
    log(LogLevel::info, "the client process " + std::to_string(pid) + " is gone: exiting");
    finish(shutdown_ ? 0 : 1);
  }

  void finish(int code) {
    exit_code_ = code;
    // Requests still parked get their one answer.
    std::vector<json> ids;
    for (const auto& [key, f] : in_flight_)
      ids.push_back(f.id);
    for (const json& id : ids)
      reply_error(id, kRequestCancelled, "the server is exiting");
    work_.reset();
    io_->stop();
  }

  void on_frame(Frame frame) {
    if (frame.kind == Frame::Kind::error) {
      log(LogLevel::error, "framing: " + frame.error);
      reply_error(nullptr, kParseError, frame.error);
      return;
    }
    json message;
    try {
      message = json::parse(frame.body);
    } catch (const json::exception& e) {
      log(LogLevel::error, std::string("malformed JSON: ") + e.what());
      reply_error(nullptr, kParseError, std::string("Malformed JSON: ") + e.what());
      return;
    }
    if (options_.log_level >= LogLevel::debug)
      log(LogLevel::debug, "<-- " + frame.body.substr(0, 500));
    if (!message.is_object()) {
      reply_error(nullptr, kInvalidRequest, "A message must be a JSON object");
      return;
    }
    const auto method = message.find("method");
    const auto id = message.find("id");
    const bool has_id = id != message.end() &&
                        (id->is_string() || id->is_number_integer() || id->is_number_unsigned());
    if (method == message.end()) {
      if (has_id && (message.contains("result") || message.contains("error")))
        on_response(message);
      else
        reject_invalid(message, "A message without 'method' must be a response");
      return;
    }
    if (!method->is_string()) {
      if (id == message.end() || id->is_null()) { // a notification: nothing to answer
        log(LogLevel::warning, "ignored a notification whose 'method' is not a string");
        return;
      }
      reject_invalid(message, "'method' must be a string");
      return;
    }
    const json params = message.contains("params") ? message["params"] : json(nullptr);
    if (has_id)
      on_request(*id, method->get<std::string>(), params);
    else if (id != message.end() && !id->is_null())
      reply_error(nullptr, kInvalidRequest, "'id' must be a string or an integer");
    else
      on_notification(method->get<std::string>(), params);
  }

  // Answers a message that is no valid request with InvalidRequest, once: under its id when it
  // has a usable one (the request was never registered in in_flight_, so reply_error() would
  // refuse it as a second answer), else under id null.
  void reject_invalid(const json& message, const std::string& why) {
    const auto id = message.find("id");
    const bool usable = id != message.end() &&
                        (id->is_string() || id->is_number_integer() || id->is_number_unsigned());
    log(LogLevel::warning, "invalid request: " + why);
    send({{"id", usable ? *id : json(nullptr)},
          {"error", {{"code", kInvalidRequest}, {"message", why}}}});
  }

  void on_response(const json& message) {
    const std::string id =
        message["id"].is_string() ? message["id"].get<std::string>() : dump_json(message["id"]);
    auto it = out_pending_.find(id);
    if (it == out_pending_.end()) {
      log(LogLevel::warning, "response to an unknown request " + id);
      return;
    }
    auto fn = std::move(it->second);
    out_pending_.erase(it);
    std::erase(out_order_, id);
    if (message.contains("error"))
      fn(nullptr, &message["error"]);
    else
      fn(message["result"], nullptr);
  }

  void on_request(const json& id, const std::string& method, const json& params) {
    const std::string key = id_key(id);
    if (in_flight_.count(key)) {
      send({{"id", id},
            {"error",
             {{"code", kInvalidRequest},
              {"message", "A request with this id is still in progress"}}}});
      return;
    }
    in_flight_[key] = InFlight{id, method, "", false};
    if (shutdown_)
      return reply_error(id, kInvalidRequest,
                         "The server is shutting down (shutdown was received)");
    if (!initialized_ && method != "initialize")
      return reply_error(id, kServerNotInitialized,
                         "The server is not initialized (send 'initialize' first)");
    try {
      dispatch_request(id, method, params);
    } catch (const LspError& e) {
      reply_error(id, e.code, e.what());
    } catch (const json::exception& e) {
      reply_error(id, kInvalidParams, std::string("invalid params: ") + e.what());
    } catch (const std::exception& e) {
      reply_error(id, kInternalError, e.what());
    }
  }

  void on_notification(const std::string& method, const json& params) {
    if (method == "exit") return finish(shutdown_ ? 0 : 1);
    if (!initialized_ || shutdown_) {
      log(LogLevel::info, "dropped notification " + method +
                              (shutdown_ ? " (after shutdown)" : " (before initialize)"));
      return;
    }
    try {
      if (method == "initialized")
        on_initialized();
      else if (method == "textDocument/didOpen")
        did_open(params);
      else if (method == "textDocument/didChange")
        did_change(params);
      else if (method == "textDocument/didClose")
        did_close(params);
      else if (method == "textDocument/didSave")
        did_save(params);
      else if (method == "$/cancelRequest")
        cancel(params);
      else if (method == "workspace/didChangeConfiguration")
        did_change_configuration(params);
      else if (method == "workspace/didChangeWatchedFiles")
        files_changed("watched files changed");
      else if (method == "workspace/didChangeWorkspaceFolders")
        did_change_folders(params);
      else
        log(LogLevel::info, "ignored notification " + method);
    } catch (const std::exception& e) {
      // A notification cannot be answered: log it and tell the user.
      log(LogLevel::error, method + ": " + e.what());
      show_message(1, "blockls: " + method + ": " + e.what());
    }
  }

  void dispatch_request(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") return initialize(id, params);
    if (method == "shutdown") {
      shutdown_ = true;
      return reply(id, nullptr);
    }
    if (method == "textDocument/codeAction") {
      const std::string uri = require_string(params, "textDocument.uri");
      require_object(params, "range");
      require_array(params, "context.diagnostics");
      return with_analysis(id, uri, true,
                           [this, id, uri, params](std::shared_ptr<const Analysis> a) {
                             reply(id, code_actions(features(uri, *a), params, defer_fix_all_));
                           });
    }
    if (method == "codeAction/resolve") return resolve_code_action(id, params);
    if (method == "textDocument/codeLens") {
      const std::string uri = require_string(params, "textDocument.uri");
      return with_analysis(id, uri, true, [this, id, uri](std::shared_ptr<const Analysis> a) {
        reply(id, code_lenses(features(uri, *a)));
      });
    }
    if (method == "textDocument/documentSymbol") {
      const std::string uri = require_string(params, "textDocument.uri");
      return with_analysis(id, uri, true, [this, id, uri](std::shared_ptr<const Analysis> a) {
        reply(id, document_symbols(features(uri, *a)));
      });
    }
    if (method == "textDocument/foldingRange") {
      const std::string uri = require_string(params, "textDocument.uri");
      return with_analysis(id, uri, true, [this, id, uri](std::shared_ptr<const Analysis> a) {
        reply(id, folding_ranges(features(uri, *a)));
      });
    }
    if (method == "textDocument/hover") {
      const std::string uri = require_string(params, "textDocument.uri");
      const Position position = parse_position(params, "position");
      return with_analysis(id, uri, true,
                           [this, id, uri, position](std::shared_ptr<const Analysis> a) {
                             reply(id, hover(features(uri, *a), position));
                           });
    }
    if (method == "workspace/executeCommand") return execute_command(id, params);
    if (method == "blockls/sync") {
      sync_waiters_.push_back(id);
      scheduler_.flush_all();
      return check_sync();
    }
    reply_error(id, kMethodNotFound, "Unknown method '" + method + "'");
  }

  // ---- lifecycle -------------------------------------------------------------------------
  void initialize(const json& id, const json& params) {
    if (initialized_) return reply_error(id, kInvalidRequest, "initialize was already received");
    if (!params.is_object())
      throw LspError(kInvalidParams, "missing field 'params' (expected object)");
    optional_field(params, "capabilities", json::value_t::object);
    client_capabilities_ = params.value("capabilities", json::object());
    const json& caps = client_capabilities_;
    if (const auto pid = params.find("processId");
        pid != params.end() && pid->is_number_integer() && pid->get<int64_t>() > 0 &&
        pid->get<int64_t>() <= std::numeric_limits<int>::max())
      watch_client(pid->get<int>(), "initialize.processId");

    // Position encoding: the client's first preference we support; UTF-16 otherwise.
    encoding_ = PositionEncoding::utf16;
    if (const json* list =
            optional_field(caps, "general.positionEncodings", json::value_t::array)) {
      for (const json& e : *list) {
        if (e == "utf-8") {
          encoding_ = PositionEncoding::utf8;
          break;
        }
        if (e == "utf-16") {
          encoding_ = PositionEncoding::utf16;
          break;
        }
      }
    }
    document_changes_ = capability(caps, "workspace.workspaceEdit.documentChanges");
    if (const json* ops = optional_field(caps, "workspace.workspaceEdit.resourceOperations",
                                         json::value_t::array))
      for (const json& op : *ops)
        if (op.is_string()) resource_operations_.insert(op.get<std::string>());
    apply_edit_ = capability(caps, "workspace.applyEdit");
    related_information_ = capability(caps, "textDocument.publishDiagnostics.relatedInformation");
    watch_dynamic_ = capability(caps, "workspace.didChangeWatchedFiles.dynamicRegistration");
    work_done_progress_ = capability(caps, "window.workDoneProgress");
    markdown_ = true;
    if (const json* formats =
            optional_field(caps, "textDocument.hover.contentFormat", json::value_t::array)) {
      markdown_ = false;
      for (const json& f : *formats)
        markdown_ = markdown_ || f == "markdown";
    }
    bool resolve_edit = false;
    if (const json* props = optional_field(
            caps, "textDocument.codeAction.resolveSupport.properties", json::value_t::array))
      for (const json& p : *props)
        resolve_edit = resolve_edit || p == "edit";
    defer_fix_all_ = resolve_edit && capability(caps, "textDocument.codeAction.dataSupport");
    const bool literals = optional_field(caps, "textDocument.codeAction.codeActionLiteralSupport",
                                         json::value_t::object) != nullptr;

    // Workspace roots: folders, else rootUri, else rootPath.
    if (const json* folders = optional_field(params, "workspaceFolders", json::value_t::array)) {
      for (const json& f : *folders)
        if (f.is_object() && f.contains("uri") && f["uri"].is_string())
          if (std::string p = path_from_uri(f["uri"].get<std::string>()); !p.empty())
            workspace_roots_.push_back(p);
    }
    if (workspace_roots_.empty()) {
      if (const json* root = optional_field(params, "rootUri", json::value_t::string)) {
        if (std::string p = path_from_uri(root->get<std::string>()); !p.empty())
          workspace_roots_.push_back(p);
      } else if (const json* path = optional_field(params, "rootPath", json::value_t::string)) {
        workspace_roots_.push_back(path->get<std::string>());
      }
    }
    std::vector<std::string> problems;
    if (params.contains("initializationOptions"))
      read_settings(params["initializationOptions"], &settings_, &problems);
    rebuild_context(problems);

    json code_action = literals ? json{{"codeActionKinds", {"quickfix", "source.fixAll.blockls"}},
                                       {"resolveProvider", true}}
                                : json(true);
    server_capabilities_ = {
        {"positionEncoding", encoding_name(encoding_)},
        {"textDocumentSync",
         {{"openClose", true}, {"change", 2}, {"save", {{"includeText", true}}}}},
        {"codeActionProvider", code_action},
        {"codeLensProvider", {{"resolveProvider", false}}},
        {"documentSymbolProvider", true},
        {"foldingRangeProvider", true},
        {"hoverProvider", true},
        {"executeCommandProvider", {{"commands", kCommands}}},
        {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}},
    };
    initialized_ = true;
    reply(id, {{"capabilities", server_capabilities_},
               {"serverInfo", {{"name", "blockls"}, {"version", options_.version}}}});
  }

  void on_initialized() {
    if (!watch_dynamic_) return;
    json registration = {
        {"id", "blockls-watched-files"},
        {"method", "workspace/didChangeWatchedFiles"},
        {"registerOptions", {{"watchers", json::array({{{"globPattern", "**/*"}}})}}}};
    request("client/registerCapability", {{"registrations", json::array({registration})}},
            [this](const json&, const json* error) {
              watching_files_ = error == nullptr;
              if (error)
                log(LogLevel::warning, "file watching not registered: " + dump_json(*error));
            });
  }

  void rebuild_context(const std::vector<std::string>& earlier_problems) {
    context_ = make_context(settings_, workspace_roots_);
    std::vector<std::string> problems = earlier_problems;
    problems.insert(problems.end(), context_->problems.begin(), context_->problems.end());
    for (const std::string& p : problems) {
      log(LogLevel::warning, "settings: " + p);
      show_message(2, "blockls settings: " + p);
    }
  }

  void did_change_configuration(const json& params) {
    std::vector<std::string> problems;
    if (params.is_object() && params.contains("settings"))
      read_settings(params["settings"], &settings_, &problems);
    rebuild_context(problems);
    reschedule_all();
  }

  void did_change_folders(const json& params) {
    const json& event = require_object(params, "event");
    for (const json& f : event.value("removed", json::array()))
      if (f.is_object() && f.contains("uri"))
        std::erase(workspace_roots_, path_from_uri(f["uri"].get<std::string>()));
    for (const json& f : event.value("added", json::array()))
      if (f.is_object() && f.contains("uri"))
        workspace_roots_.push_back(path_from_uri(f["uri"].get<std::string>()));
    rebuild_context({});
    reschedule_all();
  }

  // ---- documents -------------------------------------------------------------------------
  Doc* find_doc(const std::string& uri) {
    auto it = docs_.find(uri);
    return it == docs_.end() ? nullptr : &it->second;
  }

  void schedule(Doc& doc) {
    doc.generation = ++generation_;
    scheduler_.update(doc.uri,
                      [text = doc.text.text, version = doc.version, generation = doc.generation,
                       context = context_, files = files_, base = doc.analysis] {
                        return analyze(text, version, generation, context, files, base);
                      });
  }

  void reschedule_all() {
    for (auto& [uri, doc] : docs_)
      schedule(doc);
  }

  void files_changed(const std::string& why) {
    log(LogLevel::info, why + ": workspace checks run again");
    files_->clear();
    reschedule_all();
  }

  void did_open(const json& params) {
    const std::string uri = require_string(params, "textDocument.uri");
    std::string text = require_string(params, "textDocument.text");
    const int64_t version = require_int(params, "textDocument.version");
    Doc& doc = docs_[uri];
    doc.uri = uri;
    doc.version = version;
    doc.text = DocumentText::from(std::move(text));
    doc.desynced = false;
    schedule(doc);
  }

  // Implicit cancellation: parked automatic requests are now about an old version.
  void invalidate_waiters(Doc& doc, int code, const std::string& why) {
    std::vector<Waiter> keep;
    for (Waiter& w : doc.waiters) {
      auto it = in_flight_.find(w.key);
      if (it == in_flight_.end()) continue;
      if (it->second.implicit || code != kContentModified)
        reply_error(it->second.id, code, why);
      else
        keep.push_back(std::move(w));
    }
    doc.waiters = std::move(keep);
  }

  void did_change(const json& params) {
    const std::string uri = require_string(params, "textDocument.uri");
    const int64_t version = require_int(params, "textDocument.version");
    const json& changes = require_array(params, "contentChanges");
    Doc* doc = find_doc(uri);
    if (!doc) throw LspError(kInvalidParams, "textDocument.uri: the document is not open: " + uri);
    if (version <= doc->version)
      log(LogLevel::warning,
          uri + ": version " + std::to_string(version) + " after " + std::to_string(doc->version));
    bool full = !changes.empty();
    for (const json& c : changes)
      full = full && c.is_object() && !c.contains("range");
    DocumentText next;
    std::string error;
    if (doc->desynced && !full) {
      error = "the document is out of sync since an earlier change was rejected";
    } else if (apply_content_changes(doc->text, changes, encoding_, &next, &error)) {
      const bool was_desynced = doc->desynced;
      doc->text = std::move(next);
      doc->version = version;
      doc->desynced = false;
      if (was_desynced) log(LogLevel::info, uri + ": resynchronised by a full-text change");
      invalidate_waiters(*doc, kContentModified,
                         "The document changed (version " + std::to_string(version) + ")");
      schedule(*doc);
      return;
    }
    // Keep the last good text, say so visibly, and wait for a full text (save or full change).
    log(LogLevel::error,
        uri + ": change to version " + std::to_string(version) + " rejected: " + error);
    if (!doc->desynced) {
      show_message(1, "blockls: an edit of " + uri + " could not be applied (" + error +
                          "); diagnostics are paused until the document is saved or reopened");
    }
    doc->desynced = true;
    doc->desync_reason = error;
    doc->version = version;
    invalidate_waiters(*doc, kContentModified,
                       "The document changed (version " + std::to_string(version) + ")");
    schedule(*doc);
  }

  void did_save(const json& params) {
    const std::string uri = require_string(params, "textDocument.uri");
    Doc* doc = find_doc(uri);
    if (doc) {
      if (const json* text = optional_field(params, "text", json::value_t::string)) {
        if (doc->desynced || *text != *doc->text.text) {
          if (doc->desynced) log(LogLevel::info, uri + ": resynchronised from the saved text");
          doc->text = DocumentText::from(text->get<std::string>());
          doc->desynced = false;
          invalidate_waiters(*doc, kContentModified, "The document was resynchronised");
        }
      }
    }
    // Without file watching, a save is when workspace checks are refreshed.
    if (!watching_files_) {
      files_changed("saved " + uri);
    } else if (doc) {
      files_->clear();
      schedule(*doc);
    }
  }

  void did_close(const json& params) {
    const std::string uri = require_string(params, "textDocument.uri");
    Doc* doc = find_doc(uri);
    if (!doc) return;
    invalidate_waiters(*doc, kRequestFailed, "The document was closed");
    docs_.erase(uri);
    scheduler_.remove(uri);
    notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
    check_sync();
  }

  FeatureContext features(const std::string& uri, const Analysis& a) const {
    FeatureContext ctx{a,
                       uri,
                       encoding_,
                       a.context->settings.docs_url,
                       related_information_,
                       document_changes_,
                       markdown_};
    return ctx;
  }

  void on_analysis(const std::string& uri, std::shared_ptr<const Analysis> a) {
    Doc* doc = find_doc(uri);
    if (!doc || !a || a->generation != doc->generation) {
      log(LogLevel::debug, uri + ": dropped a superseded analysis");
      return check_sync();
    }
    // The previous analysis is freed after publishing, not before.
    std::shared_ptr<const Analysis> previous = std::exchange(doc->analysis, a);
    log(LogLevel::debug, uri + ": analysed version " + std::to_string(a->version) + " in " +
                             std::to_string(a->elapsed.count()) + " us");
    json diagnostics = diagnostics_json(features(uri, *a));
    if (doc->desynced) {
      diagnostics.insert(
          diagnostics.begin(),
          json{{"range",
                {{"start", {{"line", 0}, {"character", 0}}},
                 {"end", {{"line", 0}, {"character", 0}}}}},
               {"severity", 1},
               {"code", "OUT_OF_SYNC"},
               {"source", "blockls"},
               {"message",
                "blockls lost track of this document (" + doc->desync_reason +
                    "); save or reopen it to resynchronise. Diagnostics below may be stale."}});
    }
    notify("textDocument/publishDiagnostics",
           {{"uri", uri}, {"version", a->version}, {"diagnostics", std::move(diagnostics)}});
    previous.reset();
    std::vector<Waiter> waiters = std::move(doc->waiters);
    doc->waiters.clear();
    for (Waiter& w : waiters) {
      auto it = in_flight_.find(w.key);
      if (it == in_flight_.end()) continue; // cancelled meanwhile
      it->second.waiting_uri.clear();
      const json id = it->second.id;
      try {
        w.fn(a);
      } catch (const LspError& e) {
        reply_error(id, e.code, e.what());
      } catch (const std::exception& e) {
        reply_error(id, kInternalError, e.what());
      }
    }
    check_sync();
  }

  // Runs `fn` with the analysis of the document's current version, now or when it arrives.
  void with_analysis(const json& id, const std::string& uri, bool implicit, AnalysisFn fn) {
    Doc* doc = find_doc(uri);
    if (!doc) throw LspError(kInvalidParams, "textDocument.uri: the document is not open: " + uri);
    if (doc->analysis && doc->analysis->generation == doc->generation) return fn(doc->analysis);
    InFlight& f = in_flight_[id_key(id)];
    f.waiting_uri = uri;
    f.implicit = implicit;
    doc->waiters.push_back({id_key(id), std::move(fn)});
  }

  void check_sync() {
    if (sync_waiters_.empty()) return;
    for (const auto& [uri, doc] : docs_)
      if (!doc.analysis || doc.analysis->generation != doc.generation) return;
    std::vector<json> ids = std::move(sync_waiters_);
    sync_waiters_.clear();
    for (const json& id : ids)
      reply(id, nullptr);
  }

  void cancel(const json& params) {
    const json& id = require_field(params, "id");
    auto it = in_flight_.find(id_key(id));
    if (it == in_flight_.end()) return; // answered already
    const std::string key = it->first;
    if (!it->second.waiting_uri.empty())
      if (Doc* doc = find_doc(it->second.waiting_uri))
        std::erase_if(doc->waiters, [&](const Waiter& w) { return w.key == key; });
    std::erase(sync_waiters_, id);
    reply_error(it->second.id, kRequestCancelled, "The request was cancelled");
  }

  // ---- code actions ----------------------------------------------------------------------
  void resolve_code_action(const json& id, const json& params) {
    if (!params.is_object())
      throw LspError(kInvalidParams, "missing field 'params' (expected object)");
    if (params.contains("edit") || !params.contains("data")) return reply(id, params);
    const json& data = require_object(params, "data");
    if (!data.value("fixAll", false)) return reply(id, params);
    const std::string uri = require_string(data, "uri");
    const int64_t version = require_int(data, "version");
    with_analysis(id, uri, true,
                  [this, id, uri, version, params](std::shared_ptr<const Analysis> a) {
                    if (a->version != version)
                      return reply_error(id, kContentModified,
                                         "The document changed since the action was offered");
                    json action = params;
                    action["edit"] = fix_all_edit(features(uri, *a));
                    if (action["edit"].is_null()) action["edit"] = json::object();
                    reply(id, action);
                  });
  }

  // ---- commands --------------------------------------------------------------------------
  void execute_command(const json& id, const json& params) {
    const std::string command = require_string(params, "command");
    const json* args = optional_field(params, "arguments", json::value_t::array);
    const json arg = args && !args->empty() ? (*args)[0] : json::object();
    const json token = params.contains("workDoneToken") ? params["workDoneToken"] : json(nullptr);
    if (command == "blockls.showDebugInfo") return reply(id, debug_info(arg));
    if (command != "blockls.executeBlock" && command != "blockls.executeAll")
      throw LspError(kInvalidParams, "command: unknown command '" + command + "'");
    if (!arg.is_object())
      throw LspError(kInvalidParams, "missing field 'arguments[0]' (expected object)");
    const bool all = command == "blockls.executeAll";
    const std::string uri = require_string(arg, "uri");
    const int64_t version = require_int(arg, "version");
    const int64_t line = all ? 0 : require_int(arg, "line");
    const Doc* doc = find_doc(uri);
    if (!doc) throw LspError(kInvalidParams, "arguments[0].uri: the document is not open: " + uri);
    // A line outside the document is a bad argument, not a line without a block.
    const uint32_t lines = doc->text.lines->line_count();
    if (!all && (line < 0 || line >= lines))
      throw LspError(kInvalidParams, "invalid field 'line' (expected a 0-based line of the "
                                     "document, 0 to " +
                                         std::to_string(lines - 1) + ")");
    with_analysis(id, uri, false,
                  [this, id, uri, version, line, all, token](std::shared_ptr<const Analysis> a) {
                    execute(id, uri, version, line, all, token, std::move(a));
                  });
  }

  void progress(const json& token, json value) {
    if (token.is_null()) return;
    notify("$/progress", {{"token", token}, {"value", std::move(value)}});
  }

  void execute(const json& id, const std::string& uri, int64_t version, int64_t line, bool all,
               const json& token, std::shared_ptr<const Analysis> a) {
    Doc* doc = find_doc(uri);
    if (!doc)
      return reply_error(id, kRequestFailed, "The document was closed; nothing was changed");
    if (doc->version != version || a->version != version)
      return reply_error(
          id, kRequestFailed,
          "The document changed since version " + std::to_string(version) +
              " (it is now at version " + std::to_string(doc->version) +
              "); nothing was changed. Run the command again from the current code lens.");
    if (doc->desynced)
      return reply_error(id, kRequestFailed,
                         "The document is out of sync; save it first. Nothing was changed.");
    if (a->too_large)
      return reply_error(id, kRequestFailed,
                         "The document is too large to be checked; nothing was changed.");
    const auto& blocks = a->checked.parsed.blocks;
    std::vector<int> targets;
    if (all) {
      for (int b : a->plan().planned_blocks)
        if (a->block_errors(b) == 0) targets.push_back(b);
      if (targets.empty())
        return reply_error(id, kRequestFailed, "No valid block to apply; nothing was changed.");
    } else {
      const int b = line >= 0 ? a->block_at_line(static_cast<uint32_t>(line)) : -1;
      if (b < 0)
        return reply_error(id, kRequestFailed,
                           "No block at line " + std::to_string(line + 1) +
                               "; nothing was changed.");
      if (const size_t errors = a->block_errors(b); errors > 0) {
        std::string first;
        for (const Diagnostic& d : a->diagnostics)
          if (d.block == b && is_error(d.severity)) {
            first =
                std::string(d.code) + " at line " + std::to_string(d.line + 1) + ": " + d.message;
            break;
          }
        return reply_error(id, kRequestFailed,
                           "The " + block_label(*a->text, blocks[b]) + " has " +
                               count_noun(errors, "error") + " (first: " + first +
                               "); nothing was changed.");
      }
      targets.push_back(b);
    }
    if (!a->simulation || !a->context->apply_config)
      return reply_error(
          id, kRequestFailed,
          "No workspace root is known (open a folder or set allowedRoots); nothing was changed.");
    std::vector<const apply::BlockSimulation*> sims;
    for (int b : targets) {
      const apply::BlockSimulation* sim = a->block_simulation(b);
      if (!sim) {
        if (!all)
          return reply_error(id, kRequestFailed,
                             "The " + block_label(*a->text, blocks[b]) +
                                 " has no action; nothing was changed.");
        continue;
      }
      if (sim->ok) sims.push_back(sim);
    }
    if (sims.empty())
      return reply_error(id, kRequestFailed, "Nothing to apply; nothing was changed.");

    std::string label = all ? "blockls: apply " + count_noun(sims.size(), "block")
                            : "blockls: apply " + block_label(*a->text, blocks[targets.front()]);
    progress(token, {{"kind", "begin"}, {"title", label}, {"cancellable", false}});

    // Which backend: a WorkspaceEdit when the client can apply every operation, else the disk.
    bool needs_create = false, needs_rename = false, needs_delete = false, has_exec = false;
    for (const apply::BlockSimulation* sim : sims)
      for (const apply::ActionOutcome& o : sim->actions)
        for (const apply::FileEffect& e : o.effects) {
          using K = apply::FileEffect::Kind;
          needs_create |= e.kind == K::write && !e.before;
          needs_rename |= e.kind == K::move;
          needs_delete |= e.kind == K::remove || e.kind == K::remove_dir;
          has_exec |= e.kind == K::exec;
        }
    const bool edit_ok = apply_edit_ && document_changes_ && !has_exec &&
                         (!needs_create || resource_operations_.count("create")) &&
                         (!needs_rename || resource_operations_.count("rename")) &&
                         (!needs_delete || resource_operations_.count("delete"));
    if (edit_ok) {
      apply::Simulation sub;
      for (const apply::BlockSimulation* sim : sims)
        sub.blocks.push_back(*sim);
      apply::WorkspaceEditOptions opts;
      opts.position_encoding = std::string(encoding_name(encoding_));
      apply::WorkspaceEditResult r = apply::workspace_edit(sub, opts);
      json results = r.results;
      request(
          "workspace/applyEdit", {{"label", label}, {"edit", r.edit}},
          [this, id, token, results, a, label](const json& result, const json* error) {
            if (!in_flight_.count(id_key(id))) return; // cancelled meanwhile
            const bool applied = !error && result.is_object() && result.value("applied", false);
            json out = {{"applied", applied}, {"backend", "workspaceEdit"}, {"results", results}};
            if (!applied) {
              out["failureReason"] =
                  error ? error->value("message", "error")
                        : result.value("failureReason", "the client did not apply the edit");
            }
            progress(token, {{"kind", "end"}, {"message", applied ? "applied" : "not applied"}});
            reply(id, out);
            files_changed("applied an edit");
          });
      return;
    }
    // The disk backend (Neovim 0.7 and other clients without documentChanges).
    apply::StateDir state;
    std::string error;
    std::vector<std::string> recovered;
    if (!apply::prepare_state(state, *a->context->apply_config, &recovered, &error)) {
      progress(token, {{"kind", "end"}, {"message", "failed"}});
      return reply_error(id, kRequestFailed,
                         "Cannot prepare the workspace: " + error + "; nothing was changed.");
    }
    for (const std::string& m : recovered)
      log(LogLevel::info, m);
    apply::RunInput input{{*a->text, &a->checked, &a->plan(), &*a->context->apply_config}};
    std::vector<apply::BlockRequest> requests;
    for (const apply::BlockSimulation* sim : sims)
      requests.push_back({sim->block, sim});
    json results = json::array();
    json touched = json::array();
    bool applied = true;
    std::vector<std::string> messages;
    for (const apply::BlockOutcome& run : apply::run_blocks(input, requests, &state)) {
      for (const apply::ActionOutcome& o : run.actions)
        results.push_back(apply::result_json(o));
      for (const std::string& t : run.touched)
        touched.push_back(t);
      if (run.status == apply::BlockStatus::applied) {
        messages.push_back(block_label(*a->text, blocks[run.block]) + " applied (" +
                           count_noun(run.touched.size(), "path") + " changed)");
      } else {
        applied = false;
        messages.push_back(block_label(*a->text, blocks[run.block]) + " NOT applied: " + run.error +
                           " [" + run.code + "]");
      }
    }
    std::string summary;
    for (const std::string& m : messages)
      summary += (summary.empty() ? "" : "; ") + m;
    show_message(applied ? 3 : 1, "blockls: " + summary + " (on disk)");
    progress(token, {{"kind", "end"}, {"message", applied ? "applied" : "not applied"}});
    json out = {
        {"applied", applied}, {"backend", "disk"}, {"results", results}, {"touched", touched}};
    if (!applied) out["failureReason"] = summary;
    reply(id, out);
    files_changed("applied on disk");
  }

  json debug_info(const json& arg) {
    json docs = json::array();
    for (const auto& [uri, doc] : docs_)
      docs.push_back(uri);
    json settings = {{"allowedRoots", settings_.allowed_roots},
                     {"denyPatterns", settings_.deny_patterns},
                     {"execAllowed", settings_.exec_allowed},
                     {"schemaFile", settings_.schema_file},
                     {"maxDocumentBytes", settings_.max_document_bytes},
                     {"docsUrl", settings_.docs_url}};
    for (const DialectInfo* info : kDialectInfos) // one flag per registered dialect
      settings[std::string(info->name)] = settings_.dialects.contains(info->id);
    json out = {{"positionEncoding", encoding_name(encoding_)},
                {"clientCapabilities", client_capabilities_},
                {"serverCapabilities", server_capabilities_},
                {"workspaceRoots", workspace_roots_},
                {"settings", settings},
                {"documents", docs}};
    if (arg.is_object() && arg.contains("uri") && arg["uri"].is_string()) {
      const Doc* doc = find_doc(arg["uri"].get<std::string>());
      if (!doc) throw LspError(kInvalidParams, "arguments[0].uri: the document is not open");
      out["document"] = {{"uri", doc->uri},
                         {"version", doc->version},
                         {"desynced", doc->desynced},
                         {"bytes", doc->text.text->size()},
                         {"lines", doc->text.lines->line_count()},
                         {"text", *doc->text.text}};
    }
    return out;
  }

  const ServerOptions options_;
  Settings settings_;
  std::shared_ptr<boost::asio::io_context> io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  StdioTransport transport_;
  Scheduler scheduler_;
  ProcessWatch client_watch_; // after io_: destroyed before it
  std::shared_ptr<const AnalysisContext> context_;
  std::shared_ptr<CachedDiskSource> files_ = std::make_shared<CachedDiskSource>();

  bool initialized_ = false, shutdown_ = false;
  int exit_code_ = 1;
  json client_capabilities_ = json::object(), server_capabilities_ = json::object();
  PositionEncoding encoding_ = PositionEncoding::utf16;
  bool document_changes_ = false, apply_edit_ = false, related_information_ = false,
       watch_dynamic_ = false;
  bool watching_files_ = false, work_done_progress_ = false, markdown_ = true,
       defer_fix_all_ = false;
  std::set<std::string> resource_operations_;
  std::vector<std::string> workspace_roots_;

  std::map<std::string, Doc> docs_;
  uint64_t generation_ = 0;
  std::map<std::string, InFlight> in_flight_;
  std::vector<json> sync_waiters_;
  uint64_t next_out_id_ = 0;
  std::map<std::string, std::function<void(const json&, const json*)>> out_pending_;
  std::deque<std::string> out_order_;
};

} // namespace

int run_server(const ServerOptions& options, int in_fd, int out_fd) {
  std::signal(SIGPIPE, SIG_IGN); // a vanished client shows up as EOF, not as a signal
  Server server(options, in_fd, out_fd);
  return server.run();
}

} // namespace blockls::lsp
