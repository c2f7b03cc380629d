// The typed protocol structs: every message the server reads (and the ones it sends) survives
// to_json -> from_json, and a malformed field is the InvalidParams error naming that field,
// worded as the server has always answered it.
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
  CHECK(caps.get<ClientCapabilities>().encoding == PositionEncoding::utf16);
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
}

TEST_CASE("notifications: malformed fields are named", "[lsp][protocol_types]") {
  CHECK(error_of<CancelParams>(json::object()) == "missing field 'id' (expected a value)");
  CHECK(error_of<DidChangeWorkspaceFoldersParams>({{"event", 1}}) ==
        "invalid field 'event' (expected object)");
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
