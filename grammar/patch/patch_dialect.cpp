// The patch dialect's value encoding (see patch_dialect.h).
#include "grammar/patch/patch_dialect.h"

#include "grammar/line_breaks.h"

namespace blockls {

std::optional<std::string> PatchDialect::encode_value(std::string_view text, const Block& block,
                                                      const Parameter& p, std::string_view value) {
  // Only an added file's content: each line gets its `+` back.
  if (p.name != "content" || (!value.empty() && !value.ends_with('\n'))) return std::nullopt;
  const bool crlf = block_uses_crlf(text, block);
  std::string out;
  out.reserve(value.size() + value.size() / 8);
  for (size_t pos = 0; pos < value.size();) {
    const size_t nl = value.find('\n', pos);
    out += '+';
    out.append(value.substr(pos, nl - pos));
    out += crlf ? "\r\n" : "\n";
    pos = nl + 1;
  }
  return out;
}

} // namespace blockls
