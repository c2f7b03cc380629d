// Loading the action catalog: the built-in JSON (compiled in) and user schemas in clada's
// unified-design.yaml format. Library exceptions stop here and become error strings.
#include "diagnostics/action_catalog.h"

#include "grammar/bytes.h"
#include "grammar/dialects.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace blockls {
namespace embedded {
extern const std::string_view action_catalog_json;
}

namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<ParamType> param_type(std::string_view name) {
  if (name == "string") return ParamType::string;
  if (name == "integer") return ParamType::integer;
  if (name == "boolean") return ParamType::boolean;
  if (name == "enum") return ParamType::enumeration;
  return std::nullopt;
}

// clada marks optional fields of `returns` as `error?: string` inside flow maps, which
// js-yaml reads but yaml-cpp rejects. Those fields are never used here, so `name?:` becomes
// `name:` before parsing.
std::string without_optional_key_marks(std::string_view yaml) {
  std::string out;
  out.reserve(yaml.size());
  for (size_t i = 0; i < yaml.size(); ++i) {
    const bool word_before =
        i > 0 && (std::isalnum(static_cast<unsigned char>(yaml[i - 1])) || yaml[i - 1] == '_');
    if (yaml[i] == '?' && word_before && i + 1 < yaml.size() && yaml[i + 1] == ':') continue;
    out.push_back(yaml[i]);
  }
  return out;
}

} // namespace

const ParamSpec* ActionSpec::find_param(std::string_view nesl_key) const {
  for (const ParamSpec& p : params)
    if (same_bytes(p.name, nesl_key)) return &p;
  return nullptr;
}

const ParamSpec* ActionSpec::find_telt_param(std::string_view telt_name) const {
  for (const ParamSpec& p : params)
    for (const std::string& n : p.telt_names)
      if (same_bytes(n, telt_name)) return &p;
  return nullptr;
}

const ActionCatalog& ActionCatalog::builtin() {
  static const ActionCatalog catalog = [] {
    std::string error;
    std::optional<ActionCatalog> c = from_json(embedded::action_catalog_json, &error);
    return c ? std::move(*c) : ActionCatalog{};
  }();
  return catalog;
}

std::optional<ActionCatalog> ActionCatalog::from_json(std::string_view json, std::string* error) {
  try {
    const nlohmann::json doc = nlohmann::json::parse(json);
    ActionCatalog catalog;
    for (const auto& a : doc.at("actions")) {
      ActionSpec spec;
      spec.name = a.at("name").get<std::string>();
      spec.description = a.value("description", "");
      spec.nesl_names = a.value("nesl_names", std::vector<std::string>{spec.name});
      spec.telt_names = a.value("telt_names", std::vector<std::string>{upper(spec.name)});
      for (const auto& p : a.at("params")) {
        ParamSpec param;
        param.name = p.at("name").get<std::string>();
        const auto type = param_type(p.value("type", "string"));
        if (!type) {
          *error = "action '" + spec.name + "', parameter '" + param.name + "': unknown type '" +
                   p.value("type", "") + "'";
          return std::nullopt;
        }
        param.type = *type;
        param.required = p.value("required", false);
        param.is_path = p.value("path", false);
        param.multiline_paths = p.value("multiline_paths", false);
        param.absolute_path = p.value("absolute_path", false);
        param.values = p.value("values", std::vector<std::string>{});
        param.telt_names = p.value("telt_names", std::vector<std::string>{upper(param.name)});
        spec.params.push_back(std::move(param));
      }
      catalog.actions_.push_back(std::move(spec));
    }
    catalog.reindex();
    return catalog;
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("invalid action catalog JSON: ") + e.what();
    return std::nullopt;
  }
}

// clada's schema: `tools: {name: {description, parameters: {p: {type, required, format,
// values}}}}`. A tool replaces the catalog action whose canonical or NESL name it carries;
// otherwise it is added, with its own name for NESL and its upper-case form for TELT.
bool ActionCatalog::merge_schema_yaml(std::string_view yaml, std::string* error) {
  try {
    const YAML::Node root = YAML::Load(without_optional_key_marks(yaml));
    const YAML::Node tools = root["tools"];
    if (!tools || !tools.IsMap()) {
      *error = "schema has no 'tools' map (expected clada's unified-design.yaml format)";
      reindex(); // earlier tools may have been merged already
      return false;
    }
    for (const auto& entry : tools) {
      const std::string name = entry.first.as<std::string>();
      const YAML::Node tool = entry.second;
      if (!tool.IsMap()) continue;
      ActionSpec spec;
      spec.name = name;
      spec.description = tool["description"] ? tool["description"].as<std::string>() : "";
      if (const YAML::Node params = tool["parameters"]; params && params.IsMap()) {
        for (const auto& pe : params) {
          ParamSpec param;
          param.name = pe.first.as<std::string>();
          const YAML::Node p = pe.second;
          const std::string type = p["type"] ? p["type"].as<std::string>() : "string";
          const auto parsed = param_type(type);
          if (!parsed) {
            *error =
                "tool '" + name + "', parameter '" + param.name + "': unknown type '" + type + "'";
            reindex(); // earlier tools may have been merged already
            return false;
          }
          param.type = *parsed;
          param.required = p["required"] && p["required"].as<bool>();
          const std::string format = p["format"] ? p["format"].as<std::string>() : "";
          param.absolute_path = format == "absolute_path";
          param.multiline_paths = format == "multiline_absolute_paths";
          param.is_path = param.absolute_path || param.multiline_paths || param.name == "path" ||
                          param.name.ends_with("_path") || param.name == "cwd";
          if (p["values"] && p["values"].IsSequence())
            for (const auto& v : p["values"])
              param.values.push_back(v.as<std::string>());
          param.telt_names = {upper(param.name)};
          if (param.name == "path") param.telt_names.push_back("FILE");
          spec.params.push_back(std::move(param));
        }
      }
      auto existing = std::find_if(actions_.begin(), actions_.end(), [&](const ActionSpec& a) {
        return a.name == name ||
               std::find(a.nesl_names.begin(), a.nesl_names.end(), name) != a.nesl_names.end();
      });
      if (existing != actions_.end()) {
        existing->params = std::move(spec.params);
        if (!spec.description.empty()) existing->description = spec.description;
      } else {
        spec.nesl_names = {name};
        spec.telt_names = {upper(name)};
        actions_.push_back(std::move(spec));
      }
    }
    reindex();
    return true;
  } catch (const YAML::Exception& e) {
    *error = std::string("invalid schema YAML: ") + e.what();
    reindex(); // earlier tools may have been merged already
    return false;
  }
}

