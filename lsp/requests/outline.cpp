// The views of the whole document: textDocument/codeLens, documentSymbol and foldingRange.
#include "lsp/handlers.h"

namespace blockls::lsp {

void code_lens(Session& s, const json& id, const json& params) {
  const std::string uri = params.get<TextDocumentParams>().uri;
  s.with_analysis(id, uri, true, [&s, id, uri](std::shared_ptr<const Analysis> a) {
    s.reply(id, code_lenses(s.features(uri, *a)));
  });
}

void document_symbol(Session& s, const json& id, const json& params) {
  const std::string uri = params.get<TextDocumentParams>().uri;
  s.with_analysis(id, uri, true, [&s, id, uri](std::shared_ptr<const Analysis> a) {
    s.reply(id, document_symbols(s.features(uri, *a)));
  });
}

void folding_range(Session& s, const json& id, const json& params) {
  const std::string uri = params.get<TextDocumentParams>().uri;
  s.with_analysis(id, uri, true, [&s, id, uri](std::shared_ptr<const Analysis> a) {
    s.reply(id, folding_ranges(s.features(uri, *a)));
  });
}

} // namespace blockls::lsp
