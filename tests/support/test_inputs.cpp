// Collects test inputs from tests/data/**/*.json and examples/.
#include "support/test_inputs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace blockls::test {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::vector<NamedInput>& all_inputs() {
  static const std::vector<NamedInput> inputs = [] {
    namespace fs = std::filesystem;
    std::vector<NamedInput> out;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(BLOCKLS_TEST_DATA_DIR))
      if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const nlohmann::json doc = nlohmann::json::parse(read_file(f.string()));
      if (!doc.is_object() || !doc.contains("cases")) continue;
      for (const auto& c : doc["cases"])
        if (c.contains("input") && c["input"].is_string())
          out.push_back({f.filename().string() + "#" + c.value("name", "?"), c["input"].get<std::string>()});
    }
    const fs::path examples = fs::path(BLOCKLS_SOURCE_DIR) / "examples";
    if (fs::exists(examples))
      for (const auto& e : fs::recursive_directory_iterator(examples))
        if (e.is_regular_file()) out.push_back({e.path().string(), read_file(e.path().string())});
    return out;
  }();
  return inputs;
}

} // namespace blockls::test
