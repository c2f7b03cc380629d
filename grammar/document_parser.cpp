// Routes each complete line to the dialect parser that owns it: the open block's parser,
// or, outside blocks, whichever dialect recognises a start line. Also tracks Markdown fences
// in prose so end-marker fixes can be placed before a fence's closing line.
#include "grammar/document_parser.h"

#include "grammar/markdown_fence.h"
#include "grammar/nesl_parser.h"
#include "grammar/telt_parser.h"

#include <cstring>

namespace blockls {
namespace {

// The line-routing core shared by the streaming and the one-shot entry points.
class LineRouter {
public:
  explicit LineRouter(ParseOptions options) : options_(options) {}

  void on_line(std::string_view text, const LineRef& line) {
    ParseContext ctx{text, &doc_, fence_.open()};
    if (open_block_fenced_ && doc_.blocks.size() > 0 && !doc_.blocks.back().fence_close_line &&
        fence_.closes(line.text)) {
      doc_.blocks.back().fence_close_line = line.number;
    }
    if (telt_.in_block()) {
      telt_.on_line(line, ctx);
      after_line();
      return;
    }
    if (nesl_.in_block()) {
      // A TELT start line cannot be NESL content outside a heredoc: the NESL block was
      // left unclosed, and the TELT block begins here.
      if (!(options_.telt && nesl_.can_yield() && TeltParser::is_start_line(line.text))) {
        nesl_.on_line(line, ctx);
        after_line();
        return;
      }
      nesl_.yield_to_foreign_start(line, ctx);
    }
    const size_t blocks_before = doc_.blocks.size();
    const bool claimed = (options_.telt && telt_.try_start(line, ctx)) ||
                         (options_.nesl && nesl_.try_start(line, ctx));
    if (claimed && doc_.blocks.size() > blocks_before) {
      open_block_fenced_ = fence_.open();
    } else if (!claimed) {
      fence_.observe(line.text);
    }
    after_line();
  }

  ParsedDocument finish(std::string_view text, uint32_t line_count) {
    ParseContext ctx{text, &doc_, fence_.open()};
    telt_.finish(ctx, line_count);
    nesl_.finish(ctx, line_count);
    return std::move(doc_);
  }

  ParsedDocument& doc() { return doc_; }

private:
  void after_line() {
    if (!telt_.in_block() && !nesl_.in_block()) open_block_fenced_ = false;
  }

  ParseOptions options_;
  ParsedDocument doc_;
  MarkdownFence fence_;
  TeltParser telt_;
  NeslParser nesl_;
  bool open_block_fenced_ = false;
};

// Splits `text[from, text.size())` into complete lines and hands them to the router; returns
// the offset of the first byte not yet consumed (the start of an incomplete last line).
size_t route_complete_lines(std::string_view text, size_t from, uint32_t* line_number,
                            LineRouter& router) {
  size_t pos = from;
  while (pos < text.size()) {
    const void* hit = std::memchr(text.data() + pos, '\n', text.size() - pos);
    if (!hit) break;
    const size_t nl = static_cast<const char*>(hit) - text.data();
    size_t end = nl;
    if (end > pos && text[end - 1] == '\r') --end;
    LineRef line{*line_number, pos, end, nl + 1, text.substr(pos, end - pos), true};
    router.on_line(text, line);
    ++*line_number;
    pos = nl + 1;
  }
  return pos;
}

void route_last_line(std::string_view text, size_t from, uint32_t line_number,
                     LineRouter& router) {
  LineRef line{line_number, from, text.size(), text.size(), text.substr(from), false};
  router.on_line(text, line);
}

} // namespace

struct DocumentParser::State {
  explicit State(ParseOptions options) : router(options) {}
  std::string text;
  LineRouter router;
  LineIndex lines;
  size_t consumed = 0;
  uint32_t line_number = 0;
  bool finished = false;
};

DocumentParser::DocumentParser(ParseOptions options)
    : state_(std::make_unique<State>(options)) {}
DocumentParser::~DocumentParser() = default;
DocumentParser::DocumentParser(DocumentParser&&) noexcept = default;
DocumentParser& DocumentParser::operator=(DocumentParser&&) noexcept = default;

void DocumentParser::feed(std::string_view chunk) {
  State& s = *state_;
  if (s.finished || chunk.empty()) return;
  const size_t base = s.text.size();
  s.text.append(chunk);
  s.lines.append(chunk, base);
  s.consumed = route_complete_lines(s.text, s.consumed, &s.line_number, s.router);
}

ParsedDocument DocumentParser::finish() {
  State& s = *state_;
  if (s.finished) return {};
  s.finished = true;
  route_last_line(s.text, s.consumed, s.line_number, s.router);
  ParsedDocument doc = s.router.finish(s.text, s.lines.line_count());
  doc.lines = std::move(s.lines);
  return doc;
}

const std::string& DocumentParser::text() const { return state_->text; }

ParsedDocument parse_document(std::string_view text, ParseOptions options) {
  LineRouter router(options);
  uint32_t line_number = 0;
  const size_t rest = route_complete_lines(text, 0, &line_number, router);
  route_last_line(text, rest, line_number, router);
  LineIndex lines(text);
  ParsedDocument doc = router.finish(text, lines.line_count());
  doc.lines = std::move(lines);
  return doc;
}

} // namespace blockls
