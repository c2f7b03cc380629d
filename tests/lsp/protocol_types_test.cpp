// The typed protocol structs: every message the server reads (and the ones it sends) survives
// to_json -> from_json, and a malformed field is the InvalidParams error naming that field,
// worded as the server has always answered it.
#include "lsp/protocol_edits.h"
#include "lsp/protocol_results.h"
#include "lsp/protocol_types.h"

#include <catch2/catch.hpp>

using namespace blockls;
using namespace blockls::lsp;

namespace {

template <typename T> T round_trip(const T& value) {
  return json(value).get<T>();
}

// The InvalidParams message reading `params` as T throws ("" when it does not throw).
template <typename T> std::string error_of(const json& params) {
  try {
    (void)params.get<T>();
  } catch (const LspError& e) {
    CHECK(e.code == kInvalidParams);
    return e.what();
  }
  return "";
}

ClientCapabilities vscode_like() {
  ClientCapabilities c;
  c.encoding = PositionEncoding::utf8;
  c.document_changes = true;
  c.resource_operations = {"create", "delete", "rename"};
  c.apply_edit = true;
  c.related_information = true;
  c.watch_dynamic = true;
  c.work_done_progress = true;
  c.markdown = true;
  c.defer_fix_all = true;
  c.code_action_literals = true;
  return c;
}

} // namespace

TEST_CASE("initialize params round trip", "[lsp][protocol_types]") {
  InitializeParams p;
  p.process_id = 4242;
  p.client = vscode_like();
  p.capabilities = json(p.client);
  p.workspace_folders = {"file:///w/a", "file:///w/b%20c"};
  p.initialization_options = {{"blockls", {{"execAllowed", true}}}};
  CHECK(round_trip(p) == p);
  CHECK(workspace_roots(p) == std::vector<std::string>{"/w/a", "/w/b c"});

  InitializeParams bare; // Neovim 0.7: no folders, rootUri only, UTF-16, plain hover
  bare.client.markdown = false;
  bare.capabilities = json(bare.client);
  bare.root_uri = "file:///root";
  CHECK(round_trip(bare) == bare);
  CHECK(workspace_roots(bare) == std::vector<std::string>{"/root"});

  InitializeParams path_only;
  path_only.root_path = "/legacy";
  path_only.capabilities = json(path_only.client);
  CHECK(round_trip(path_only) == path_only);
  CHECK(workspace_roots(path_only) == std::vector<std::string>{"/legacy"});
}

TEST_CASE("client capabilities: defaults, encodings in preference order", "[lsp][protocol_types]") {
  CHECK(round_trip(vscode_like()) == vscode_like());
  CHECK(round_trip(ClientCapabilities{}) == ClientCapabilities{});
  const auto caps = json::parse(R"({"general":{"positionEncodings":["utf-32","utf-16","utf-8"]}})");
  CHECK(caps.get<ClientCapabilities>().encoding == PositionEncoding::utf32);
  const auto unknown = json::parse(R"({"general":{"positionEncodings":["utf-7","utf-16"]}})");
  CHECK(unknown.get<ClientCapabilities>().encoding == PositionEncoding::utf16);
  const ClientCapabilities none = json::object().get<ClientCapabilities>();
  CHECK(none.encoding == PositionEncoding::utf16);
  CHECK(none.markdown); // no contentFormat: markdown
  CHECK_FALSE(none.defer_fix_all);
}