void ActionCatalog::reindex() {
  nesl_index_.clear();
  telt_index_.clear();
  required_masks_.assign(actions_.size(), 0);
  all_nesl_names_.clear();
  all_telt_names_.clear();
  for (size_t i = 0; i < actions_.size(); ++i) {
    for (const std::string& n : actions_[i].nesl_names) {
      if (!nesl_index_.find(n)) all_nesl_names_.push_back(n);
      nesl_index_.emplace(n, i);
    }
    for (const std::string& n : actions_[i].telt_names) {
      if (!telt_index_.find(n)) all_telt_names_.push_back(n);
      telt_index_.emplace(n, i);
    }
    const std::vector<ParamSpec>& params = actions_[i].params;
    for (size_t p = 0; p < params.size() && p < 64; ++p)
      if (params[p].required) required_masks_[i] |= uint64_t{1} << p;
  }
}

const ActionSpec* ActionCatalog::find_nesl(std::string_view name) const {
  const size_t* index = nesl_index_.find(name);
  return index ? &actions_[*index] : nullptr;
}

const ActionSpec* ActionCatalog::find_telt(std::string_view name) const {
  const size_t* index = telt_index_.find(name);
  return index ? &actions_[*index] : nullptr;
}

namespace {
bool upper_names(Dialect dialect) {
  return dialect != Dialect::none && dialect_info(dialect).catalog.names == CatalogNames::upper;
}
} // namespace

const ActionSpec* ActionCatalog::find(Dialect dialect, std::string_view name) const {
  return upper_names(dialect) ? find_telt(name) : find_nesl(name);
}

const std::vector<std::string>& ActionCatalog::all_names(Dialect dialect) const {
  return upper_names(dialect) ? all_telt_names_ : all_nesl_names_;
}

const ParamSpec* ActionSpec::find_param(Dialect dialect, std::string_view name) const {
  return upper_names(dialect) ? find_telt_param(name) : find_param(name);
}

std::string_view ActionSpec::display_name(const ParamSpec& p, Dialect dialect) {
  return upper_names(dialect) ? std::string_view(p.telt_names.front()) : std::string_view(p.name);
}

// The length and the first and last (up to) eight bytes, mixed: enough to tell catalog names
// apart, at a fixed cost whatever the name's length.
uint64_t ActionCatalog::NameIndex::hash(std::string_view name) {
  uint64_t head = 0, tail = 0;
  const size_t n = name.size();
  if (n >= 8) { // most action names: two fixed-size loads (they overlap below 16 bytes)
    std::memcpy(&head, name.data(), 8);
    std::memcpy(&tail, name.data() + n - 8, 8);
  } else if (n > 0) {
    std::memcpy(&head, name.data(), n);
  }
  uint64_t h = (head ^ (tail * 0x9E3779B97F4A7C15ull) ^ n) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 29);
}

void ActionCatalog::NameIndex::clear() {
  slots_.clear();
  size_ = 0;
}

void ActionCatalog::NameIndex::insert(Slot slot) {
  const size_t mask = slots_.size() - 1;
  size_t i = static_cast<size_t>(slot.hash) & mask;
  while (slots_[i].used)
    i = (i + 1) & mask;
  slots_[i] = std::move(slot);
  ++size_;
}

void ActionCatalog::NameIndex::emplace(const std::string& name, size_t action) {
  if (find(name)) return;
  if ((size_ + 1) * 2 > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.clear();
    slots_.resize(old.empty() ? 16 : old.size() * 2);
    size_ = 0;
    for (Slot& s : old)
      if (s.used) insert(std::move(s));
  }
  insert(Slot{true, hash(name), action, name});
}

const size_t* ActionCatalog::NameIndex::find(std::string_view name) const {
  if (slots_.empty()) return nullptr;
  const uint64_t h = hash(name);
  const size_t mask = slots_.size() - 1;
  for (size_t i = static_cast<size_t>(h) & mask; slots_[i].used; i = (i + 1) & mask)
    if (slots_[i].hash == h && same_bytes(slots_[i].name, name)) return &slots_[i].action;
  return nullptr;
}

} // namespace blockls
