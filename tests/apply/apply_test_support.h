// Helpers of the apply tests: temporary roots, a snapshot of a directory tree (to prove that
// nothing outside the root changed, or that a dry run wrote nothing), and rewriting the
// `/tmp/<case>/` paths of the clada/slupe cases into a temporary root.
#pragma once

#include <map>
#include <string>

namespace blockls::test {

// path (relative to `dir`) -> "file:<content>" / "dir:<mode>" / "link:<target>" (+ mode for files).
using TreeSnapshot = std::map<std::string, std::string>;
TreeSnapshot snapshot_tree(const std::string& dir);

// Every "/tmp/<segment>/" becomes "<root>/".
std::string rewrite_tmp_paths(const std::string& text, const std::string& root);

// Creates `path`'s parent directories and writes `text`.
void put_file(const std::string& path, const std::string& text);
std::string get_file(const std::string& path); // "<missing>" when absent

} // namespace blockls::test
