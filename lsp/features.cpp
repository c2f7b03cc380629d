// LSP results for diagnostics, code actions, lenses, symbols, folding and hover.
#include "lsp/features.h"

#include "diagnostics/codes.h"
#include "diagnostics/json_report.h"
#include "fixits/apply_fixes.h"
#include "fixits/unified_diff.h"
#include "grammar/dialects.h"
#include "grammar/text_edit.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace blockls::lsp {
namespace {

constexpr int kDataVersion = 1;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The range of line `line` (the document end past the last line).
Range line_span(const FeatureContext& ctx, uint32_t line) {
  const LineIndex& lines = ctx.analysis.lines();
  if (line >= lines.line_count())
    return to_range(ctx.mapper(), {ctx.analysis.text->size(), ctx.analysis.text->size()});
  return to_range(ctx.mapper(), {lines.line_start(line), lines.line_end(*ctx.analysis.text, line)});
}

std::string path_of(std::string_view text, const Command& command);

// The distinct files the commands of a file-edit block edit, in order of appearance.
std::vector<std::string> edited_paths(std::string_view text, const Block& block) {
  std::vector<std::string> paths;
  for (const Command& c : block.commands) {
    std::string path = path_of(text, c);
    if (!path.empty() && std::find(paths.begin(), paths.end(), path) == paths.end())
      paths.push_back(std::move(path));
  }
  return paths;
}

// The command of `block` a diagnostic on `line` belongs to: the last one starting at or
// before it (the first when the line precedes them all).
const Command* command_at(const Block& block, uint32_t line) {
  const Command* found = block.commands.empty() ? nullptr : &block.commands.front();
  for (const Command& c : block.commands)
    if (c.line <= line) found = &c;
  return found;
}

// The lens title of a valid block of a file-edit dialect: "▶ Apply edit to PATH".
std::string apply_edit_title(std::string_view text, const Block& block, size_t actions) {
  const std::string word(file_edit_words(block.dialect).value_or(FileEditWords{}).edit);
  const std::vector<std::string> paths = edited_paths(text, block);
  if (paths.size() == 1)
    return "▶ Apply " +
           (block.commands.size() == 1 ? word : count_noun(block.commands.size(), word)) + " to " +
           paths.front();
  if (paths.size() > 1) return "▶ Apply " + word + " to " + count_noun(paths.size(), "file");
  return "▶ Apply block (" + count_noun(actions, "action") + ")";
}

// The data payload of a diagnostic with fixes: every fix with its edits.
DiagnosticData fixes_payload(const FeatureContext& ctx, const Diagnostic& d) {
  DiagnosticData data{kDataVersion, ctx.analysis.version, {}};
  data.fixes.reserve(d.fixes.size());
  for (const Fix& fix : d.fixes)
    data.fixes.push_back({fix.title, fix.preferred, text_edits(ctx, fix)});
  return data;
}

CodeAction quickfix(const json& diagnostic, const std::string& title, bool preferred, json edit) {
  return {title, "quickfix", json::array({diagnostic}), preferred, std::move(edit), std::nullopt};
}

// A WorkspaceEdit of this document with the client's edits as it sent them (the `data` of a
// diagnostic it sends back): raw json, since they are echoed unread.
json document_edit_raw(const FeatureContext& ctx, const json& text_edits) {
  if (ctx.document_changes)
    return {{"documentChanges",
             json::array({{{"textDocument", {{"uri", ctx.uri}, {"version", ctx.analysis.version}}},
                           {"edits", text_edits}}})}};
  return {{"changes", {{ctx.uri, text_edits}}}};
}

// The engine diagnostic that was published as `lsp`: same code and range (the message is not
// compared: clients may decorate it).
const Diagnostic* match_diagnostic(const FeatureContext& ctx, const json& lsp) {
  if (!lsp.is_object()) return nullptr;
  const auto code = lsp.find("code");
  const auto range = lsp.find("range");
  if (code == lsp.end() || !code->is_string() || range == lsp.end()) return nullptr;
  for (const Diagnostic& d : ctx.analysis.diagnostics)
    if (code->get_ref<const std::string&>() == d.code && *range == json(diagnostic_range(ctx, d)))
      return &d;
  return nullptr;
}

// The command's file (command_path), on one line for a title.
std::string path_of(std::string_view text, const Command& command) {
  std::string value(command_path(text, command));
  const size_t nl = value.find('\n');
  if (nl != std::string::npos) value = value.substr(0, nl) + " …";
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r'))
    value.pop_back();
  return value;
}

// Keeps a hover readable: at most `max_lines` lines.
std::string truncate_lines(const std::string& text, size_t max_lines) {
  size_t pos = 0;
  for (size_t n = 0; n < max_lines; ++n) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return text;
    ++pos;
  }
  return text.substr(0, pos) + "… (" +
         std::to_string(std::count(text.begin() + pos, text.end(), '\n')) + " more lines)\n";
}