TEST_CASE("initialize: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<InitializeParams>(json()) == "missing field 'params' (expected object)");
  CHECK(error_of<InitializeParams>({{"capabilities", 3}}) ==
        "invalid field 'capabilities' (expected object)");
  // Inside capabilities the path starts at the capabilities object, as the server says.
  CHECK(error_of<InitializeParams>(
            {{"capabilities", {{"general", {{"positionEncodings", "utf-8"}}}}}}) ==
        "invalid field 'general.positionEncodings' (expected array)");
  CHECK(error_of<InitializeParams>({{"workspaceFolders", {{"uri", "x"}}}}) ==
        "invalid field 'workspaceFolders' (expected array)");
  CHECK(error_of<InitializeParams>({{"rootUri", 7}}) ==
        "invalid field 'rootUri' (expected string)");
  // rootUri is not read when a folder gives a root.
  CHECK(error_of<InitializeParams>(
            {{"workspaceFolders", {{{"uri", "file:///w"}}}}, {"rootUri", 7}}) == "");
  // processId is read before a later malformed field.
  InitializeParams p;
  CHECK_THROWS_AS(
      from_json(json{{"processId", 77}, {"capabilities", {{"window", 1}}}, {"rootUri", 1}}, p),
      LspError);
  CHECK(p.process_id == 77);
}

TEST_CASE("text synchronisation params round trip", "[lsp][protocol_types]") {
  const DidOpenParams open{"file:///a.md", "#!telt\n", 3};
  CHECK(round_trip(open) == open);
  CHECK(round_trip(TextDocumentParams{"file:///a.md"}) == TextDocumentParams{"file:///a.md"});

  const json changes = json::parse(
      R"([{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"x"}])");
  DidChangeParams change{"file:///a.md", 4, &changes};
  const json change_json = change;
  const DidChangeParams change_back = change_json.get<DidChangeParams>();
  CHECK(change_back.uri == change.uri);
  CHECK(change_back.version == 4);
  CHECK(*change_back.content_changes == changes);

  const json save_json = {{"textDocument", {{"uri", "file:///a.md"}}}, {"text", "saved"}};
  const DidSaveParams save = save_json.get<DidSaveParams>();
  CHECK(save.uri == "file:///a.md");
  REQUIRE(save.text() != nullptr);
  CHECK(*save.text() == "saved");
  CHECK(json(save) == save_json);
  const json no_text = {{"textDocument", {{"uri", "file:///a.md"}}}};
  CHECK(no_text.get<DidSaveParams>().text() == nullptr);
}

TEST_CASE("text synchronisation: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<DidOpenParams>(json::object()) ==
        "missing field 'textDocument.uri' (expected string)");
  CHECK(error_of<DidOpenParams>({{"textDocument", {{"uri", "u"}, {"text", "t"}}}}) ==
        "missing field 'textDocument.version' (expected integer)");
  CHECK(error_of<DidOpenParams>({{"textDocument", {{"uri", "u"}, {"text", 1}, {"version", 1}}}}) ==
        "invalid field 'textDocument.text' (expected string)");
  CHECK(error_of<DidChangeParams>(
            {{"textDocument", {{"uri", "u"}, {"version", 2}}}, {"contentChanges", {{"a", 1}}}}) ==
        "invalid field 'contentChanges' (expected array)");
  CHECK(error_of<DidChangeParams>({{"textDocument", {{"uri", "u"}, {"version", "2"}}}}) ==
        "invalid field 'textDocument.version' (expected integer)");
  CHECK(error_of<TextDocumentParams>({{"textDocument", {{"uri", 3}}}}) ==
        "invalid field 'textDocument.uri' (expected string)");
  // didSave's text is checked when it is used (only for an open document).
  const json bad_text = {{"textDocument", {{"uri", "u"}}}, {"text", 5}};
  const DidSaveParams save = bad_text.get<DidSaveParams>();
  CHECK_THROWS_WITH(save.text(), "invalid field 'text' (expected string)");
}

