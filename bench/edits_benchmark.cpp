// The workspace-check benchmark of the edit formats: one transcript of 1,000 Aider edits of
// one 50,000-line file, checked against a root that holds the file (what `check --root` and
// the language server with a folder open do on every change: parse, validate, then simulate
// every edit in order against the file). Prints the median time against the target.
// One command: scripts/bench-edits.sh. See bench/README.md.
#include "apply/config.h"
#include "apply/workspace_check.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr size_t kFileLines = 50'000;
constexpr size_t kEdits = 1'000;
constexpr double kTargetMs = 50.0;
constexpr int kRuns = 7;

std::string file_line(size_t i) {
  return "    value_" + std::to_string(i) + " = compute(" + std::to_string(i * 7 % 1000) +
         ", cache)  # step " + std::to_string(i);
}

std::string make_file() {
  std::string out = "def run(cache):\n";
  for (size_t i = 0; i < kFileLines - 1; ++i)
    out += file_line(i) + "\n";
  return out;
}

// Edit k changes line k * 49 (spread over the file, in order), two lines at a time.
std::string make_transcript() {
  std::string out = "# Aider transcript: 1,000 edits of src/big.py\n\n";
  for (size_t k = 0; k < kEdits; ++k) {
    const size_t line = k * (kFileLines / kEdits - 1);
    out += "Step " + std::to_string(k) + ": rename the value.\n\nsrc/big.py\n```python\n";
    out += "<<<<<<< SEARCH\n" + file_line(line) + "\n" + file_line(line + 1) + "\n=======\n";
    out += file_line(line) + "  # checked\n" + file_line(line + 1) + "\n>>>>>>> REPLACE\n```\n\n";
  }
  return out;
}

} // namespace

int main() {
  using namespace blockls;
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("blockls-bench-edits-" + std::to_string(getpid()));
  fs::create_directories(root / "src");
  const std::string file = make_file();
  std::ofstream(root / "src/big.py", std::ios::binary) << file;
  const std::string text = make_transcript();

  apply::ApplyConfig config;
  std::string error;
  if (!apply::make_config(root.string(), &config, &error)) {
    std::fprintf(stderr, "bench-edits: %s\n", error.c_str());
    return 2;
  }
  std::vector<double> ms;
  size_t diagnostics = 0, effects = 0;
  for (int run = 0; run < kRuns + 1; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    CheckedDocument checked = check_document(text);
    apply::DiskSource disk;
    const apply::WorkspaceCheck w =
        apply::check_workspace(text, &checked, config, ActionCatalog::builtin(), disk);
    const auto t1 = std::chrono::steady_clock::now();
    diagnostics = checked.diagnostics.size();
    effects = 0;
    for (const auto& b : w.simulation.blocks)
      for (const auto& a : b.actions)
        effects += a.effects->size();
    if (run > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  fs::remove_all(root);
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  std::printf("==== blockls edits benchmark ====\n");
  std::printf(
      "  %zu Aider edits (%.2f MB transcript) of one %zu-line file (%.2f MB), with a root\n",
      kEdits, static_cast<double>(text.size()) / 1e6, kFileLines,
      static_cast<double>(file.size()) / 1e6);
  std::printf("  %zu diagnostics, %zu file effects (every edit must apply: expect 0 and %zu)\n",
              diagnostics, effects, kEdits);
  std::printf("  check + workspace simulation: median %.1f ms of %d runs (range %.1f-%.1f)\n",
              median, kRuns, ms.front(), ms.back());
  std::printf("  EDITS %.1f ms (target < %.0f ms: %s)\n", median, kTargetMs,
              median < kTargetMs ? "MET" : "NOT MET");
  return diagnostics == 0 && effects == kEdits ? 0 : 1;
}
