// SARIF 2.1.0 output of `blockls check --format sarif`: one run, our codes as rules,
// results with regions (1-based lines, UTF-16 columns) and fixes as artifact changes.
// Written straight to text through JsonWriter: the log of a large transcript is tens of
// megabytes, and building it as nlohmann objects first cost three times the check (#20).
#pragma once

#include "diagnostics/check.h"
#include "diagnostics/json_writer.h"

#include <string>
#include <string_view>
#include <vector>

namespace blockls::cli {

struct SarifFile {
  std::string path;
  std::string_view text;
  const CheckedDocument* checked;
};

// An input that could not be checked: its path and the message JSON output's `io_error` has.
struct SarifIoError {
  std::string path;
  std::string message;
};

// Appends the SARIF log of `files` (one run, one artifact per file) to `w`. The keys come in
// sorted order, as a dump of the nlohmann object this replaced wrote them. The run's one
// invocation is unsuccessful when some input could not be checked (`unchecked`), with one
// error notification per such input.
void write_sarif_log(JsonWriter& w, const std::vector<SarifFile>& files, std::string_view version,
                     std::string_view docs_base_url,
                     const std::vector<SarifIoError>& unchecked = {});

} // namespace blockls::cli