TEST_CASE("document requests round trip", "[lsp][protocol_types]") {
  const HoverParams hover{"file:///a.md", {2, 5}};
  CHECK(round_trip(hover) == hover);

  CodeActionParams action;
  action.uri = "file:///a.md";
  action.range = {{"start", {{"line", 0}, {"character", 0}}},
                  {"end", {{"line", 0}, {"character", 0}}}};
  action.diagnostics = json::array({{{"code", "X"}, {"message", "m"}}});
  action.only = json::array({"quickfix"});
  CHECK(round_trip(action) == action);
  REQUIRE(action.only_kinds() != nullptr);
  action.only = nullptr;
  CHECK(round_trip(action) == action);
  CHECK(action.only_kinds() == nullptr);

  CodeActionResolveParams fix_all;
  fix_all.action = {{"title", "Fix all"}, {"kind", "source.fixAll.blockls"}};
  fix_all.fix_all = true;
  fix_all.uri = "file:///a.md";
  fix_all.version = 9;
  CodeActionResolveParams back = round_trip(fix_all);
  CHECK(back.fix_all);
  CHECK(back.uri == fix_all.uri);
  CHECK(back.version == 9);
  CHECK(back.action["title"] == "Fix all");
  CodeActionResolveParams plain;
  plain.action = {{"title", "t"}, {"edit", json::object()}};
  CHECK(round_trip(plain) == plain);
}

TEST_CASE("document requests: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<HoverParams>({{"textDocument", {{"uri", "u"}}}, {"position", {{"line", 1}}}}) ==
        "missing field 'position.character' (expected integer)");
  CHECK(error_of<HoverParams>(
            {{"textDocument", {{"uri", "u"}}}, {"position", {{"line", -1}, {"character", 0}}}}) ==
        "invalid field 'position.line' (expected a non-negative integer)");
  CHECK(error_of<CodeActionParams>({{"textDocument", {{"uri", "u"}}}}) ==
        "missing field 'range' (expected object)");
  CHECK(error_of<CodeActionParams>(
            {{"textDocument", {{"uri", "u"}}}, {"range", json::object()}, {"context", 1}}) ==
        "missing field 'context.diagnostics' (expected array)");
  // context.only is checked when the actions are computed (after the analysis), as before.
  const json bad_only = {{"textDocument", {{"uri", "u"}}},
                         {"range", json::object()},
                         {"context", {{"diagnostics", json::array()}, {"only", "quickfix"}}}};
  const CodeActionParams p = bad_only.get<CodeActionParams>();
  CHECK_THROWS_WITH(p.only_kinds(), "invalid field 'context.only' (expected array)");
  CHECK(error_of<CodeActionResolveParams>(json()) == "missing field 'params' (expected object)");
  CHECK(error_of<CodeActionResolveParams>({{"title", "t"}, {"data", 1}}) ==
        "invalid field 'data' (expected object)");
  CHECK(error_of<CodeActionResolveParams>({{"data", {{"fixAll", true}, {"uri", "u"}}}}) ==
        "missing field 'version' (expected integer)");
}

TEST_CASE("executeCommand round trip", "[lsp][protocol_types]") {
  ExecuteCommandParams p;
  p.command = "blockls.executeBlock";
  p.argument = json(ExecuteBlockArguments{{"file:///a.md", 3}, 7});
  p.work_done_token = "tok-1";
  CHECK(round_trip(p) == p);
  CHECK(p.argument.get<ExecuteBlockArguments>() == ExecuteBlockArguments{{"file:///a.md", 3}, 7});
  const ExecuteAllArguments all{"file:///a.md", 3};
  CHECK(round_trip(all) == all);
  // No arguments: {}.
  CHECK(json{{"command", "blockls.showDebugInfo"}}.get<ExecuteCommandParams>().argument ==
        json::object());

  ExecuteResult disk;
  disk.applied = false;
  disk.backend = "disk";
  disk.results = json::array({{{"success", false}}});
  disk.touched = json::array({"/w/a"});
  disk.failure_reason = "block NOT applied";
  CHECK(round_trip(disk) == disk);
  ExecuteResult edit;
  edit.applied = true;
  edit.backend = "workspaceEdit";
  CHECK(round_trip(edit) == edit);
  CHECK_FALSE(json(edit).contains("touched"));
}

