// SARIF 2.1.0 output of `blockls check --format sarif`: one run, our codes as rules,
// results with regions (1-based lines, UTF-16 columns) and fixes as artifact changes.
#pragma once

#include "diagnostics/check.h"
#include "diagnostics/json_writer.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace blockls::cli {

struct SarifFile {
  std::string path;
  std::string_view text;
  const CheckedDocument* checked;
};

// The SARIF log written straight to text (a 40 MB transcript's log is tens of megabytes; built
// as nlohmann::json first it took seven times the input in memory and most of the time).
void write_sarif_log(JsonWriter& w, const std::vector<SarifFile>& files, std::string_view version,
                     std::string_view docs_base_url);

// The same log as a JSON value (the fuzzer checks its shape).
nlohmann::json sarif_log(const std::vector<SarifFile>& files, std::string_view version,
                         std::string_view docs_base_url);

} // namespace blockls::cli
