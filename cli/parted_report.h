// `blockls check` of one large input in parts (fixits/parted_check.h): each part's report is
// written as soon as the part is checked, and its model let go, so the memory of the check
// follows one part, not the whole document (issue #20). The output is byte for byte that of
// the whole check: text and JSON only (SARIF and feedback are written whole).
#pragma once

#include "cli/input.h"
#include "cli/text_report.h"
#include "diagnostics/check.h"
#include "diagnostics/json_report.h"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

namespace blockls::cli {

struct PartedCheck {
  Summary summary; // of the parts checked
  size_t parts = 0;
  // Why the input is no longer the one read (InputFile::changed_since_read), when it changed
  // while it was being checked: the report stops at the part where that was seen (what was
  // written before came from the text as read).
  std::optional<std::string> changed;
};

// print_text_diagnostics of the whole check of `file`, part by part. `pipelined`: the parts
// are parsed on a second thread (check_in_parts), the output is the same.
PartedCheck print_text_in_parts(std::ostream& out, const std::string& shown, const InputFile& file,
                                const CheckOptions& options, size_t part_bytes,
                                const TextStyle& style, bool pipelined = false);

// write_document of the whole check of `file` (the `path` key: `shown`), part by part: the
// blocks of each part as it is checked; its errors meanwhile put aside (in a temporary file),
// and written after the last block.
PartedCheck write_json_in_parts(JsonWriter& w, const std::string& shown, const InputFile& file,
                                const CheckOptions& options, const ActionCatalog& catalog,
                                size_t part_bytes, bool pipelined = false);

} // namespace blockls::cli
