// Settings from the client's JSON, tolerant: a bad field is reported, the others still count.
#include "lsp/settings.h"

#include "grammar/dialects.h"
#include "lsp/uri.h"

namespace blockls::lsp {
namespace {

using json = nlohmann::json;

std::vector<std::string> string_list(const json& value, const std::string& name,
                                     std::vector<std::string>* problems) {
  std::vector<std::string> out;
  if (!value.is_array()) {
    problems->push_back(name + " must be an array of strings");
    return out;
  }
  for (const json& v : value)
    if (v.is_string())
      out.push_back(v.get<std::string>());
    else
      problems->push_back(name + " must be an array of strings");
  return out;
}

} // namespace

void read_settings(const json& raw, Settings* settings, std::vector<std::string>* problems) {
  if (!raw.is_object()) return;
  const json& s = raw.contains("blockls") && raw["blockls"].is_object() ? raw["blockls"] : raw;
  if (auto it = s.find("dialects"); it != s.end()) {
    // Every name is read: an unknown one is reported, the known ones still count.
    std::vector<std::string> unknown;
    settings->dialects = read_dialect_names(string_list(*it, "dialects", problems), &unknown);
    for (const std::string& message : unknown)
      problems->push_back("dialects: " + message);
  }
  if (auto it = s.find("allowedRoots"); it != s.end()) {
    settings->allowed_roots.clear();
    for (const std::string& r : string_list(*it, "allowedRoots", problems)) {
      const std::string path = r.starts_with("file://") ? path_from_uri(r) : r;
      settings->allowed_roots.push_back(path);
    }
  }
  if (auto it = s.find("denyPatterns"); it != s.end())
    settings->deny_patterns = string_list(*it, "denyPatterns", problems);
  if (auto it = s.find("execAllowed"); it != s.end()) {
    if (it->is_boolean())
      settings->exec_allowed = it->get<bool>();
    else
      problems->push_back("execAllowed must be a boolean");
  }
  if (auto it = s.find("schemaFile"); it != s.end()) {
    if (it->is_string())
      settings->schema_file = it->get<std::string>();
    else
      problems->push_back("schemaFile must be a string");
  }
  if (auto it = s.find("maxDocumentBytes"); it != s.end()) {
    if (it->is_number_unsigned())
      settings->max_document_bytes = it->get<size_t>();
    else
      problems->push_back("maxDocumentBytes must be a non-negative integer");
  }
  if (auto it = s.find("docsUrl"); it != s.end()) {
    if (it->is_string())
      settings->docs_url = it->get<std::string>();
    else
      problems->push_back("docsUrl must be a string");
  }
}

json settings_json(const Settings& settings) {
  json out = {{"allowedRoots", settings.allowed_roots},
              {"denyPatterns", settings.deny_patterns},
              {"execAllowed", settings.exec_allowed},
              {"schemaFile", settings.schema_file},
              {"maxDocumentBytes", settings.max_document_bytes},
              {"docsUrl", settings.docs_url}};
  for (const DialectInfo* info : kDialectInfos) // one flag per registered dialect
    out[std::string(info->name)] = settings.dialects.contains(info->id);
  return out;
}

} // namespace blockls::lsp
