// Incremental sync: each change is applied against the text left by the previous one, its
// range validated in the negotiated encoding (columns past a line end clamp to it, as the
// spec says; a line past the end, a reversed range or a mistyped field rejects the batch).
// A ranged change copies the text once and updates the line index from the old one (line
// starts are the bytes after each "\n": those before the range stay, those after it shift,
// the inserted text's are added) instead of scanning the whole text again.
#include "lsp/documents.h"

#include "diagnostics/json_text.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace blockls::lsp {
namespace {

// The buffers of freed versions' texts, kept for the next edits' copies: a keystroke in a
// large document copies the whole text into the next version, and a buffer freshly taken from
// the allocator was written page by page through page faults (at 10 MB a sixth of the
// server's time per keystroke). A version's text is freed on whichever thread lets go of it
// last (the worker, mostly), so the buffers are behind a lock. Only large buffers are kept,
// and at most two: a few times the document's size, held while it is edited. A buffer is made
// a little larger than its text (1/64th): typing changes the size by a byte or a few each time,
// and a buffer made for a deletion's text must hold the next insertion's (made to the byte, a
// keystroke after a deletion found no kept buffer large enough and wrote a fresh one, at 10 MB
// ~2,560 page faults and 5-9 ms more, on 5 of 60 edits of the benchmark).
class TextBuffers {
public:
  static constexpr size_t kMinBytes = 256 * 1024;
  static constexpr size_t kMaxKept = 2;
  static constexpr size_t kSlackDivisor = 64;

  // Makes sure that `count` kept buffers hold `size` bytes or more, each written once (its
  // pages mapped).
  static void stock(size_t size, size_t count) {
    if (size < kMinBytes) return;
    count = std::min(count, kMaxKept);
    size_t fitting = 0;
    {
      const std::lock_guard lock(instance().mutex_);
      for (const auto& kept : instance().kept_)
        fitting += kept->capacity() >= size;
    }
    for (; fitting < count; ++fitting) {
      auto text = std::make_unique<std::string>();
      text->resize(size + size / kSlackDivisor); // writes every page
      instance().give(text.release());
    }
  }

  // A text of `size` bytes to be written (empty, its capacity at least `size`), handed back
  // here when the last version holding it is freed.
  static std::shared_ptr<std::string> make(size_t size) {
    std::unique_ptr<std::string> text;
    if (size >= kMinBytes) text = instance().take(size);
    if (!text) {
      text = std::make_unique<std::string>();
      text->reserve(size >= kMinBytes ? size + size / kSlackDivisor : size);
    }
    return {text.release(), [](std::string* freed) { instance().give(freed); }};
  }

private:
  static TextBuffers& instance() {
    static TextBuffers* const buffers = new TextBuffers; // never destroyed: used at exit
    return *buffers;
  }

  // The smallest kept buffer that holds `size` bytes, or null.
  std::unique_ptr<std::string> take(size_t size) {
    const std::lock_guard lock(mutex_);
    auto best = kept_.end();
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if ((*it)->capacity() >= size &&
          (best == kept_.end() || (*it)->capacity() < (*best)->capacity()))
        best = it;
    if (best == kept_.end()) return nullptr;
    std::unique_ptr<std::string> text = std::move(*best);
    kept_.erase(best);
    return text;
  }

