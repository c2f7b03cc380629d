// Which registered dialects a parse looks for: one bit per dialect (see grammar/dialects.h).
// Every outward setting that narrows the dialects (`--dialects`, the LSP `dialects` setting)
// goes through parse_dialect_set(), so names and aliases are read in one place.
#pragma once

#include "grammar/model.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class DialectSet {
public:
  // Every registered dialect (the default everywhere).
  static constexpr DialectSet all() {
    DialectSet s;
    s.bits_ = (uint32_t{1} << kDialectCount) - 1;
    return s;
  }
  static constexpr DialectSet none() { return DialectSet(); }

  constexpr bool contains(Dialect d) const {
    return d != Dialect::none && (bits_ >> static_cast<unsigned>(d) & 1u) != 0;
  }
  constexpr void insert(Dialect d) {
    if (d != Dialect::none) bits_ |= uint32_t{1} << static_cast<unsigned>(d);
  }
  constexpr void erase(Dialect d) {
    if (d != Dialect::none) bits_ &= ~(uint32_t{1} << static_cast<unsigned>(d));
  }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(const DialectSet&) const = default;

private:
  uint32_t bits_ = 0;
};

// The dialect named `name` (a registered name or alias, exact), or nullopt.
std::optional<Dialect> find_dialect(std::string_view name);

// The set named by a comma-separated list (`telt,nesl`; aliases such as `sham` allowed), or
// nullopt with `*error` naming the first unknown entry and listing the known names.
std::optional<DialectSet> parse_dialect_set(std::string_view list, std::string* error);
// The set of the known names among `names` (the LSP setting is a JSON array: an unknown name
// is reported there, the known ones still count); each unknown one adds its message ("unknown
// dialect 'x' (known: telt, nesl, ...)") to `unknown`.
DialectSet read_dialect_names(std::span<const std::string> names,
                              std::vector<std::string>* unknown);

// The registered dialect names joined by `separator` ("telt, nesl"), for messages and help.
std::string dialect_names(std::string_view separator);

} // namespace blockls
