// The language server's file cache: contents served while a file's lstat key holds, and the
// change record an analysis uses to take over blocks without reading their files again. A
// missing path is vouched for by its nearest existing ancestor only while that ancestor is
// unchanged and older than the racy window; every way a file can appear must still be seen.
#include "../apply/apply_test_support.h"
#include "lsp/cached_disk_source.h"

#include <catch2/catch.hpp>
#include <filesystem>

namespace blockls {
namespace {

using Kind = apply::FileState::Kind;

std::vector<std::string> changed(const lsp::CachedDiskSource& files, uint64_t since) {
  const auto c = files.changed_since(since);
  REQUIRE(c.has_value());
  return *c;
}

} // namespace

TEST_CASE("the file cache serves a content until the file changes, and logs the change",
          "[lsp][files]") {
  test::TempRoot root;
  const std::string a = std::filesystem::canonical(root.dir).string() + "/a.txt";
  test::put_file(a, "one");
  lsp::CachedDiskSource files;
  const uint64_t g0 = files.refresh();
  CHECK(files.read(a).content.str() == "one");
  CHECK(files.read(a).content.str() == "one");
  CHECK(files.stats().hits == 1);
  CHECK(changed(files, g0).empty());

  test::put_file(a, "two, longer");
  const uint64_t g1 = files.refresh();
  CHECK(g1 > g0);
  CHECK(changed(files, g0) == std::vector<std::string>{a});
  CHECK(changed(files, g1).empty());
  CHECK(files.read(a).content.str() == "two, longer");

  // Seen by a read before any refresh: still logged, later than every generation handed out.
  std::filesystem::remove(a);
  CHECK(files.read(a).kind == Kind::missing);
  CHECK(changed(files, g1) == std::vector<std::string>{a});

  files.clear();
  CHECK_FALSE(files.changed_since(g1).has_value());
}

TEST_CASE("a missing path is vouched for by its ancestor only while nothing can have appeared",
          "[lsp][files]") {
  test::TempRoot root;
  const std::string top = std::filesystem::canonical(root.dir).string();
  std::filesystem::create_directories(top + "/src");
  const std::string in_src = top + "/src/new.py", deep = top + "/gen/out/x.txt";
  lsp::CachedDiskSource files;
  CHECK(files.read(in_src).kind == Kind::missing);
  CHECK(files.read(deep).kind == Kind::missing);

  SECTION("a fresh directory is not trusted: its paths are examined one by one") {
    const uint64_t g0 = files.refresh(); // anchors recorded, but src's mtime is recent
    test::put_file(in_src, "x");         // within the same clock tick, maybe
    files.refresh();
    CHECK(changed(files, g0) == std::vector<std::string>{in_src});
  }

  SECTION("an old directory vouches for its missing paths until an entry appears in it") {
    test::age(top + "/src");
    test::age(top);
    const uint64_t g0 = files.refresh(); // anchors: src (for in_src) and the root (for deep)
    files.refresh();
    CHECK(files.stats().looked == 0); // nothing examined one by one: the anchors held
    CHECK(changed(files, g0).empty());

    test::put_file(in_src, "x"); // src's mtime moves
    const uint64_t g_src = files.refresh();
    CHECK(changed(files, g0) == std::vector<std::string>{in_src});
    CHECK(files.stats().looked == 1); // src's paths only: the root still vouches for deep

    // A directory created on the way to a missing path moves the nearest ancestor's mtime.
    std::filesystem::create_directories(top + "/gen/out");
    const uint64_t g1 = files.refresh();
    CHECK(changed(files, g_src).empty()); // gen/out/x.txt is still missing
    test::put_file(deep, "y");
    files.refresh();
    CHECK(changed(files, g1) == std::vector<std::string>{deep});
  }

  SECTION("an ancestor replaced by a file of the same times is seen (inode, mode)") {
    test::age(top + "/src");
    const uint64_t g0 = files.refresh();
    std::filesystem::remove_all(top + "/src");
    test::put_file(top + "/src", "now a file");
    test::age(top + "/src");
    files.refresh();
    CHECK(changed(files, g0).empty()); // src/new.py is still missing (ENOTDIR)
    CHECK(files.read(in_src).kind == Kind::missing);
  }
}

} // namespace blockls