// A block of a dialect that is checked and shown, never run (command input).
bool never_run(const Block& block) {
  return dialect_info(block.dialect).catalog.never_run;
}

std::string relative(const apply::ApplyConfig* config, const std::string& path) {
  if (config && path.starts_with(config->root + "/")) return path.substr(config->root.size() + 1);
  return path;
}

} // namespace

std::optional<WillNotRun> will_not_run(const Analysis& a, int block) {
  const apply::BlockSimulation* sim = a.block_simulation(block);
  if (!sim || sim->ok) return std::nullopt;
  WillNotRun r;
  std::string error;
  for (const apply::ActionOutcome& o : sim->actions)
    if (o.action && o.action->seq == sim->failed_seq) {
      r.code = o.code;
      error = o.error;
    }
  if (r.code == "EXEC_DISABLED") {
    r.lens = "✗ exec disabled: set execAllowed to run it (EXEC_DISABLED)";
    r.detail = "exec disabled (EXEC_DISABLED)";
    r.because = "it runs code (exec) and exec is disabled (EXEC_DISABLED): set the setting "
                "execAllowed to true to allow it";
  } else {
    r.lens = "✗ will not run (" + r.code + ")";
    r.detail = "will not run (" + r.code + ")";
    r.because = error + " (" + r.code + ")";
  }
  return r;
}

std::string count_noun(size_t n, std::string_view singular) {
  const bool es = singular.ends_with("x") || singular.ends_with("s");
  return std::to_string(n) + " " + std::string(singular) + (n == 1 ? "" : es ? "es" : "s");
}

std::string block_label(std::string_view text, const Block& block) {
  const std::string dialect(dialect_name(block.dialect));
  if (!block.id.empty() && !dialect_info(block.dialect).id_is_marker)
    return dialect + " block '" + block.id + "'";
  const std::optional<FileEditWords> words = file_edit_words(block.dialect);
  if (words && !block.commands.empty()) {
    const std::string path = path_of(text, block.commands.front());
    if (!path.empty())
      return (dialect == words->edit ? "" : dialect + " ") + std::string(words->edit) + " of " +
             path;
  }
  return dialect + " block at line " + std::to_string(block.start_line + 1);
}

Range diagnostic_range(const FeatureContext& ctx, const Diagnostic& d) {
  if (d.line >= ctx.analysis.lines().line_count()) {
    const size_t end = ctx.analysis.text->size();
    return to_range(ctx.mapper(), {end, end});
  }
  return to_range(ctx.mapper(), d.range);
}

