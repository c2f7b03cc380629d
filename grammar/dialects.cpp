// Lookups over the registered dialects: names and aliases, dialect sets, value encoding.
#include "grammar/dialects.h"

#include "grammar/dialect_set.h"

namespace blockls {

std::optional<Dialect> find_dialect(std::string_view name) {
  for (const DialectInfo* info : kDialectInfos) {
    if (info->name == name) return info->id;
    for (std::string_view alias : info->aliases)
      if (alias == name) return info->id;
  }
  return std::nullopt;
}

std::string dialect_names(std::string_view separator) {
  std::string out;
  for (const DialectInfo* info : kDialectInfos) {
    if (!out.empty()) out.append(separator);
    out.append(info->name);
  }
  return out;
}

DialectSet read_dialect_names(std::span<const std::string> names,
                              std::vector<std::string>* unknown) {
  DialectSet set = DialectSet::none();
  for (const std::string& name : names) {
    if (const std::optional<Dialect> d = find_dialect(name))
      set.insert(*d);
    else
      unknown->push_back("unknown dialect '" + name + "' (known: " + dialect_names(", ") + ")");
  }
  return set;
}

std::optional<DialectSet> parse_dialect_set(std::string_view list, std::string* error) {
  // Split as std::getline(ss, item, ',') does: a trailing comma adds no empty entry.
  std::vector<std::string> names;
  size_t pos = 0;
  while (pos < list.size()) {
    const size_t comma = list.find(',', pos);
    const size_t end = comma == std::string_view::npos ? list.size() : comma;
    names.emplace_back(list.substr(pos, end - pos));
    pos = end + 1;
  }
  std::vector<std::string> unknown;
  const DialectSet set = read_dialect_names(names, &unknown);
  if (!unknown.empty()) {
    *error = unknown.front();
    return std::nullopt;
  }
  return set;
}

bool repairs_search(Dialect dialect) {
  if (dialect == Dialect::none) return false;
  return with_grammar_type(dialect, []<typename G>() {
    if constexpr (requires { G::repairs_search; })
      return static_cast<bool>(G::repairs_search);
    else
      return false;
  });
}

std::optional<FileEditWords> file_edit_words(Dialect dialect) {
  if (dialect == Dialect::none) return std::nullopt;
  return with_grammar_type(dialect, []<typename G>() -> std::optional<FileEditWords> {
    if constexpr (requires { G::file_edit_words; })
      return FileEditWords{G::file_edit_words};
    else
      return std::nullopt;
  });
}

std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                        const Parameter& p, std::string_view value) {
  if (block.dialect == Dialect::none) return std::nullopt;
  return with_grammar_type(block.dialect, [&]<typename G>() -> std::optional<std::string> {
    return G::encode_value(text, block, p, value);
  });
}

} // namespace blockls
