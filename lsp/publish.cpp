// Diagnostics publishing: each analysis the scheduler delivers is published (with an
// OUT_OF_SYNC diagnostic first while the document is desynchronised), then the requests parked
// on it run. A superseded analysis is dropped.
#include "diagnostics/json_text.h"
#include "lsp/features.h"
#include "lsp/handlers.h"

#include <string>
#include <utility>
#include <vector>

namespace blockls::lsp {
namespace {

// The diagnostic shown while the server's copy of the document is not the editor's.
LspDiagnostic out_of_sync_diagnostic(const std::string& reason) {
  LspDiagnostic d;
  d.severity = 1;
  d.code = "OUT_OF_SYNC";
  d.message = "blockls lost track of this document (" + reason +
              "); save or reopen it to resynchronise. Diagnostics below may be stale.";
  return d;
}

// The titles of a document's code lenses (they say whether each block applies, or why not).
std::vector<std::string> lens_titles(const FeatureContext& ctx) {
  std::vector<std::string> titles;
  for (const CodeLens& lens : code_lenses(ctx))
    titles.push_back(lens.command.title);
  return titles;
}

// Two analyses of the same text (a watched file changed): only then can the lens titles differ
// without the text, and the previous analysis is needed after the publish.
bool same_text(const Analysis& before, const Analysis& now) {
  return before.version == now.version && before.text == now.text;
}

// A new analysis of the same text (files on disk or settings changed, not the document) can
// change what the lenses say, and a client asks for lenses again only when the document
// changes: ask it to refresh them, when it can and when they did change.
void refresh_lenses_if_changed(Session& s, const std::string& uri, const Analysis& before,
                               const Analysis& now) {
  if (!s.client.code_lens_refresh || !same_text(before, now)) return;
  if (lens_titles(s.features(uri, before)) == lens_titles(s.features(uri, now))) return;
  s.request("workspace/codeLens/refresh", nullptr, [&s](const json&, const json* error) {
    if (error) s.log(LogLevel::info, "workspace/codeLens/refresh failed: " + dump_json(*error));
  });
}

} // namespace

void publish_analysis(Session& s, const std::string& uri, std::shared_ptr<const Analysis> a) {
  Doc* doc = s.find_doc(uri);
  if (!doc || !a || a->generation != doc->generation) {
    s.log(LogLevel::debug, uri + ": dropped a superseded analysis");
    return s.check_sync();
  }
  std::shared_ptr<const Analysis> previous = std::exchange(doc->analysis, a);
  // Freed on the worker (Scheduler::dispose), which starts on it while this thread writes
  // the diagnostics; kept until after them when the lenses may need a refresh.
  if (previous && !same_text(*previous, *a)) s.scheduler.dispose(std::move(previous));
  s.log(LogLevel::debug,
        uri + ": analysed version " + std::to_string(a->version) + " in " +
            std::to_string(a->elapsed.count()) + " us" +
            (a->simulation
                 ? ", " + std::to_string(a->simulation->reused_blocks) + " of " +
                       std::to_string(a->simulation->blocks.size()) + " simulated blocks reused"
                 : std::string()));
  if (!a->failure.empty())
    s.log(LogLevel::error,
          uri + ": version " + std::to_string(a->version) + " could not be checked: " + a->failure);
  PublishDiagnosticsParams publish{uri, a->version, diagnostics_json(s.features(uri, *a))};
  if (doc->desynced)
    publish.diagnostics.insert(publish.diagnostics.begin(),
                               json(out_of_sync_diagnostic(doc->desync_reason)));
  s.notify("textDocument/publishDiagnostics", json(std::move(publish)));
  if (previous) refresh_lenses_if_changed(s, uri, *previous, *a);
  s.scheduler.dispose(std::move(previous)); // (null unless same_text())
  std::vector<Waiter> waiters = std::move(doc->waiters);
  doc->waiters.clear();
  for (Waiter& w : waiters) {
    auto it = s.in_flight.find(w.key);
    if (it == s.in_flight.end()) continue; // cancelled meanwhile
    it->second.waiting_uri.clear();
    const json id = it->second.id;
    try {
      w.fn(a);
    } catch (const LspError& e) {
      s.reply_error(id, e.code, e.what());
    } catch (const std::exception& e) {
      s.reply_error(id, kInternalError, e.what());
    }
  }
  s.check_sync();
}

void clear_diagnostics(Session& s, const std::string& uri) {
  s.notify("textDocument/publishDiagnostics",
           json(PublishDiagnosticsParams{uri, std::nullopt, json::array()}));
}

} // namespace blockls::lsp