LspDiagnostic lsp_diagnostic(const FeatureContext& ctx, const Diagnostic& d) {
  LspDiagnostic out;
  out.range = diagnostic_range(ctx, d);
  out.severity = lsp_severity(d.severity);
  out.code = std::string(d.code);
  out.message = d.message;
  if (!d.fix_hint.empty()) out.message += "\n" + d.fix_hint;
  if (!ctx.docs_url.empty())
    if (const CodeInfo* info = find_code(d.code))
      out.code_description =
          CodeDescription{ctx.docs_url + std::string(info->doc_page) + ".md#" + lower(info->name)};

  std::vector<DiagnosticRelatedInformation> related;
  const auto& blocks = ctx.analysis.checked().parsed.blocks;
  if (d.block >= 0 && static_cast<size_t>(d.block) < blocks.size()) {
    const Block& block = blocks[d.block];
    if (block.start_line != d.line)
      related.push_back({{ctx.uri, line_span(ctx, block.start_line)},
                         "The " + block_label(*ctx.analysis.text, block) + " starts here"});
  }
  if (!d.fixes.empty()) {
    std::set<uint32_t> lines;
    for (const TextEdit& e : d.fixes.front().edits) {
      const uint32_t line = ctx.analysis.lines().line_of(e.range.begin);
      if (line != d.line && lines.insert(line).second)
        related.push_back({{ctx.uri, line_span(ctx, line)},
                           "The fix '" + d.fixes.front().title + "' changes this line"});
    }
  }
  if (!related.empty()) {
    if (ctx.related_information) {
      out.related_information = std::move(related);
    } else {
      for (const DiagnosticRelatedInformation& r : related)
        out.message +=
            "\n" + r.message + " (line " + std::to_string(r.location.range.start.line + 1) + ")";
    }
  }
  if (!d.fixes.empty()) out.data = fixes_payload(ctx, d);
  return out;
}

std::vector<LspDiagnostic> lsp_diagnostics(const FeatureContext& ctx) {
  std::vector<LspDiagnostic> out;
  if (!ctx.analysis.failure.empty()) {
    LspDiagnostic& d = out.emplace_back();
    d.range = to_range(ctx.mapper(), {0, 0});
    d.severity = 2;
    d.code = "CHECK_FAILED";
    d.message = "blockls could not check this document: " + ctx.analysis.failure +
                ". It is checked again when it changes.";
    return out;
  }
  if (ctx.analysis.too_large) {
    const size_t limit = ctx.analysis.context->settings.max_document_bytes;
    LspDiagnostic& d = out.emplace_back();
    d.range = to_range(ctx.mapper(), {0, 0});
    d.severity = 3;
    d.code = "DOCUMENT_TOO_LARGE";
    d.message = "The document has " + std::to_string(ctx.analysis.text->size()) +
                " bytes, more than the limit of " + std::to_string(limit) +
                " (maxDocumentBytes, --max-document-bytes): it is not checked";
    return out;
  }
  out.reserve(ctx.analysis.diagnostics.size());
  for (const Diagnostic& d : ctx.analysis.diagnostics)
    out.push_back(lsp_diagnostic(ctx, d));
  return out;
}

json diagnostics_json(const FeatureContext& ctx) {
  std::vector<LspDiagnostic> diagnostics = lsp_diagnostics(ctx);
  json out = json::array();
  out.get_ref<json::array_t&>().reserve(diagnostics.size());
  for (LspDiagnostic& d : diagnostics)
    out.push_back(json(std::move(d)));
  return out;
}

std::vector<LspTextEdit> text_edits(const FeatureContext& ctx, const Fix& fix) {
  // Sorted by position without copying the engine's edits.
  std::vector<const TextEdit*> sorted;
  sorted.reserve(fix.edits.size());
  for (const TextEdit& e : fix.edits)
    sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [](const TextEdit* a, const TextEdit* b) { return a->range.begin < b->range.begin; });
  const PositionMapper mapper = ctx.mapper();
  std::vector<LspTextEdit> edits;
  edits.reserve(sorted.size());
  for (const TextEdit* e : sorted)
    edits.push_back({to_range(mapper, e->range), e->new_text, std::nullopt});
  return edits;
}

WorkspaceEdit document_edit(const FeatureContext& ctx, std::vector<LspTextEdit> text_edits) {
  WorkspaceEdit edit;
  if (ctx.document_changes)
    edit.document_changes = std::vector<DocumentChange>{
        TextDocumentEdit{{ctx.uri, ctx.analysis.version}, std::move(text_edits)}};
  else
    edit.changes =
        std::map<std::string, std::vector<LspTextEdit>>{{ctx.uri, std::move(text_edits)}};
  return edit;
}