TEST_CASE("executeCommand: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<ExecuteCommandParams>(json::object()) ==
        "missing field 'command' (expected string)");
  CHECK(error_of<ExecuteCommandParams>({{"command", "c"}, {"arguments", {{"uri", "u"}}}}) ==
        "invalid field 'arguments' (expected array)");
  CHECK(error_of<ExecuteBlockArguments>(json::array()) ==
        "missing field 'arguments[0]' (expected object)");
  CHECK(error_of<ExecuteBlockArguments>({{"uri", "u"}, {"version", 1}}) ==
        "missing field 'line' (expected integer)");
  CHECK(error_of<ExecuteAllArguments>({{"uri", "u"}, {"version", "1"}}) ==
        "invalid field 'version' (expected integer)");
  CHECK(error_of<ExecuteAllArguments>({{"uri", "u"}, {"version", 1}, {"line", "x"}}) == "");
}

TEST_CASE("notifications round trip", "[lsp][protocol_types]") {
  CHECK(round_trip(CancelParams{7}) == CancelParams{7});
  CHECK(round_trip(CancelParams{"req-7"}) == CancelParams{"req-7"});
  const DidChangeConfigurationParams config{{{"blockls", {{"docsUrl", "https://x/"}}}}};
  CHECK(round_trip(config) == config);
  CHECK(json(3).get<DidChangeConfigurationParams>().settings.is_null());
  const DidChangeWorkspaceFoldersParams folders{{"file:///old"}, {"file:///new"}};
  CHECK(round_trip(folders) == folders);
  const DidChangeWatchedFilesParams watched{{{"file:///a.py", 2}, {"file:///b.py", 1}}};
  CHECK(round_trip(watched) == watched);
  // An entry that cannot be read is kept with type 0 (the server then assumes the worst).
  const auto odd = json{{"changes", {{{"uri", 7}}, 3}}}.get<DidChangeWatchedFilesParams>();
  REQUIRE(odd.changes.size() == 2);
  CHECK(odd.changes[0] == FileEvent{"", 0});
  CHECK(odd.changes[1] == FileEvent{"", 0});
}

TEST_CASE("notifications: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<CancelParams>(json::object()) == "missing field 'id' (expected a value)");
  CHECK(error_of<DidChangeWorkspaceFoldersParams>({{"event", 1}}) ==
        "invalid field 'event' (expected object)");
  CHECK(error_of<DidChangeWatchedFilesParams>({{"changes", "all"}}) ==
        "invalid field 'changes' (expected array)");
}

TEST_CASE("what the server sends round trips", "[lsp][protocol_types]") {
  const PublishDiagnosticsParams publish{"file:///a.md", 5, json::array({{{"code", "X"}}})};
  CHECK(round_trip(publish) == publish);
  const PublishDiagnosticsParams cleared{"file:///a.md", std::nullopt, json::array()};
  CHECK(round_trip(cleared) == cleared);
  CHECK_FALSE(json(cleared).contains("version"));
  PublishDiagnosticsParams moved = publish;
  CHECK(json(std::move(moved)) == json(publish)); // the moving to_json writes the same
  const ShowMessageParams message{2, "blockls settings: docsUrl must be a string"};
  CHECK(round_trip(message) == message);
}

// ---- results and messages the server sends (lsp/protocol_results.h) ------------------------

namespace {

Range range_of(uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1) {
  return {{l0, c0}, {l1, c1}};
}

} // namespace

TEST_CASE("initialize result round trip and text", "[lsp][protocol_types]") {
  InitializeResult r;
  r.capabilities.position_encoding = "utf-8";
  r.capabilities.code_action_options =
      CodeActionOptions{{"quickfix", "source.fixAll.blockls"}, true};
  r.capabilities.commands = {"blockls.executeBlock", "blockls.executeAll", "blockls.showDebugInfo"};
  r.server_version = "1.2.3";
  CHECK(round_trip(r) == r);
  CHECK(
      json(r).dump() ==
      R"({"capabilities":{"codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll.blockls"],)"
      R"("resolveProvider":true},"codeLensProvider":{"resolveProvider":false},"documentSymbolProvider":true,)"
      R"("executeCommandProvider":{"commands":["blockls.executeBlock","blockls.executeAll","blockls.showDebugInfo"]},)"
      R"("foldingRangeProvider":true,"hoverProvider":true,"positionEncoding":"utf-8",)"
      R"("textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":true}},)"
      R"("workspace":{"workspaceFolders":{"changeNotifications":true,"supported":true}}},)"
      R"("serverInfo":{"name":"blockls","version":"1.2.3"}})");
  // Without codeActionLiteralSupport the provider is `true`.
  InitializeResult plain;
  CHECK(json(plain)["capabilities"]["codeActionProvider"] == true);
  CHECK(round_trip(plain) == plain);
}

