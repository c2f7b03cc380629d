// Runs the engine for the language server: the same check_document, build_plan and
// simulate_plan the CLI uses, with the settings of the session.
#include "lsp/analysis.h"

#include "fixits/verify_fixes.h"

#include <algorithm>
#include <fstream>
#include <iterator>

namespace blockls::lsp {
namespace {

std::unique_ptr<ActionCatalog> load_catalog(const std::string& schema, std::string* error) {
  auto catalog = std::make_unique<ActionCatalog>(ActionCatalog::builtin());
  if (schema.empty()) return catalog;
  std::ifstream in(schema, std::ios::binary);
  if (!in) {
    *error = "cannot open schema file " + schema;
    return nullptr;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (schema.ends_with(".json")) {
    auto parsed = ActionCatalog::from_json(text, error);
    if (!parsed) return nullptr;
    *catalog = std::move(*parsed);
    return catalog;
  }
  if (!catalog->merge_schema_yaml(text, error)) return nullptr;
  return catalog;
}

} // namespace

std::shared_ptr<const AnalysisContext>
make_context(const Settings& settings, const std::vector<std::string>& workspace_roots) {
  auto context = std::make_shared<AnalysisContext>();
  context->settings = settings;
  std::string error;
  std::shared_ptr<ActionCatalog> catalog = load_catalog(settings.schema_file, &error);
  if (!catalog) {
    context->problems.push_back("schemaFile: " + error + "; the built-in catalog is used");
    catalog = std::make_shared<ActionCatalog>(ActionCatalog::builtin());
  }
  context->catalog = catalog;

  const std::vector<std::string>& roots =
      settings.allowed_roots.empty() ? workspace_roots : settings.allowed_roots;
  for (const std::string& root : roots) {
    if (!context->apply_config) {
      apply::ApplyConfig config;
      if (!apply::make_config(root, &config, &error)) {
        context->problems.push_back("allowedRoots: " + error);
        continue;
      }
      config.allow_exec = settings.exec_allowed;
      if (!settings.deny_patterns.empty()) config.deny_globs = settings.deny_patterns;
      context->apply_config = std::move(config);
    } else if (!apply::add_allowed_root(&*context->apply_config, root, &error)) {
      context->problems.push_back("allowedRoots: " + error);
    }
  }
  return context;
}

int Analysis::block_at_line(uint32_t line) const {
  const auto& blocks = checked.parsed.blocks;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const Block& block = blocks[b];
    const uint32_t last = block.end_line
                              ? *block.end_line
                              : lines().line_of(block.range.end > 0 ? block.range.end - 1 : 0);
    if (line >= block.start_line && line <= std::max(last, block.start_line))
      return static_cast<int>(b);
  }
  return -1;
}

size_t Analysis::block_errors(int b) const {
  return static_cast<size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [&](const Diagnostic& d) { return d.block == b && is_error(d.severity); }));
}

const apply::BlockSimulation* Analysis::block_simulation(int b) const {
  if (!simulation) return nullptr;
  for (const apply::BlockSimulation& s : simulation->blocks)
    if (s.block == b) return &s;
  return nullptr;
}

std::shared_ptr<const Analysis> analyze(std::shared_ptr<const std::string> text, int64_t version,
                                        uint64_t generation,
                                        std::shared_ptr<const AnalysisContext> context) {
  const auto started = std::chrono::steady_clock::now();
  auto a = std::make_shared<Analysis>();
  a->text = std::move(text);
  a->context = std::move(context);
  a->version = version;
  a->generation = generation;
  const std::string_view source = *a->text;
  if (source.size() > a->context->settings.max_document_bytes) {
    a->too_large = true;
    a->checked.parsed.lines = LineIndex(source);
  } else {
    CheckOptions options;
    options.parse.telt = a->context->settings.telt;
    options.parse.nesl = a->context->settings.nesl;
    options.catalog = a->context->catalog.get();
    a->checked = check_with_verified_fixes(source, options);
    a->plan = apply::build_plan(source, a->checked, *a->context->catalog);
    a->diagnostics = a->checked.diagnostics;
    if (a->context->apply_config && !a->plan.actions.empty()) {
      apply::SimulationInput input{source, &a->checked, &a->plan, &*a->context->apply_config};
      apply::DiskSource disk;
      a->simulation = apply::simulate_plan(input, disk);
      if (!a->simulation->diagnostics.empty()) {
        a->diagnostics.insert(a->diagnostics.end(), a->simulation->diagnostics.begin(),
                              a->simulation->diagnostics.end());
        std::stable_sort(a->diagnostics.begin(), a->diagnostics.end(),
                         [](const Diagnostic& x, const Diagnostic& y) {
                           if (x.line != y.line) return x.line < y.line;
                           return x.range.begin < y.range.begin;
                         });
      }
    }
  }
  a->elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  return a;
}

} // namespace blockls::lsp