bool kind_selected(const json* only, std::string_view kind) {
  if (!only || !only->is_array()) return true;
  for (const json& o : *only) {
    if (!o.is_string()) continue;
    const std::string& prefix = o.get_ref<const std::string&>();
    if (kind == prefix ||
        (kind.starts_with(prefix) && kind.size() > prefix.size() && kind[prefix.size()] == '.'))
      return true;
  }
  return false;
}

std::vector<CodeAction> code_actions(const FeatureContext& ctx, const CodeActionParams& params,
                                     bool defer_fix_all) {
  std::vector<CodeAction> actions;
  const json& diagnostics = params.diagnostics;
  const json* only = params.only_kinds();
  if (kind_selected(only, "quickfix")) {
    for (const json& lsp : diagnostics) {
      if (!lsp.is_object()) continue;
      if (lsp.contains("source") && lsp["source"] != "blockls") continue;
      const auto data = lsp.find("data");
      if (data != lsp.end() && data->is_object() && data->value("v", 0) == kDataVersion &&
          data->value("version", int64_t{-1}) == ctx.analysis.version &&
          (*data)["fixes"].is_array()) {
        // Stateless path: the fixes travelled with the diagnostic.
        for (const json& fix : (*data)["fixes"])
          if (fix.is_object() && fix.contains("edits"))
            actions.push_back(quickfix(lsp, fix.value("title", "Fix"),
                                       fix.value("isPreferred", false),
                                       document_edit_raw(ctx, fix["edits"])));
        continue;
      }
      // The client dropped `data` (or it is from another version): the server's copy.
      if (const Diagnostic* d = match_diagnostic(ctx, lsp))
        for (const Fix& fix : d->fixes)
          actions.push_back(quickfix(lsp, fix.title, fix.preferred,
                                     json(document_edit(ctx, text_edits(ctx, fix)))));
    }
  }
  if (kind_selected(only, "source.fixAll.blockls") && !ctx.analysis.too_large) {
    size_t fixable = 0;
    for (const Diagnostic& d : ctx.analysis.diagnostics)
      if (!d.fixes.empty() && d.fixes.front().preferred) ++fixable;
    if (fixable > 0) {
      CodeAction action;
      action.title = "Fix all blockls problems (" + count_noun(fixable, "fix") + ")";
      action.kind = "source.fixAll.blockls";
      if (defer_fix_all)
        action.data = FixAllData{ctx.uri, ctx.analysis.version};
      else if (std::optional<WorkspaceEdit> edit = fix_all_edit(ctx))
        action.edit = json(*edit);
      else
        action.edit = json(nullptr);
      actions.push_back(std::move(action));
    }
  }
  return actions;
}

std::optional<WorkspaceEdit> fix_all_edit(const FeatureContext& ctx) {
  const std::string_view before = *ctx.analysis.text;
  std::string after;
  if (apply_preferred_fixes(before, ctx.analysis.diagnostics, &after) == 0) return std::nullopt;
  // One edit over the bytes that differ.
  const ByteRange span = differing_span(before, after);
  const size_t prefix = span.begin, suffix = before.size() - span.end;
  std::vector<LspTextEdit> edits;
  edits.push_back({to_range(ctx.mapper(), {prefix, before.size() - suffix}),
                   after.substr(prefix, after.size() - suffix - prefix), std::nullopt});
  return document_edit(ctx, std::move(edits));
}

