// One spelling of a file path as a URI, for every outward format that names files (SARIF's
// artifact locations, the language server's workspace edits).
#pragma once

#include <string>
#include <string_view>

namespace blockls {

// `file://` + the absolute path, or, for a relative path, a relative URI reference; every byte
// but ASCII letters, digits and `-._~/` percent-encoded (UTF-8 bytes one by one, as RFC 3986
// asks).
std::string file_uri(std::string_view path);

} // namespace blockls
