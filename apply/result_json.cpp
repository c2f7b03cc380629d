// The result objects of actions, in clada's shape (params_json, result_json: apply/simulate.h).
#include "apply/path_policy.h"
#include "apply/simulate.h"

namespace blockls::apply {

nlohmann::json params_json(const PlannedAction& action) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, planned] : action.params) {
    const std::string_view value = planned.text;
    const ParamSpec* ps = action.spec ? action.spec->find_param(name) : nullptr;
    if (ps && ps->type == ParamType::integer) {
      try {
        j[name] = std::stoll(std::string(trim_path(value)));
        continue;
      } catch (const std::exception&) {
      }
    }
    j[name] = value;
  }
  return j;
}

nlohmann::json result_json(const ActionOutcome& o) {
  nlohmann::json j = {{"seq", o.action->seq},
                      {"blockId", o.action->block_id},
                      {"action", o.action->action},
                      {"params", params_json(*o.action)},
                      {"success", o.success}};
  if (!o.success) {
    j["error"] = o.error;
    j["code"] = o.code;
  }
  if (!o.data->is_null()) j["data"] = *o.data;
  return j;
}

} // namespace blockls::apply
