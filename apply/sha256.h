// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits. The journal records it for
// every content a block writes, so that recovery can tell the block's own writes from later
// changes; no library of the project offers a cryptographic hash, hence this small one.
#pragma once

#include <string>
#include <string_view>

namespace blockls::apply {

std::string sha256_hex(std::string_view data);

} // namespace blockls::apply
