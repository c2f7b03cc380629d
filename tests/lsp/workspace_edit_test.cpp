// The WorkspaceEdit backend: apply/'s protocol-free file changes (byte ranges, paths), and
// lsp/workspace_edit's documentChanges from them, positions in UTF-16 and UTF-8.
#include "apply/apply_test_support.h"
#include "apply/file_changes.h"
#include "apply/workspace_check.h"
#include "diagnostics/file_uri.h"
#include "lsp/workspace_edit.h"

#include <catch2/catch.hpp>

using namespace blockls;
using namespace blockls::apply;
using namespace blockls::lsp;
using namespace blockls::test;

TEST_CASE("WorkspaceEdit: documentChanges in UTF-16 and UTF-8 positions", "[lsp][workspace_edit]") {
  TempRoot root;
  put_file(root.dir + "/u.txt", "a😀b\nsecond\n");
  put_file(root.dir + "/old.txt", "x");
  put_file(root.dir + "/gone.txt", "y");
  const std::string text =
      "#!telt [3-char SHA: ws1]\n=== REPLACE_TEXT ===\n--FILE ws1--\nu.txt\n--OLD_TEXT "
      "ws1--\nb\n--NEW_TEXT ws1--\nB\n"
      "=== CREATE_FILE ===\n--FILE ws1--\nnew dir/n.txt\n--CONTENT ws1--\nhi\n"
      "=== MOVE_FILE ===\n--OLD_PATH ws1--\nold.txt\n--NEW_PATH ws1--\nmoved.txt\n"
      "=== DELETE_FILE ===\n--FILE ws1--\ngone.txt\n=== READ_FILE ===\n--FILE ws1--\nu.txt\n--END "
      "ws1--\n";
  auto c = check_with_workspace(text, root.config);
  REQUIRE(c->ws.simulation.blocks[0].ok);
  const WorkspaceEditResult u16 = workspace_edit(file_changes(c->ws.simulation));
  const nlohmann::json& dc = u16.edit["documentChanges"];
  REQUIRE(dc.size() == 5);
  CHECK(dc[0]["textDocument"]["uri"] == file_uri(root.dir + "/u.txt"));
  CHECK(dc[0]["edits"][0]["range"]["start"] == nlohmann::json({{"line", 0}, {"character", 3}}));
  CHECK(dc[0]["edits"][0]["newText"] == "B");
  CHECK(dc[1]["kind"] == "create");
  CHECK(dc[1]["uri"].get<std::string>().ends_with("/new%20dir/n.txt"));
  CHECK(dc[2]["edits"][0]["newText"] == "hi");
  CHECK(dc[3]["kind"] == "rename");
  CHECK(dc[4]["kind"] == "delete");
  CHECK(u16.changes.is_null()); // creates/renames/deletes need documentChanges
  CHECK(u16.results[4]["data"]["content"] ==
        "a😀B\nsecond\n"); // the read sees the replace before it
  const WorkspaceEditResult u8 =
      workspace_edit(file_changes(c->ws.simulation), {PositionEncoding::utf8, true, {}});
  CHECK(u8.edit["documentChanges"][0]["edits"][0]["range"]["start"]["character"] == 5);
  CHECK(u8.edit.contains("changeAnnotations"));
}

TEST_CASE("file changes: byte ranges of the text before, in order, protocol-free",
          "[apply][workspace_edit]") {
  TempRoot root;
  put_file(root.dir + "/u.txt", "a😀b\nsecond\n");
  const std::string text =
      "#!telt [3-char SHA: fc1]\n=== REPLACE_TEXT ===\n--FILE fc1--\nu.txt\n--OLD_TEXT "
      "fc1--\nsecond\n--NEW_TEXT fc1--\n2nd\n"
      "=== CREATE_FILE ===\n--FILE fc1--\nn.txt\n--CONTENT fc1--\nhi\n--END fc1--\n";
  auto c = check_with_workspace(text, root.config);
  REQUIRE(c->ws.simulation.blocks[0].ok);
  const FileChanges fc = file_changes(c->ws.simulation);
  REQUIRE(fc.changes.size() == 3);
  CHECK(fc.changes[0].kind == FileChange::Kind::edit);
  CHECK(fc.changes[0].path == root.dir + "/u.txt");
  CHECK(fc.changes[0].range == ByteRange{7, 11}); // "seco" of "second" (after "a😀b\n")
  CHECK(fc.changes[0].new_text == "2");
  CHECK(fc.changes[1].kind == FileChange::Kind::create);
  CHECK(fc.changes[2].kind == FileChange::Kind::edit);
  CHECK(fc.changes[2].before.empty());
  CHECK(fc.changes[2].new_text == "hi");
  CHECK_FALSE(fc.only_edits);
  CHECK(fc.blocks.size() == 1);
  CHECK(fc.results.size() == 2);
}

TEST_CASE("WorkspaceEdit: one TextDocumentEdit per run of edits of a file, open ones versioned",
          "[lsp][workspace_edit]") {
  TempRoot root;
  put_file(root.dir + "/u.txt", "one\ntwo\nthree\n");
  const std::string text =
      "#!telt [3-char SHA: ws2]\n=== REPLACE_TEXT ===\n--FILE ws2--\nu.txt\n--OLD_TEXT "
      "ws2--\none\n--NEW_TEXT ws2--\nONE\n"
      "=== REPLACE_TEXT ===\n--FILE ws2--\nu.txt\n--OLD_TEXT ws2--\nthree\n--NEW_TEXT "
      "ws2--\n3\n"
      "=== MOVE_FILE ===\n--OLD_PATH ws2--\nu.txt\n--NEW_PATH ws2--\nv.txt\n"
      "=== REPLACE_TEXT ===\n--FILE ws2--\nv.txt\n--OLD_TEXT ws2--\ntwo\n--NEW_TEXT "
      "ws2--\n2\n--END ws2--\n";
  auto c = check_with_workspace(text, root.config);
  REQUIRE(c->ws.simulation.blocks[0].ok);
  WorkspaceEditOptions options;
  options.open_documents[root.dir + "/u.txt"] = {"file:///open/u.txt", 7};
  const WorkspaceEditResult r = workspace_edit(file_changes(c->ws.simulation), options);
  const nlohmann::json& dc = r.edit["documentChanges"];
  REQUIRE(dc.size() == 3);
  // Both edits of u.txt before the move: one edit of the text before them, at the document's
  // version, under the open document's URI.
  CHECK(dc[0]["textDocument"] == nlohmann::json({{"uri", "file:///open/u.txt"}, {"version", 7}}));
  REQUIRE(dc[0]["edits"].size() == 1);
  CHECK(dc[0]["edits"][0]["range"] == nlohmann::json({{"start", {{"line", 0}, {"character", 0}}},
                                                      {"end", {{"line", 2}, {"character", 5}}}}));
  CHECK(dc[0]["edits"][0]["newText"] == "ONE\ntwo\n3");
  CHECK(dc[1]["kind"] == "rename");
  CHECK(dc[1]["oldUri"] == "file:///open/u.txt");
  // After the move, v.txt (not open) is edited on its own, with no version.
  CHECK(dc[2]["textDocument"]["uri"] == file_uri(root.dir + "/v.txt"));
  CHECK(dc[2]["textDocument"]["version"].is_null());
  CHECK(dc[2]["edits"][0]["newText"] == "2");
}
