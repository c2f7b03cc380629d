// See option_checks.h. The text is checked before CLI11 converts it, so the conversion only
// ever sees values that fit.
#include "cli/option_checks.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace blockls::cli {

CLI::Validator whole_number(int64_t min, int64_t max) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& input) -> std::string {
        std::string_view digits = input;
        if (digits.starts_with('+')) digits.remove_prefix(1);
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        const bool whole = !digits.empty() && digits[0] != '-' && ec == std::errc() &&
                           end == digits.data() + digits.size();
        if (!whole || value < min || value > max)
          return "'" + input + "' is not a whole number from " + range;
        input = std::to_string(value); // what CLI11 then converts: plain decimal digits
        return {};
      },
      "INT in [" + range + "]");
}

CLI::Validator not_empty(const std::string& what) {
  return CLI::Validator(
      [what](const std::string& value) {
        return value.empty() ? "needs " + what + ", not an empty string" : std::string();
      },
      "");
}

CLI::Validator positive_number(double max) {
  const std::string limit = std::to_string(static_cast<long long>(max));
  return CLI::Validator(
      [max, limit](std::string& input) -> std::string {
        char* end = nullptr;
        const double value = input.empty() ? NAN : std::strtod(input.c_str(), &end);
        const bool number =
            !input.empty() && end == input.c_str() + input.size() && std::isfinite(value);
        if (!number || !(value > 0) || value > max)
          return "'" + input + "' is not a number above 0 and at most " + limit;
        return {};
      },
      "NUMBER in (0 - " + limit + "]");
}

std::string list_options(const std::vector<std::string>& options) {
  std::string text;
  for (size_t i = 0; i < options.size(); ++i) {
    if (i > 0) text += i + 1 == options.size() ? " and " : ", ";
    text += options[i];
  }
  return text;
}

} // namespace blockls::cli
