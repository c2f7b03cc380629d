// The session's shared bookkeeping: output, reply-exactly-once, requests to the client,
// documents waiting for their analysis, scheduling.
#include "lsp/session.h"

#include "diagnostics/json_text.h"
#include "lsp/rehearsal.h"

#include <iostream>
#include <new>
#include <utility>

namespace blockls::lsp {

std::string id_key(const json& id) {
  return dump_json(id);
}

Session::Session(const ServerOptions& options, int in_fd, int out_fd, PublishFn publish,
                 GoneFn client_gone)
    : options(options), settings(options.settings), io(std::make_shared<boost::asio::io_context>()),
      work(boost::asio::make_work_guard(*io)), transport(in_fd, out_fd, options.max_message_bytes),
      scheduler(*io, options.debounce, std::move(publish)),
      client_watch(*io, options.process_poll_interval, std::move(client_gone)) {
  context = make_context(settings, {});
}

// ---- output ------------------------------------------------------------------------------
void Session::log(LogLevel level, const std::string& message) {
  if (level > options.log_level) return;
  static const char* const names[] = {"E", "W", "I", "D"};
  std::cerr << "blockls[" << names[static_cast<int>(level)] << "] " << message << '\n'
            << std::flush;
}

void Session::send(json message) {
  message["jsonrpc"] = "2.0";
  if (options.log_level >= LogLevel::debug)
    log(LogLevel::debug, "--> " + dump_message(message).substr(0, 500));
  transport.send(message);
}

void Session::notify(const std::string& method, json params) {
  send({{"method", method}, {"params", std::move(params)}});
}

void Session::show_message(int type, const std::string& message) {
  notify("window/showMessage", ShowMessageParams{type, message});
}

void Session::progress(const json& token, const WorkDoneProgress& value) {
  if (token.is_null()) return;
  notify("$/progress", ProgressParams{token, value});
}

bool Session::take(const json& id) {
  auto it = in_flight.find(id_key(id));
  if (it == in_flight.end()) {
    log(LogLevel::error, "request " + dump_json(id) + " answered twice (second answer dropped)");
    return false;
  }
  in_flight.erase(it);
  return true;
}

void Session::reply(const json id, json result) {
  if (!take(id)) return;
  send({{"id", id}, {"result", std::move(result)}});
}

void Session::reply_error(const json id, int code, const std::string& message) {
  if (!id.is_null() && !take(id)) return;
  send({{"id", id}, {"error", ResponseError{code, message}}});
}

void Session::request(const std::string& method, json params,
                      std::function<void(const json& result, const json* error)> cb) {
  const std::string id = "blockls-" + std::to_string(++next_out_id);
  out_order.push_back(id);
  out_pending[id] = std::move(cb);
  if (out_order.size() > 100) { // the client never answered: fail the oldest
    const std::string oldest = out_order.front();
    out_order.pop_front();
    auto it = out_pending.find(oldest);
    if (it != out_pending.end()) {
      auto fn = std::move(it->second);
      out_pending.erase(it);
      const json error = ResponseError{kInternalError, "no response from the client"};
      answer(oldest, std::move(fn), nullptr, &error);
    }
  }
  json message = {{"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params); // a request without params
  send(std::move(message));
}

void Session::answer(const std::string& out_id, std::function<void(const json&, const json*)> cb,
                     const json& result, const json* error) {
  try {
    cb(result, error);
  } catch (const std::exception& e) {
    log(LogLevel::error, "the response to " + out_id + " could not be handled: " + e.what());
  }
}

// ---- lifecycle ---------------------------------------------------------------------------
void Session::watch_client(int pid, const char* from) {
  if (!client_watch.watch(pid))
    log(LogLevel::warning, std::string(from) + ": process " + std::to_string(pid) +
                               " is not visible from here (another PID namespace?); not watched");
}

void Session::finish(int code) {
  exit_code = code;
  // Requests still parked get their one answer.
  std::vector<json> ids;
  for (const auto& [key, f] : in_flight)
    ids.push_back(f.id);
  for (const json& id : ids)
    reply_error(id, kRequestCancelled, "the server is exiting");
  work.reset();
  io->stop();
}

// ---- documents and analyses --------------------------------------------------------------
Doc* Session::find_doc(const std::string& uri) {
  auto it = docs.find(uri);
  return it == docs.end() ? nullptr : &it->second;
}

void Session::schedule(Doc& doc) {
  doc.generation = ++generation;
  scheduler.update(doc.uri, [text = doc.text, version = doc.version, generation = doc.generation,
                             context = context, files = files, base = doc.analysis,
                             scheduler = &scheduler] {
    // A check that throws (out of memory, on a transcript with a mistake on nearly every
    // line) would end the worker thread and the server with it: the document gets a
    // diagnostic saying so instead, and the server goes on serving the others.
    try {
      const bool cold = !base || base->context != context;
      auto a = analyze(text.text, version, generation, context, files, base, text.origin,
                       &scheduler->spare());
      if (cold) // the result dropped here, its storage kept for the next keystroke's
        scheduler->spare() = spare_storage(rehearse_keystroke(text, a, files));
      return a;
    } catch (const std::bad_alloc&) {
      return failed_analysis(text.text, version, generation, context,
                             "it ran out of memory (a transcript with a mistake on nearly every "
                             "line can need ~100 times its size)");
    } catch (const std::exception& e) {
      return failed_analysis(text.text, version, generation, context,
                             std::string("internal error: ") + e.what());
    }
  });
}

void Session::reschedule_all() {
  for (auto& [uri, doc] : docs)
    schedule(doc);
}

void Session::files_changed(const std::string& why) {
  log(LogLevel::info, why + ": workspace checks run again");
  files->clear();
  context->paths->clear();
  reschedule_all();
}

void Session::invalidate_waiters(Doc& doc, int code, const std::string& why) {
  std::vector<Waiter> keep;
  for (Waiter& w : doc.waiters) {
    auto it = in_flight.find(w.key);
    if (it == in_flight.end()) continue;
    if (it->second.implicit || code != kContentModified)
      reply_error(it->second.id, code, why);
    else
      keep.push_back(std::move(w));
  }
  doc.waiters = std::move(keep);
}

void Session::with_analysis(const json& id, const std::string& uri, bool implicit, AnalysisFn fn) {
  Doc* doc = find_doc(uri);
  if (!doc) throw LspError(kInvalidParams, "textDocument.uri: the document is not open: " + uri);
  if (doc->analysis && doc->analysis->generation == doc->generation) return fn(doc->analysis);
  InFlight& f = in_flight[id_key(id)];
  f.waiting_uri = uri;
  f.implicit = implicit;
  doc->waiters.push_back({id_key(id), std::move(fn)});
}

void Session::check_sync() {
  if (sync_waiters.empty()) return;
  for (const auto& [uri, doc] : docs)
    if (!doc.analysis || doc.analysis->generation != doc.generation) return;
  std::vector<json> ids = std::move(sync_waiters);
  sync_waiters.clear();
  for (const json& id : ids)
    reply(id, nullptr);
}

void Session::rebuild_context(const std::vector<std::string>& earlier_problems) {
  context = make_context(settings, workspace_roots);
  std::vector<std::string> problems = earlier_problems;
  problems.insert(problems.end(), context->problems.begin(), context->problems.end());
  for (const std::string& p : problems) {
    log(LogLevel::warning, "settings: " + p);
    show_message(2, "blockls settings: " + p);
  }
}

FeatureContext Session::features(const std::string& uri, const Analysis& a) const {
  FeatureContext ctx{a,
                     uri,
                     client.encoding,
                     a.context->settings.docs_url,
                     client.related_information,
                     client.document_changes,
                     client.markdown};
  return ctx;
}

} // namespace blockls::lsp