TEST_CASE("registerCapability params round trip and text", "[lsp][protocol_types]") {
  const RegistrationParams p{
      {{"blockls-watched-files", "workspace/didChangeWatchedFiles", {{"**/*"}}}}};
  CHECK(round_trip(p) == p);
  CHECK(
      json(p).dump() ==
      R"({"registrations":[{"id":"blockls-watched-files","method":"workspace/didChangeWatchedFiles",)"
      R"("registerOptions":{"watchers":[{"globPattern":"**/*"}]}}]})");
}

TEST_CASE("code lens round trip and text", "[lsp][protocol_types]") {
  CodeLens run{range_of(1, 0, 1, 24),
               {"▶ Apply block (1 action)", "blockls.executeBlock",
                json::array({ExecuteBlockArguments{{"file:///a.md", 1}, 1}})}};
  CHECK(round_trip(run) == run);
  CHECK(
      json(run).dump() ==
      R"({"command":{"arguments":[{"line":1,"uri":"file:///a.md","version":1}],"command":"blockls.executeBlock",)"
      R"j("title":"▶ Apply block (1 action)"},"range":{"end":{"character":24,"line":1},)j"
      R"j("start":{"character":0,"line":1}}})j");
  const CodeLens info{range_of(0, 0, 0, 3), {"✗ 2 errors", "", std::nullopt}};
  CHECK(round_trip(info) == info);
  CHECK_FALSE(json(info)["command"].contains("arguments"));
  CHECK(json(info)["command"]["command"] == "");
}

TEST_CASE("document symbols round trip and text", "[lsp][protocol_types]") {
  DocumentSymbol param{"path",      std::nullopt, 7, range_of(2, 0, 2, 9), range_of(2, 0, 2, 4),
                       std::nullopt};
  DocumentSymbol command{
      "write_file",         std::nullopt,         12,
      range_of(1, 0, 3, 0), range_of(1, 0, 1, 5), std::vector<DocumentSymbol>{param}};
  DocumentSymbol block{"nesl block 'k1w'",
                       "valid",
                       2,
                       range_of(0, 0, 4, 0),
                       range_of(0, 10, 0, 13),
                       std::vector<DocumentSymbol>{command}};
  CHECK(round_trip(block) == block);
  CHECK(round_trip(param) == param);
  CHECK_FALSE(json(param).contains("children"));
  CHECK_FALSE(json(param).contains("detail"));
  DocumentSymbol empty_file{"src/a.py", "0 edits", 1, {}, {}, std::vector<DocumentSymbol>{}};
  CHECK(json(empty_file)["children"] == json::array()); // present even when empty
  CHECK(round_trip(empty_file) == empty_file);
  CHECK(
      json(param).dump() ==
      R"({"kind":7,"name":"path","range":{"end":{"character":9,"line":2},"start":{"character":0,"line":2}},)"
      R"("selectionRange":{"end":{"character":4,"line":2},"start":{"character":0,"line":2}}})");
}

TEST_CASE("folding range and hover round trip and text", "[lsp][protocol_types]") {
  const FoldingRange fold{3, 9, "region"};
  CHECK(round_trip(fold) == fold);
  CHECK(json(fold).dump() == R"({"endLine":9,"kind":"region","startLine":3})");
  const Hover hover{{"markdown", "**telt block 'g7q'** — ▶ 1 action\n"}, range_of(0, 0, 6, 11)};
  CHECK(round_trip(hover) == hover);
  CHECK(json(Hover{{"plaintext", "x"}, range_of(0, 0, 0, 1)}).dump() ==
        R"({"contents":{"kind":"plaintext","value":"x"},)"
        R"("range":{"end":{"character":1,"line":0},"start":{"character":0,"line":0}}})");
}

TEST_CASE("code actions round trip and text", "[lsp][protocol_types]") {
  CodeAction fix;
  fix.title = "Change hash to 'm4v'";
  fix.kind = "quickfix";
  fix.diagnostics = json::array({{{"code", "HASH_MISMATCH"}}});
  fix.is_preferred = true;
  fix.edit = json{{"changes", {{"file:///a.md", json::array()}}}};
  CHECK(round_trip(fix) == fix);
  CHECK(json(fix).dump() ==
        R"({"diagnostics":[{"code":"HASH_MISMATCH"}],"edit":{"changes":{"file:///a.md":[]}},)"
        R"("isPreferred":true,"kind":"quickfix","title":"Change hash to 'm4v'"})");
  CodeAction deferred;
  deferred.title = "Fix all blockls problems (2 fixes)";
  deferred.kind = "source.fixAll.blockls";
  deferred.data = FixAllData{"file:///a.md", 4};
  CHECK(round_trip(deferred) == deferred);
  CHECK(json(deferred).dump() ==
        R"({"data":{"fixAll":true,"uri":"file:///a.md","version":4},)"
        R"j("kind":"source.fixAll.blockls","title":"Fix all blockls problems (2 fixes)"})j");
  // What the server offers is what codeAction/resolve reads back.
  const CodeActionResolveParams resolve = json(deferred).get<CodeActionResolveParams>();
  CHECK(resolve.fix_all);
  CHECK(resolve.uri == "file:///a.md");
  CHECK(resolve.version == 4);
}

TEST_CASE("workspace/applyEdit and $/progress round trip and text", "[lsp][protocol_types]") {
  const ApplyWorkspaceEditParams apply{"blockls: apply 2 blocks",
                                       {{"documentChanges", json::array()}}};
  CHECK(round_trip(apply) == apply);
  CHECK(json(apply).dump() ==
        R"({"edit":{"documentChanges":[]},"label":"blockls: apply 2 blocks"})");

  const ProgressParams begin{"tok-1", {"begin", "blockls: apply 1 block", false, std::nullopt}};
  CHECK(round_trip(begin) == begin);
  CHECK(
      json(begin).dump() ==
      R"({"token":"tok-1","value":{"cancellable":false,"kind":"begin","title":"blockls: apply 1 block"}})");
  const ProgressParams end{7, {"end", std::nullopt, std::nullopt, "applied"}};
  CHECK(round_trip(end) == end);
  CHECK(json(end).dump() == R"({"token":7,"value":{"kind":"end","message":"applied"}})");

  const ShowMessageParams message{1, "blockls: failed"};
  CHECK(json(message).dump() == R"({"message":"blockls: failed","type":1})");
}

TEST_CASE("the client's applyEdit answer: malformed fields are named", "[lsp][protocol_types]") {
  const ApplyWorkspaceEditResult applied{true, std::nullopt};
  CHECK(round_trip(applied) == applied);
  const ApplyWorkspaceEditResult refused{false, "the user said no"};
  CHECK(round_trip(refused) == refused);
  CHECK(json(refused).dump() == R"({"applied":false,"failureReason":"the user said no"})");
  CHECK(json::object().get<ApplyWorkspaceEditResult>() == ApplyWorkspaceEditResult{});
  CHECK(error_of<ApplyWorkspaceEditResult>({{"applied", "yes"}}) ==
        "invalid field 'applied' (expected boolean)");
  CHECK(error_of<ApplyWorkspaceEditResult>(7) == "invalid field 'result' (expected object)");
  CHECK(error_of<ApplyWorkspaceEditResult>(json()) == "missing field 'result' (expected object)");
  CHECK(error_of<ApplyWorkspaceEditResult>({{"applied", false}, {"failureReason", 42}}) ==
        "invalid field 'failureReason' (expected string)");
  const ResponseError error{kRequestFailed, "Nothing to apply; nothing was changed."};
  CHECK(round_trip(error) == error);
  CHECK(json(error).dump() ==
        R"j({"code":-32803,"message":"Nothing to apply; nothing was changed."})j");
  CHECK(error_of<ResponseError>({{"code", "x"}}) == "invalid field 'code' (expected integer)");
  // A response error is read leniently.
  CHECK(response_error_message({{"code", 1}, {"message", "denied"}}) == "denied");
  CHECK(response_error_message("boom") == "error");
  CHECK(response_error_message({{"message", 3}}) == "error");
}

TEST_CASE("sent results: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<CodeLens>({{"range", 1}}) == "invalid field 'range' (expected object)");
  CHECK(error_of<DocumentSymbol>({{"name", "n"}}) == "missing field 'kind' (expected integer)");
  CHECK(error_of<DocumentSymbol>({{"name", "n"},
                                  {"kind", 2},
                                  {"range", json(range_of(0, 0, 0, 0))},
                                  {"selectionRange", json(range_of(0, 0, 0, 0))},
                                  {"children", 1}}) == "invalid field 'children' (expected array)");
  CHECK(error_of<FoldingRange>({{"startLine", 1}, {"endLine", "2"}}) ==
        "invalid field 'endLine' (expected integer)");
  CHECK(error_of<Hover>({{"contents", {{"kind", "markdown"}}}}) ==
        "missing field 'contents.value' (expected string)");
  CHECK(error_of<CodeAction>({{"title", "t"}, {"kind", "quickfix"}, {"data", {{"uri", "u"}}}}) ==
        "missing field 'version' (expected integer)");
  CHECK(error_of<ProgressParams>({{"token", 1}, {"value", {{"title", "t"}}}}) ==
        "missing field 'kind' (expected string)");
  CHECK(error_of<RegistrationParams>({{"registrations", {{{"id", "x"}}}}}) ==
        "missing field 'method' (expected string)");
  CHECK(error_of<Range>({{"start", {{"line", 0}}}, {"end", json::object()}}) ==
        "missing field 'character' (expected integer)");
}

// ---- diagnostics and WorkspaceEdits (lsp/protocol_edits.h) --------------------------------

TEST_CASE("diagnostics round trip and text", "[lsp][protocol_types]") {
  LspDiagnostic d;
  d.range = range_of(3, 0, 3, 5);
  d.severity = 1;
  d.code = "HASH_MISMATCH";
  d.code_description = CodeDescription{"https://x/codes.md#hash_mismatch"};
  d.message = "bad hash";
  d.related_information = std::vector<DiagnosticRelatedInformation>{
      {{"file:///a.md", range_of(1, 0, 1, 4)}, "The nesl block 'k1w' starts here"}};
  d.data = DiagnosticData{1, 7, {{"Change hash", true, {{range_of(3, 0, 3, 5), "m4v", {}}}}}};
  CHECK(round_trip(d) == d);
  CHECK(
      json(d).dump() ==
      R"({"code":"HASH_MISMATCH","codeDescription":{"href":"https://x/codes.md#hash_mismatch"},)"
      R"("data":{"fixes":[{"edits":[{"newText":"m4v","range":{"end":{"character":5,"line":3},)"
      R"("start":{"character":0,"line":3}}}],"isPreferred":true,"title":"Change hash"}],"v":1,)"
      R"("version":7},"message":"bad hash","range":{"end":{"character":5,"line":3},)"
      R"("start":{"character":0,"line":3}},"relatedInformation":[{"location":{"range":)"
      R"({"end":{"character":4,"line":1},"start":{"character":0,"line":1}},"uri":"file:///a.md"},)"
      R"("message":"The nesl block 'k1w' starts here"}],"severity":1,"source":"blockls"})");
  LspDiagnostic moved = d;
  CHECK(json(std::move(moved)) == json(d)); // the moving to_json writes the same

  LspDiagnostic plain;
  plain.code = "OUT_OF_SYNC";
  plain.message = "lost";
  CHECK(round_trip(plain) == plain);
  CHECK(json(plain).dump() ==
        R"({"code":"OUT_OF_SYNC","message":"lost","range":{"end":{"character":0,"line":0},)"
        R"("start":{"character":0,"line":0}},"severity":1,"source":"blockls"})");
  const DiagnosticData data{1, 2, {}};
  CHECK(round_trip(data) == data);
  const CodeDescription description{"https://x"};
  CHECK(
      round_trip(LspDiagnostic{{}, 2, "C", description, "blockls", "m", {}, {}}).code_description ==
      description);
}

TEST_CASE("workspace edits round trip and text", "[lsp][protocol_types]") {
  const LspTextEdit edit{range_of(0, 1, 0, 2), "x", std::nullopt};
  CHECK(round_trip(edit) == edit);
  CHECK(
      json(edit).dump() ==
      R"({"newText":"x","range":{"end":{"character":2,"line":0},"start":{"character":1,"line":0}}})");
  const LspTextEdit annotated{range_of(0, 1, 0, 2), "x", "block-a-0"};
  CHECK(round_trip(annotated) == annotated);
  LspTextEdit moved = annotated;
  CHECK(json(std::move(moved)) == json(annotated));

  // Built member by member: GCC 12 at -O3 sees the nested aggregate initialisation's
  // unwinding path as reading an uninitialised string (a false -Wmaybe-uninitialized).
  TextDocumentEdit versioned;
  versioned.text_document = VersionedDocument{"file:///a.md", 3};
  versioned.edits.push_back(edit);
  CHECK(round_trip(versioned) == versioned);
  TextDocumentEdit unversioned;
  unversioned.text_document = VersionedDocument{"file:///b.txt", std::nullopt};
  unversioned.edits.push_back(annotated);
  CHECK(round_trip(unversioned) == unversioned);
  CHECK(json(unversioned)["textDocument"]["version"].is_null()); // written as null

  const CreateFile create{"file:///c.txt", CreateFileOptions{false, false}, std::nullopt};
  CHECK(round_trip(create) == create);
  CHECK(
      json(create).dump() ==
      R"({"kind":"create","options":{"ignoreIfExists":false,"overwrite":false},"uri":"file:///c.txt"})");
  const RenameFile rename{"file:///a", "file:///b", RenameFileOptions{true, std::nullopt}, "id"};
  CHECK(round_trip(rename) == rename);
  CHECK(json(rename).dump() ==
        R"({"annotationId":"id","kind":"rename","newUri":"file:///b","oldUri":"file:///a",)"
        R"("options":{"overwrite":true}})");
  const DeleteFile remove{"file:///d", std::nullopt, std::nullopt};
  CHECK(round_trip(remove) == remove);
  CHECK(json(remove).dump() == R"({"kind":"delete","uri":"file:///d"})");
  const DeleteFile tree{"file:///t", DeleteFileOptions{true, false}, "id"};
  CHECK(round_trip(tree) == tree);
  const ChangeAnnotation annotation{"blockls: block a", true, std::nullopt};
  CHECK(round_trip(annotation) == annotation);

  WorkspaceEdit all;
  all.document_changes = std::vector<DocumentChange>{create, unversioned, rename, remove, tree};
  all.change_annotations = std::map<std::string, ChangeAnnotation>{{"id", annotation}};
  CHECK(round_trip(all) == all);
  WorkspaceEdit changes;
  changes.changes = std::map<std::string, std::vector<LspTextEdit>>{{"file:///a.md", {edit}}};
  CHECK(round_trip(changes) == changes);
  CHECK(json(changes).dump() ==
        R"({"changes":{"file:///a.md":[{"newText":"x","range":{"end":{"character":2,"line":0},)"
        R"("start":{"character":1,"line":0}}}]}})");
  WorkspaceEdit empty;
  empty.changes.emplace();
  CHECK(json(empty).dump() == R"({"changes":{}})");
  CHECK(round_trip(empty) == empty);
  CHECK(error_of<DocumentChange>({{"kind", "move"}, {"uri", "file:///a"}}) ==
        "invalid field 'kind' (expected create, rename or delete)");
}
