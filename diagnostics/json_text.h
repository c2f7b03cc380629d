// The one way the program turns JSON into text. Document text, paths and exec output may hold
// invalid UTF-8, which nlohmann's plain dump() rejects with an exception (an abort when it is
// not caught); dump_json() writes U+FFFD for each invalid sequence instead, as the text report
// does, so every JSON output (check, SARIF, apply, codes, the language server) is complete.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace blockls {

// `value` as JSON text, indented by `indent` spaces (-1: on one line), with invalid UTF-8 in
// strings replaced by U+FFFD. Never throws on string content.
std::string dump_json(const nlohmann::json& value, int indent = -1);

} // namespace blockls
