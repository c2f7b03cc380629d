// One pass over a transcript that mixes prose, Markdown fences and blocks of every dialect.
// Input may arrive in chunks (feed/finish); the result is identical for any chunking because
// dialect parsers only ever see complete lines.
#pragma once

#include "grammar/model.h"
#include "grammar/parse_context.h"

#include <memory>
#include <string>
#include <string_view>

namespace blockls {

class DocumentParser {
public:
  explicit DocumentParser(ParseOptions options = {});
  ~DocumentParser();
  DocumentParser(DocumentParser&&) noexcept;
  DocumentParser& operator=(DocumentParser&&) noexcept;

  // Appends `chunk` to the document and parses every line it completes.
  void feed(std::string_view chunk);
  // Parses the last line, closes what is still open and returns the result. The parser is
  // then spent; text() stays valid until it is destroyed.
  ParsedDocument finish();
  // Everything fed so far (the buffer the result's ranges refer to).
  const std::string& text() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

// One-shot parse over a caller-owned buffer (no copy of the text).
ParsedDocument parse_document(std::string_view text, ParseOptions options = {});

} // namespace blockls
