// TELT's value encoding for fixes (see TeltDialect::encode_value).
#include "grammar/telt/telt_dialect.h"

namespace blockls {

std::optional<std::string> TeltDialect::encode_value(std::string_view, const Block&,
                                                     const Parameter& p, std::string_view value) {
  if (!p.value_is_slice) return std::nullopt;
  // The new value must not contain a line the TELT parser would read as syntax.
  for (size_t pos = 0; pos <= value.size();) {
    const size_t nl = value.find('\n', pos);
    const std::string_view line =
        value.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if ((line.starts_with("--") && line.ends_with("--")) || line.starts_with("===") ||
        line.starts_with("#!telt"))
      return std::nullopt;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return std::string(value);
}

} // namespace blockls
