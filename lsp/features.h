// The reviewer-facing features as LSP JSON, computed from an Analysis: diagnostics (with the
// fix payload in `data`), quick fixes and fix-all, code lenses, document symbols, folding
// ranges and the hover preview. Stateless: the server passes the document and the client's
// capabilities in FeatureContext.
#pragma once

#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/protocol_edits.h"
#include "lsp/protocol_results.h"
#include "lsp/protocol_types.h"

#include <optional>
#include <string>
#include <vector>

namespace blockls::lsp {

struct FeatureContext {
  const Analysis& analysis;
  std::string uri;
  PositionEncoding encoding = PositionEncoding::utf16;
  std::string docs_url;            // base URL of the code pages ("" = no codeDescription)
  bool related_information = true; // client supports Diagnostic.relatedInformation
  bool document_changes = false;   // client supports WorkspaceEdit.documentChanges
  bool markdown = true;            // hover content as markdown

  PositionMapper mapper() const { return {*analysis.text, analysis.lines(), encoding}; }
};

// The LSP range of a diagnostic; end-of-input diagnostics clamp to the document end.
Range diagnostic_range(const FeatureContext& ctx, const Diagnostic& d);
LspDiagnostic lsp_diagnostic(const FeatureContext& ctx, const Diagnostic& d);
// Every diagnostic of the analysis (one "too large" diagnostic when it was not checked).
std::vector<LspDiagnostic> lsp_diagnostics(const FeatureContext& ctx);
// lsp_diagnostics as the JSON array publishDiagnostics sends (the structs moved in).
json diagnostics_json(const FeatureContext& ctx);

// The edits of a fix as LSP TextEdits, in document order.
std::vector<LspTextEdit> text_edits(const FeatureContext& ctx, const Fix& fix);
// A WorkspaceEdit changing only this document (documentChanges when the client supports them).
WorkspaceEdit document_edit(const FeatureContext& ctx, std::vector<LspTextEdit> text_edits);

// textDocument/codeAction. Quick fixes from `data` when it carries the
// fixes of the current version, else from the diagnostics of the analysis that match.
std::vector<CodeAction> code_actions(const FeatureContext& ctx, const CodeActionParams& params,
                                     bool defer_fix_all);
// The fix-all edit (every preferred fix once), none when there is nothing to fix.
std::optional<WorkspaceEdit> fix_all_edit(const FeatureContext& ctx);
// True when `kind` is selected by `only` (hierarchical: "source" selects "source.fixAll.x").
bool kind_selected(const json* only, std::string_view kind);

std::vector<CodeLens> code_lenses(const FeatureContext& ctx);
std::vector<DocumentSymbol> document_symbols(const FeatureContext& ctx);
std::vector<FoldingRange> folding_ranges(const FeatureContext& ctx);
// The block under `position`; none outside blocks (the reply is null).
std::optional<Hover> hover(const FeatureContext& ctx, Position position);

// Why a block without error-severity diagnostics will still not run: its simulation fails for
// a reason that is only a warning in a check (exec disabled: EXEC_DISABLED). Lenses, outline,
// hover and execute say so instead of offering to apply it. Nothing when the block can run (or
// there is no simulation: no root).
struct WillNotRun {
  std::string code;    // the failing action's code (EXEC_DISABLED, ...)
  std::string lens;    // "✗ exec disabled: set execAllowed (EXEC_DISABLED)"
  std::string detail;  // outline: "exec disabled (EXEC_DISABLED)"
  std::string because; // a sentence's end: "exec is disabled (EXEC_DISABLED): set execAllowed …"
};
std::optional<WillNotRun> will_not_run(const Analysis& a, int block);

// "2 errors", "1 action".
std::string count_noun(size_t n, std::string_view singular);

// How outlines, hovers and messages name a block: "nesl block 'k1w'" where the dialect has ids,
// an edit by its file ("editblock edit of src/app.py"), otherwise "heredoc block at line 4".
std::string block_label(std::string_view text, const Block& block);

} // namespace blockls::lsp
