// The language server proper: lifecycle (initialize .. shutdown, exit, end of input, client
// gone) and dispatch; the handlers live in lsp/requests/ and lsp/notifications/, the state
// they share in lsp/session.h. Threads: the transport's reader thread only posts frames into
// the io_context; everything else (documents, dispatch, replies, publishing) runs on the io
// thread; analyses run on the scheduler's worker. A replaced analysis is freed after the new
// one is published (freeing a large document's analysis takes milliseconds; a separate thread
// for it was measured slower: cross-thread frees contend on malloc's arena). Every request is
// answered exactly once: `in_flight` holds the requests not yet answered, and reply() refuses
// a second answer.
#include "lsp/server.h"

#include "diagnostics/json_text.h"
#include "lsp/handlers.h"

#include <boost/asio/post.hpp>
#include <csignal>
#include <map>
#include <string_view>
#include <utility>

namespace blockls::lsp {
namespace {

using RequestHandler = void (*)(Session&, const json& id, const json& params);
using NotificationHandler = void (*)(Session&, const json& params);

// shutdown: answered at once; every later request is refused.
void shutdown(Session& s, const json& id, const json&) {
  s.shutdown = true;
  s.reply(id, nullptr);
}

const std::map<std::string_view, RequestHandler> kRequests = {
    {"initialize", initialize},
    {"shutdown", shutdown},
    {"textDocument/codeAction", code_action},
    {"codeAction/resolve", resolve_code_action},
    {"textDocument/codeLens", code_lens},
    {"textDocument/documentSymbol", document_symbol},
    {"textDocument/foldingRange", folding_range},
    {"textDocument/hover", hover},
    {"workspace/executeCommand", execute_command},
    {"blockls/sync", sync},
};

const std::map<std::string_view, NotificationHandler> kNotifications = {
    {"initialized", initialized},
    {"textDocument/didOpen", did_open},
    {"textDocument/didChange", did_change},
    {"textDocument/didClose", did_close},
    {"textDocument/didSave", did_save},
    {"$/cancelRequest", cancel_request},
    {"workspace/didChangeConfiguration", did_change_configuration},
    {"workspace/didChangeWatchedFiles", did_change_watched_files},
    {"workspace/didChangeWorkspaceFolders", did_change_workspace_folders},
};

bool usable_id(const json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

class Server {
public:
  Server(const ServerOptions& options, int in_fd, int out_fd)
      : s_(
            options, in_fd, out_fd,
            [this](const std::string& uri, std::shared_ptr<const Analysis> a) {
              publish_analysis(s_, uri, std::move(a));
            },
            [this](int pid) { on_client_gone(pid); }) {}

  int run() {
    std::shared_ptr<boost::asio::io_context> io = s_.io;
    s_.transport.start(
        [io, this](Frame frame) {
          boost::asio::post(
              *io, [this, frame = std::move(frame)]() mutable { on_frame(std::move(frame)); });
        },
        [io, this] { boost::asio::post(*io, [this] { on_eof(); }); });
    if (s_.options.client_process_id > 0)
      s_.watch_client(s_.options.client_process_id, "--clientProcessId");
    s_.io->run();
    s_.scheduler.stop();
    s_.transport.detach_reader();
    return s_.exit_code;
  }

private:
  void on_eof() {
    s_.log(LogLevel::info, "end of input");
    s_.finish(s_.shutdown ? 0 : 1);
  }

  // A server whose client is gone exits (1 unless it was shut down), as at the end of input.
  void on_client_gone(int pid) {
    s_.log(LogLevel::info, "the client process " + std::to_string(pid) + " is gone: exiting");
    s_.finish(s_.shutdown ? 0 : 1);
  }

  void on_frame(Frame frame) {
    if (frame.kind == Frame::Kind::error) {
      s_.log(LogLevel::error, "framing: " + frame.error);
      s_.reply_error(nullptr, kParseError, frame.error);
      return;
    }
    json message;
    try {
      message = json::parse(frame.body);
    } catch (const json::exception& e) {
      s_.log(LogLevel::error, std::string("malformed JSON: ") + e.what());
      s_.reply_error(nullptr, kParseError, std::string("Malformed JSON: ") + e.what());
      return;
    }
    if (s_.options.log_level >= LogLevel::debug)
      s_.log(LogLevel::debug, "<-- " + frame.body.substr(0, 500));
    if (!message.is_object()) {
      s_.reply_error(nullptr, kInvalidRequest, "A message must be a JSON object");
      return;
    }
    const auto method = message.find("method");
    const auto id = message.find("id");
    const bool has_id = id != message.end() && usable_id(*id);
    if (method == message.end()) {
      if (has_id && (message.contains("result") || message.contains("error")))
        on_response(message);
      else
        reject_invalid(message, "A message without 'method' must be a response");
      return;
    }
    if (!method->is_string()) {
      if (id == message.end() || id->is_null()) { // a notification: nothing to answer
        s_.log(LogLevel::warning, "ignored a notification whose 'method' is not a string");
        return;
      }
      reject_invalid(message, "'method' must be a string");
      return;
    }
    static const json kNoParams = nullptr;
    const auto params_it = message.find("params");
    const json& params = params_it == message.end() ? kNoParams : *params_it;
    if (has_id)
      on_request(*id, method->get<std::string>(), params);
    else if (id != message.end() && !id->is_null())
      s_.reply_error(nullptr, kInvalidRequest, "'id' must be a string or an integer");
    else
      on_notification(method->get<std::string>(), params);
  }

  // Answers a message that is no valid request with InvalidRequest, once: under its id when it
  // has a usable one (the request was never registered in in_flight, so reply_error() would
  // refuse it as a second answer), else under id null.
  void reject_invalid(const json& message, const std::string& why) {
    const auto id = message.find("id");
    const bool usable = id != message.end() && usable_id(*id);
    s_.log(LogLevel::warning, "invalid request: " + why);
    s_.send({{"id", usable ? *id : json(nullptr)}, {"error", ResponseError{kInvalidRequest, why}}});
  }

  // A response to a request the server sent (client/registerCapability, workspace/applyEdit).
  void on_response(const json& message) {
    const std::string id =
        message["id"].is_string() ? message["id"].get<std::string>() : dump_json(message["id"]);
    auto it = s_.out_pending.find(id);
    if (it == s_.out_pending.end()) {
      s_.log(LogLevel::warning, "response to an unknown request " + id);
      return;
    }
    auto fn = std::move(it->second);
    s_.out_pending.erase(it);
    std::erase(s_.out_order, id);
    if (message.contains("error"))
      s_.answer(id, std::move(fn), nullptr, &message["error"]);
    else
      s_.answer(id, std::move(fn), message["result"], nullptr);
  }

  void on_request(const json& id, const std::string& method, const json& params) {
    const std::string key = id_key(id);
    if (s_.in_flight.count(key)) {
      s_.send({{"id", id},
               {"error",
                ResponseError{kInvalidRequest, "A request with this id is still in progress"}}});
      return;
    }
    s_.in_flight[key] = InFlight{id, method, "", false};
    if (s_.shutdown)
      return s_.reply_error(id, kInvalidRequest,
                            "The server is shutting down (shutdown was received)");
    if (!s_.initialized && method != "initialize")
      return s_.reply_error(id, kServerNotInitialized,
                            "The server is not initialized (send 'initialize' first)");
    try {
      const auto handler = kRequests.find(method);
      if (handler == kRequests.end())
        return s_.reply_error(id, kMethodNotFound, "Unknown method '" + method + "'");
      handler->second(s_, id, params);
    } catch (const LspError& e) {
      s_.reply_error(id, e.code, e.what());
    } catch (const json::exception& e) {
      s_.reply_error(id, kInvalidParams, std::string("invalid params: ") + e.what());
    } catch (const std::exception& e) {
      s_.reply_error(id, kInternalError, e.what());
    }
  }

  void on_notification(const std::string& method, const json& params) {
    if (method == "exit") return s_.finish(s_.shutdown ? 0 : 1);
    if (!s_.initialized || s_.shutdown) {
      s_.log(LogLevel::info, "dropped notification " + method +
                                 (s_.shutdown ? " (after shutdown)" : " (before initialize)"));
      return;
    }
    try {
      const auto handler = kNotifications.find(method);
      if (handler == kNotifications.end())
        s_.log(LogLevel::info, "ignored notification " + method);
      else
        handler->second(s_, params);
    } catch (const std::exception& e) {
      // A notification cannot be answered: log it and tell the user.
      s_.log(LogLevel::error, method + ": " + e.what());
      s_.show_message(1, "blockls: " + method + ": " + e.what());
    }
  }

  Session s_;
};

} // namespace

int run_server(const ServerOptions& options, int in_fd, int out_fd) {
  std::signal(SIGPIPE, SIG_IGN); // a vanished client shows up as EOF, not as a signal
  Server server(options, in_fd, out_fd);
  return server.run();
}

} // namespace blockls::lsp
