// SARIF 2.1.0 output of `blockls check --format sarif`: one run, our codes as rules,
// results with regions (1-based lines, UTF-16 columns) and fixes as artifact changes.
#pragma once

#include "diagnostics/check.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace blockls::cli {

struct SarifFile {
  std::string path;
  std::string_view text;
  const CheckedDocument* checked;
};

nlohmann::json sarif_log(const std::vector<SarifFile>& files, std::string_view version,
                         std::string_view docs_base_url);

} // namespace blockls::cli
