// BeneathSource: what apply reads just before it writes, from the roots' descriptors. A link
// on the way (a directory another process swapped for a link to outside the root) reads as
// something else, never as the outside file; otherwise it reads what DiskSource reads.
#include "apply/apply_test_support.h"
#include "apply/beneath_source.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

using namespace blockls::apply;
using namespace blockls::test;

TEST_CASE("BeneathSource reads as DiskSource, but never through a link", "[apply][beneath]") {
  const std::string base = std::filesystem::canonical(make_temp_dir()).string();
  const std::string root = base + "/root", outside = base + "/outside";
  put_file(outside + "/a.txt", "secret\n");
  put_file(root + "/sub/a.txt", "inside\n");
  put_file(root + "/sub/deeper/b.txt", "b\n");
  REQUIRE(::symlink("../outside", (root + "/swapped").c_str()) == 0);
  REQUIRE(::symlink("a.txt", (root + "/sub/link").c_str()) == 0);
  Beneath files;
  std::string error;
  REQUIRE(files.open({root}, &error));
  const BeneathSource beneath(files);
  const DiskSource disk;

  // The same answers where no link is on the way.
  for (const std::string& path : {root + "/sub/a.txt", root + "/sub", root + "/sub/link",
                                  root + "/missing.txt", root + "/sub/missing/x"}) {
    INFO(path);
    const FileState b = beneath.read(path), d = disk.read(path);
    CHECK(static_cast<int>(b.kind) == static_cast<int>(d.kind));
    CHECK(b.content == d.content);
  }
  CHECK(beneath.read(root + "/sub/link").content.str() == "a.txt"); // a link keeps its target
  CHECK(beneath.list_tree(root + "/sub") == disk.list_tree(root + "/sub"));
  CHECK(beneath.list_tree(root) == disk.list_tree(root));

  // Through the link, the path string reaches the outside file; the descriptor walk does not.
  CHECK(disk.read(root + "/swapped/a.txt").content.str() == "secret\n");
  const FileState through = beneath.read(root + "/swapped/a.txt");
  CHECK(through.kind != FileState::Kind::file);
  CHECK(through.content.str().empty());
  CHECK(beneath.list_tree(root + "/swapped").empty());
  // Outside every root: nothing.
  CHECK(beneath.read(outside + "/a.txt").kind == FileState::Kind::missing);
  std::filesystem::remove_all(base);
}