std::vector<CodeLens> code_lenses(const FeatureContext& ctx) {
  std::vector<CodeLens> lenses;
  const auto& blocks = ctx.analysis.checked().parsed.blocks;
  // Planned actions per block, counted in one pass over the plan.
  std::vector<size_t> actions_of(blocks.size(), 0);
  for (const apply::PlannedAction& a : ctx.analysis.plan().actions)
    if (a.block >= 0 && static_cast<size_t>(a.block) < blocks.size()) ++actions_of[a.block];
  // The first SEARCH_NOT_FOUND of each block, for the lens of a failing edit.
  std::vector<const Diagnostic*> not_found(blocks.size(), nullptr);
  for (const Diagnostic& d : ctx.analysis.diagnostics)
    if (d.code == "SEARCH_NOT_FOUND" && d.block >= 0 &&
        static_cast<size_t>(d.block) < blocks.size() && !not_found[d.block])
      not_found[d.block] = &d;
  const std::string_view text = *ctx.analysis.text;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const Block& block = blocks[b];
    const size_t errors = ctx.analysis.block_errors(static_cast<int>(b));
    LspCommand command;
    std::optional<WillNotRun> blocked;
    if (errors == 0 && !never_run(block)) blocked = will_not_run(ctx.analysis, static_cast<int>(b));
    if (blocked) {
      // Valid, but executing it would refuse: say why, offer nothing to run.
      command.title = std::move(blocked->lens);
    } else if (errors == 0 && never_run(block)) {
      // Nothing to apply: say what the block is.
      const Command* c = block.commands.empty() ? nullptr : &block.commands[0];
      command.title = "ℹ " + (c ? std::string(c->name) : std::string("command")) + ": " +
                      count_noun(c ? c->params.size() : 0, "parameter");
    } else if (errors == 0) {
      const size_t actions = actions_of[b];
      const bool edits = file_edit_words(block.dialect).has_value();
      command.title = edits ? apply_edit_title(text, block, actions)
                            : "▶ Apply block (" + count_noun(actions, "action") + ")";
      command.command = "blockls.executeBlock";
      command.arguments =
          json::array({ExecuteBlockArguments{{ctx.uri, ctx.analysis.version}, block.start_line}});
    } else if (const std::optional<FileEditWords> words = file_edit_words(block.dialect);
               not_found[b] && words) {
      // A failing edit says which file does not hold its SEARCH text.
      const Command* c = command_at(block, not_found[b]->line);
      std::string title =
          "✗ " + std::string(words->not_found) + " " + (c ? path_of(text, *c) : "the file");
      if (errors > 1) title += " (+" + count_noun(errors - 1, "error") + ")";
      command.title = std::move(title);
    } else {
      command.title = "✗ " + count_noun(errors, "error");
    }
    lenses.push_back({line_span(ctx, block.start_line), std::move(command)});
  }
  return lenses;
}

