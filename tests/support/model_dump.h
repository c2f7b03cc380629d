// A complete, comparable JSON dump of a parse (every block, command, parameter, range,
// diagnostic and fix), for tests that compare two parses for equality.
#pragma once

#include "grammar/model.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace blockls::test {

nlohmann::json dump(std::string_view text, const ParsedDocument& doc);
nlohmann::json dump_diagnostic(const Diagnostic& d);

} // namespace blockls::test
