// file_uri: the one spelling of paths as URIs (SARIF, workspace edits).
#include "diagnostics/file_uri.h"

#include <catch2/catch.hpp>

using blockls::file_uri;

TEST_CASE("file_uri: absolute paths get file://, relative ones stay references", "[uri]") {
  CHECK(file_uri("/work/src/a.py") == "file:///work/src/a.py");
  CHECK(file_uri("src/a.py") == "src/a.py");
  CHECK(file_uri("-._~/x") == "-._~/x");
}

TEST_CASE("file_uri: every other byte is percent-encoded, UTF-8 byte by byte", "[uri]") {
  CHECK(file_uri("/a b/c#d?e%f") == "file:///a%20b/c%23d%3Fe%25f");
  CHECK(file_uri("wörld.txt") == "w%C3%B6rld.txt");
  CHECK(file_uri("C:\\x") == "C%3A%5Cx");
}
