// `blockls check` and `blockls fix`: the engine run over files, rendered for people and tools.
#pragma once

#include "cli/input.h"
#include "grammar/dialect_set.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace blockls {
class ActionCatalog;
}

namespace blockls::cli {

struct CheckRequest {
  std::vector<std::string> files;
  std::string format = "text"; // text | json | sarif
  std::string color = "auto";  // auto | always | never
  std::string docs_url;
  DialectSet dialects = DialectSet::all();
  const ActionCatalog* catalog = nullptr;
  InputLimits limits;
  // --root: also check the actions against the files under it (read-only).
  std::string root;
  bool allow_exec = false;
  std::vector<std::string> deny, allow_roots;
  std::optional<uint64_t> max_file_size; // --max-file-size, with --root
  // -j: files checked at once (0: one per core). The output is the same for every value.
  unsigned jobs = 0;
  // Text and JSON: an input of at least `parts_from_bytes` is checked and written in parts of
  // about `part_bytes` (cli/parted_report.h), so that its check holds one part's model at a
  // time, not the whole document's; the output is the same. Not with --root (the workspace
  // simulation reads the whole check). `report_parts`: tell on stderr how many parts each such
  // input took (tests; BLOCKLS_CHECK_PART_BYTES sets all three, see app.cpp).
  size_t parts_from_bytes = size_t{4} << 20;
  size_t part_bytes = size_t{512} << 10;
  bool report_parts = false;
  // The process ends when run_check returns (the blockls executable): the checked documents
  // are then left for the exit to reclaim instead of being freed one list at a time.
  bool process_exits_after = false;
};

int run_check(const CheckRequest& request, std::ostream& out, std::ostream& err);

struct FixRequest {
  std::vector<std::string> files;
  bool diff = false;
  bool in_place = false;
  DialectSet dialects = DialectSet::all();
  const ActionCatalog* catalog = nullptr;
  InputLimits limits;
  unsigned jobs = 0; // files fixed at once (0: one per core); the output does not depend on it
};

int run_fix(const FixRequest& request, std::ostream& out, std::ostream& err);

} // namespace blockls::cli
