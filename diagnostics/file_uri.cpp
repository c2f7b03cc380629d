// See file_uri.h.
#include "diagnostics/file_uri.h"

namespace blockls {
namespace {

bool unreserved_or_slash(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~' || c == '/';
}

} // namespace

std::string file_uri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = path.starts_with('/') ? "file://" : "";
  out.reserve(out.size() + path.size());
  for (const unsigned char c : path) {
    if (unreserved_or_slash(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

} // namespace blockls
