// Every input text the test data holds (golden cases of all suites, examples/), so that
// property tests (chunk invariance, fixes) run over all of them without a list to maintain.
#pragma once

#include <string>
#include <vector>

namespace blockls::test {

struct NamedInput {
  std::string name; // "file.json#case-name" or the example's path
  std::string text;
};

// Inputs of every `{"cases":[{"name":..., "input":...}]}` JSON file under tests/data, plus
// every file under examples/.
const std::vector<NamedInput>& all_inputs();

std::string read_file(const std::string& path);

} // namespace blockls::test
