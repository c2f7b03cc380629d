// Text synchronisation: didOpen, didChange (incremental; a change that cannot be applied keeps
// the last good text and pauses the diagnostics until a full text arrives), didSave (a full
// text resynchronises; workspace checks refresh) and didClose.
#include "lsp/handlers.h"

namespace blockls::lsp {

void did_open(Session& s, const json& params) {
  DidOpenParams p = params.get<DidOpenParams>();
  Doc& doc = s.docs[p.uri];
  doc.uri = p.uri;
  doc.version = p.version;
  doc.text = DocumentText::from(std::move(p.text));
  doc.desynced = false;
  s.schedule(doc);
}

void did_change(Session& s, const json& params) {
  const DidChangeParams p = params.get<DidChangeParams>();
  const std::string& uri = p.uri;
  const int64_t version = p.version;
  const json& changes = *p.content_changes;
  Doc* doc = s.find_doc(uri);
  if (!doc) throw LspError(kInvalidParams, "textDocument.uri: the document is not open: " + uri);
  if (version <= doc->version)
    s.log(LogLevel::warning,
          uri + ": version " + std::to_string(version) + " after " + std::to_string(doc->version));
  bool full = !changes.empty();
  for (const json& c : changes)
    full = full && c.is_object() && !c.contains("range");
  DocumentText next;
  std::string error;
  if (doc->desynced && !full) {
    error = "the document is out of sync since an earlier change was rejected";
  } else if (apply_content_changes(doc->text, changes, s.client.encoding, &next, &error,
                                   /*defer_lines=*/true)) {
    const bool was_desynced = doc->desynced;
    doc->text = std::move(next);
    doc->version = version;
    doc->desynced = false;
    if (was_desynced) s.log(LogLevel::info, uri + ": resynchronised by a full-text change");
    s.invalidate_waiters(*doc, kContentModified,
                         "The document changed (version " + std::to_string(version) + ")");
    s.schedule(*doc);
    // The next change needs the line index; the analysis just scheduled does not.
    doc->text.make_lines();
    return;
  }
  // Keep the last good text, say so visibly, and wait for a full text (save or full change).
  s.log(LogLevel::error,
        uri + ": change to version " + std::to_string(version) + " rejected: " + error);
  if (!doc->desynced) {
    s.show_message(1, "blockls: an edit of " + uri + " could not be applied (" + error +
                          "); diagnostics are paused until the document is saved or reopened");
  }
  doc->desynced = true;
  doc->desync_reason = error;
  doc->version = version;
  s.invalidate_waiters(*doc, kContentModified,
                       "The document changed (version " + std::to_string(version) + ")");
  s.schedule(*doc);
}

void did_save(Session& s, const json& params) {
  const DidSaveParams p = params.get<DidSaveParams>();
  const std::string& uri = p.uri;
  Doc* doc = s.find_doc(uri);
  if (doc) {
    if (const json* text = p.text()) {
      if (doc->desynced || *text != *doc->text.text) {
        if (doc->desynced) s.log(LogLevel::info, uri + ": resynchronised from the saved text");
        doc->text = DocumentText::from(text->get<std::string>());
        doc->desynced = false;
        s.invalidate_waiters(*doc, kContentModified, "The document was resynchronised");
      }
    }
  }
  // Without file watching, a save is when workspace checks are refreshed.
  if (!s.watching_files) {
    s.files_changed("saved " + uri);
  } else if (doc) {
    s.files->clear();
    s.context->paths->clear();
    s.schedule(*doc);
  }
}

void did_close(Session& s, const json& params) {
  const std::string uri = params.get<TextDocumentParams>().uri;
  Doc* doc = s.find_doc(uri);
  if (!doc) return;
  s.invalidate_waiters(*doc, kRequestFailed, "The document was closed");
  s.docs.erase(uri);
  s.scheduler.remove(uri);
  clear_diagnostics(s, uri);
  s.check_sync();
}

} // namespace blockls::lsp