  // Keeps the most recently freed buffers (the sizes of the documents edited now).
  void give(std::string* freed) {
    std::unique_ptr<std::string> text(freed), dropped;
    if (text->capacity() < kMinBytes) return;
    text->clear(); // keeps the buffer
    const std::lock_guard lock(mutex_);
    if (kept_.size() == kMaxKept) {
      dropped = std::move(kept_.front()); // freed once unlocked
      kept_.erase(kept_.begin());
    }
    kept_.push_back(std::move(text));
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<std::string>> kept_;
};

// Replaces `range` of doc's text by `text`, and its line index with it (or, with
// `defer_lines`, leaves that to make_lines()). doc's lines are made. `*owned`: doc's text when
// the caller's batch of edits made it (not shared yet, so edited in place), else null; set to
// the new text.
void replace_bytes(DocumentText* doc, std::shared_ptr<std::string>* owned, ByteRange range,
                   std::string_view text, bool defer_lines = false) {
  if (defer_lines) {
    doc->pending = std::make_shared<const DocumentText::PendingLines>(
        DocumentText::PendingLines{std::move(doc->lines), range, std::string(text)});
    doc->lines = nullptr;
  } else {
    doc->lines = std::make_shared<const LineIndex>(
        edit_line_index(*doc->lines, range.begin, range.end, text));
  }
  if (*owned) {
    (*owned)->replace(range.begin, range.size(), text);
    return;
  }
  *owned = TextBuffers::make(doc->text->size() - range.size() + text.size());
  (*owned)->append(*doc->text, 0, range.begin);
  (*owned)->append(text);
  (*owned)->append(*doc->text, range.end, std::string::npos);
  doc->text = *owned;
}

} // namespace

void stock_text_buffers(size_t bytes) {
  TextBuffers::stock(bytes, TextBuffers::kMaxKept);
}

void DocumentText::make_lines() {
  if (lines || !pending) return;
  lines = line_index();
  pending = nullptr;
}

std::shared_ptr<const LineIndex> DocumentText::line_index() const {
  if (lines || !pending) return lines;
  return std::make_shared<const LineIndex>(
      edit_line_index(*pending->from, pending->range.begin, pending->range.end, pending->text));
}

DocumentText DocumentText::with_edit(ByteRange range, std::string_view text) const {
  DocumentText doc = *this;
  doc.make_lines();
  std::shared_ptr<std::string> owned;
  replace_bytes(&doc, &owned, range, text);
  doc.origin = {
      TextOrigin::next_id(), origin.id, {range.begin, range.end, range.begin + text.size()}};
  return doc;
}

DocumentText DocumentText::from(std::string text) {
  DocumentText d;
  d.origin.id = TextOrigin::next_id();
  std::shared_ptr<std::string> owned;
  if (text.size() >= TextBuffers::kMinBytes) {
    // Copied into a kept buffer (or one with room to spare): the string as the message's parse
    // left it has no room for a byte more, and once freed and kept it would not hold the next
    // insertion's text.
    owned = TextBuffers::make(text.size());
    owned->assign(text);
  } else {
    owned = TextBuffers::make(0);
    *owned = std::move(text);
  }
  d.lines = std::make_shared<const LineIndex>(*owned);
  d.text = std::move(owned);
  return d;
}

bool apply_content_changes(const DocumentText& current, const json& changes,
                           PositionEncoding encoding, DocumentText* out, std::string* error,
                           bool defer_lines) {
  DocumentText doc = current;
  doc.make_lines(); // (made already, as documented; a copy's are made here otherwise)
  std::shared_ptr<std::string> owned; // doc.text when this batch created it
  // The batch's changes as one span of `current` (unknown after a full-text change).
  std::optional<TextChange> span;
  bool span_known = true;
  if (!changes.is_array()) {
    *error = "contentChanges is not an array";
    return false;
  }
  for (size_t i = 0; i < changes.size(); ++i) {
    const json& change = changes[i];
    const std::string where = "contentChanges[" + std::to_string(i) + "]";
    if (!change.is_object() || !change.contains("text") || !change["text"].is_string()) {
      *error = where + ".text is missing or not a string";
      return false;
    }
    const std::string& text = change["text"].get_ref<const std::string&>();
    auto range_it = change.find("range");
    if (range_it == change.end() || range_it->is_null()) {
      doc = DocumentText::from(text);
      owned = nullptr;
      span_known = false;
      continue;
    }
    std::optional<ByteRange> range;
    try {
      range = doc.mapper(encoding).range(*range_it);
    } catch (const LspError& e) {
      *error = where + ".range: " + e.what();
      return false;
    }
    if (!range) {
      *error = where + ".range " + dump_json(*range_it) + " is outside the document (" +
               std::to_string(doc.lines->line_count()) + " lines) or reversed";
      return false;
    }
    const TextChange edit{range->begin, range->end, range->begin + text.size()};
    span = span ? compose_changes(*span, edit) : edit;
    replace_bytes(&doc, &owned, *range, text, defer_lines && i + 1 == changes.size());
  }
  if (span_known && span)
    doc.origin = {TextOrigin::next_id(), current.origin.id, *span};
  else if (!span_known)
    doc.origin = {TextOrigin::next_id(), 0, {}};
  // (No change at all: the same text, the same origin.)
  *out = std::move(doc);
  return true;
}

} // namespace blockls::lsp
