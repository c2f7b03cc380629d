// See json_text.h.
#include "diagnostics/json_text.h"

namespace blockls {

std::string dump_json(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace blockls
