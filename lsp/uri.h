// file:// URIs as the client sends them, to paths (the other direction is
// diagnostics/file_uri.h's file_uri).
#pragma once

#include <string>
#include <string_view>

namespace blockls::lsp {

// file:///a%20b -> /a b; "" for other schemes.
std::string path_from_uri(std::string_view uri);

} // namespace blockls::lsp