// The outline: a symbol per block (kind 2, Module) with its commands as children, except for
// file-edit dialects (Aider, replacer, Codex), whose edits are listed by file: one symbol per
// file (kind 1, File) at its first edit, with every edit of that file in the transcript under it.
std::vector<DocumentSymbol> document_symbols(const FeatureContext& ctx) {
  std::vector<DocumentSymbol> symbols;
  const std::string_view text = *ctx.analysis.text;
  const auto& blocks = ctx.analysis.checked().parsed.blocks;
  const PositionMapper mapper = ctx.mapper();
  // The planned actions are in (block, command) order: one cursor walks them beside the loops.
  const std::vector<apply::PlannedAction>& actions = ctx.analysis.plan().actions;
  size_t next = 0;
  // The file symbols of file-edit dialects: index in `symbols`, byte span, edit and error counts.
  struct FileGroup {
    size_t symbol;
    ByteRange span;
    size_t edits = 0, errors = 0;
  };
  std::map<std::string, FileGroup> files;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const Block& block = blocks[b];
    const int bi = static_cast<int>(b);
    const size_t errors = ctx.analysis.block_errors(bi);
    const std::optional<WillNotRun> blocked =
        errors == 0 && !never_run(block) ? will_not_run(ctx.analysis, bi) : std::nullopt;
    const bool by_file = file_edit_words(block.dialect).has_value();
    std::vector<DocumentSymbol> children;
    for (size_t c = 0; c < block.commands.size(); ++c) {
      const Command& command = block.commands[c];
      std::string name = command.name.empty() ? "(no action)" : std::string(command.name);
      const int ci = static_cast<int>(c);
      while (next < actions.size() && (actions[next].block < bi ||
                                       (actions[next].block == bi && actions[next].command < ci)))
        ++next;
      if (next < actions.size() && actions[next].block == bi && actions[next].command == ci)
        name = actions[next].action;
      const std::string path = path_of(text, command);
      const size_t begin = ctx.analysis.lines().line_start(
          std::min(command.line, ctx.analysis.lines().line_count() - 1));
      size_t end = c + 1 < block.commands.size()
                       ? ctx.analysis.lines().line_start(block.commands[c + 1].line)
                       : block.range.end;
      end = std::max(begin, std::min(end, block.range.end));
      ByteRange selection =
          command.name_range.size() > 0 ? command.name_range : ByteRange{begin, begin};
      ByteRange range{std::min(begin, selection.begin), std::max(end, selection.end)};
      if (by_file && !path.empty()) {
        // One edit under its file: the whole block when it is the block's only command.
        if (block.commands.size() == 1) {
          range = {std::min(range.begin, block.range.begin), std::max(range.end, block.range.end)};
          if (command.name_range.size() == 0) selection = {block.range.begin, block.range.begin};
        }
        auto [it, added] = files.try_emplace(path, FileGroup{symbols.size(), range});
        FileGroup& group = it->second;
        if (added) {
          DocumentSymbol file;
          file.name = path;
          file.kind = 1;
          file.selection_range = to_range(mapper, selection);
          file.children.emplace();
          symbols.push_back(std::move(file));
        }
        group.span = {std::min(group.span.begin, range.begin), std::max(group.span.end, range.end)};
        ++group.edits;
        group.errors += errors > 0;
        DocumentSymbol& file = symbols[group.symbol];
        file.range = to_range(mapper, group.span);
        file.detail = count_noun(group.edits, "edit") +
                      (group.errors ? ", " + std::to_string(group.errors) + " failing" : "");
        file.children->push_back(
            {name,
             "line " + std::to_string(ctx.analysis.lines().line_of(range.begin) + 1) +
                 (errors > 0 ? ", " + count_noun(errors, "error")
                  : blocked  ? ", " + blocked->detail
                             : ", valid"),
             12, to_range(mapper, range), to_range(mapper, selection), std::nullopt});
        continue;
      }
      if (!path.empty()) name += " " + path;
      DocumentSymbol symbol{
          name,        std::nullopt, 12, to_range(mapper, range), to_range(mapper, selection),
          std::nullopt};
      if (never_run(block)) {
        // Command input: its parameters, by their output keys (kind 7: Property).
        const auto key = dialect_info(block.dialect).catalog.output_key;
        std::vector<DocumentSymbol> params;
        for (const Parameter& p : command.params) {
          const ByteRange at{std::min(p.name_range.begin, p.value_range.begin),
                             std::max(p.name_range.end, p.value_range.end)};
          params.push_back({std::string(key ? key(p.name) : p.name), std::nullopt, 7,
                            to_range(mapper, at), to_range(mapper, p.name_range), std::nullopt});
        }
        symbol.children = std::move(params);
      }
      children.push_back(std::move(symbol));
    }
    // A file-edit block whose every command went under its file needs no symbol of its own.
    if (by_file && children.empty() && !block.commands.empty()) continue;
    const ByteRange range{block.range.begin, std::max(block.range.begin, block.range.end)};
    const ByteRange selection =
        block.id_range.size() > 0 ? block.id_range : ByteRange{range.begin, range.begin};
    symbols.push_back({block_label(text, block),
                       errors > 0 ? count_noun(errors, "error")
                       : blocked  ? blocked->detail
                                  : "valid",
                       2,
                       to_range(mapper, {std::min(range.begin, selection.begin),
                                         std::max(range.end, selection.end)}),
                       to_range(mapper, selection), std::move(children)});
  }
  return symbols;
}

std::vector<FoldingRange> folding_ranges(const FeatureContext& ctx) {
  std::vector<FoldingRange> ranges;
  const LineIndex& lines = ctx.analysis.lines();
  for (const Block& block : ctx.analysis.checked().parsed.blocks) {
    uint32_t last = block.end_line
                        ? *block.end_line
                        : lines.line_of(block.range.end > block.range.begin ? block.range.end - 1
                                                                            : block.range.begin);
    if (last > block.start_line) ranges.push_back({block.start_line, last, "region"});
  }
  return ranges;
}

std::optional<Hover> hover(const FeatureContext& ctx, Position position) {
  const Analysis& a = ctx.analysis;
  if (a.too_large) return std::nullopt;
  const int b = a.block_at_line(position.line);
  if (b < 0) return std::nullopt;
  const Block& block = a.checked().parsed.blocks[b];
  const apply::ApplyConfig* config = a.context->apply_config ? &*a.context->apply_config : nullptr;
  std::ostringstream md;
  const size_t errors = a.block_errors(b);
  md << "**" << block_label(*a.text, block) << "**";
  if (errors > 0) {
    md << " — ✗ " << count_noun(errors, "error") << ", nothing will run\n\n";
    for (const Diagnostic& d : a.diagnostics)
      if (d.block == b && is_error(d.severity))
        md << "- line " << d.line + 1 << ": " << d.message << " `" << d.code << "`\n";
  } else if (never_run(block)) {
    // Command input: the decoded parameters, as the command would receive them.
    md << " — ℹ command input, checked and shown, never run\n\n";
    for (const Command& c : block.commands)
      md << "`" << c.name << "`\n\n```json\n"
         << command_params_json(*a.text, block, c)
                .dump(2, ' ', false, json::error_handler_t::replace)
         << "\n```\n";
  } else {
    size_t count = 0;
    for (const apply::PlannedAction& pa : a.plan().actions)
      count += pa.block == b;
    if (const std::optional<WillNotRun> blocked = will_not_run(a, b))
      md << " — ✗ " << count_noun(count, "action") << ", will not run: " << blocked->because
         << "\n\n";
    else
      md << " — ▶ " << count_noun(count, "action") << "\n\n";
    const apply::BlockSimulation* sim = a.block_simulation(b);
    if (!sim) {
      for (const apply::PlannedAction& pa : a.plan().actions) {
        if (pa.block != b) continue;
        md << pa.seq << ". `" << pa.action << "`";
        if (const std::string_view* p = pa.param("path")) md << " " << *p;
        md << "\n";
      }
      md << "\n_No workspace root: the effects are not previewed._\n";
    } else {
      for (const apply::ActionOutcome& o : sim->actions) {
        md << "**" << o.action->seq << ". " << o.action->action << "**";
        if (!o.success) {
          md << " — ✗ " << o.error << "\n\n";
          continue;
        }
        md << "\n\n";
        for (const apply::FileEffect& e : *o.effects) {
          const std::string path = relative(config, e.path);
          switch (e.kind) {
          case apply::FileEffect::Kind::write:
            md << "```diff\n"
               << truncate_lines(unified_diff(apply::text_or_empty(e.before), e.after.str(),
                                              e.before ? "a/" + path : "/dev/null", "b/" + path),
                                 200)
               << "```\n\n";
            break;
          case apply::FileEffect::Kind::remove:
            md << "deletes `" << path << "`\n\n";
            break;
          case apply::FileEffect::Kind::move:
            md << "moves `" << path << "` → `" << relative(config, e.new_path) << "`"
               << (e.dest_before ? " (overwrites it)" : "") << "\n\n";
            break;
          case apply::FileEffect::Kind::make_dir:
            md << "creates directory `" << path << "`\n\n";
            break;
          case apply::FileEffect::Kind::remove_dir:
            md << "deletes directory `" << path << "` and its contents\n\n";
            break;
          case apply::FileEffect::Kind::exec:
            md << "runs " << e.lang << " code in `" << relative(config, e.cwd) << "`\n\n";
            break;
          }
        }
      }
    }
  }
  const uint32_t last = block.end_line
                            ? *block.end_line
                            : a.lines().line_of(block.range.end > 0 ? block.range.end - 1 : 0);
  const LineIndex& lines = a.lines();
  const size_t end = last < lines.line_count() ? lines.line_end(*a.text, last) : a.text->size();
  return Hover{{ctx.markdown ? "markdown" : "plaintext", md.str()},
               to_range(ctx.mapper(), {lines.line_start(block.start_line),
                                       std::max(end, lines.line_start(block.start_line))})};
}

} // namespace blockls::lsp
