// Runs the engine for the language server: the same check_with_verified_fixes, build_plan and
// simulation the CLI uses, with the settings of the session.
#include "lsp/analysis.h"

#include "diagnostics/schema_file.h"
#include "fixits/verify_fixes.h"

#include <algorithm>

namespace blockls::lsp {

std::vector<std::string> effective_deny_globs(const Settings& settings) {
  std::vector<std::string> globs = apply::ApplyConfig{}.deny_globs;
  for (const std::string& glob : settings.deny_patterns)
    if (std::find(globs.begin(), globs.end(), glob) == globs.end()) globs.push_back(glob);
  return globs;
}

std::shared_ptr<const AnalysisContext>
make_context(const Settings& settings, const std::vector<std::string>& workspace_roots) {
  auto context = std::make_shared<AnalysisContext>();
  context->settings = settings;
  std::string error;
  std::shared_ptr<ActionCatalog> catalog = load_action_catalog(settings.schema_file, &error);
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
      config.deny_globs = effective_deny_globs(settings);
      context->apply_config = std::move(config);
    } else if (!apply::add_allowed_root(&*context->apply_config, root, &error)) {
      context->problems.push_back("allowedRoots: " + error);
    }
  }
  return context;
}

int Analysis::block_at_line(uint32_t line) const {
  const auto& blocks = checked_->parsed.blocks;
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
  return b >= 0 && static_cast<size_t>(b) < block_error_counts.size() ? block_error_counts[b] : 0;
}

// (Plans are made non-const, so that spare_storage may take their actions.)
const apply::Plan& Analysis::plan() const {
  std::call_once(plan_once_, [this] {
    plan_ =
        too_large
            ? std::make_shared<apply::Plan>()
            : std::make_shared<apply::Plan>(apply::build_plan(*text, *checked_, *context->catalog));
  });
  return *plan_;
}

const apply::BlockSimulation* Analysis::block_simulation(int b) const {
  if (!simulation) return nullptr;
  // In the order of the plan's blocks, which is ascending (lenses and outlines ask for every
  // block: a scan each was quadratic in the number of blocks).
  const auto& blocks = simulation->blocks;
  const auto it =
      std::lower_bound(blocks.begin(), blocks.end(), b,
                       [](const apply::BlockSimulation& s, int block) { return s.block < block; });
  return it != blocks.end() && it->block == b ? &*it : nullptr;
}

std::shared_ptr<const Analysis>
analyze(std::shared_ptr<const std::string> text, int64_t version, uint64_t generation,
        std::shared_ptr<const AnalysisContext> context, std::shared_ptr<CachedDiskSource> files,
        std::shared_ptr<const Analysis> base, const TextOrigin& origin, SpareStorage* spare) {
  const auto started = std::chrono::steady_clock::now();
  auto a = std::make_shared<Analysis>();
  // A base this one can be checked from: where the texts differ is found once (a scan of both
  // from each end) for the re-check and the simulation. When they do not differ (files changed
  // on disk, not the document), the base's check and plan are this one's, shared instead of
  // computed again, and so is its text (the plan's values are views of the text it was built
  // from).
  const bool from_base = base && base->context == context && !base->too_large && base->text &&
                         text->size() <= context->settings.max_document_bytes;
  std::optional<TextChange> change;
  if (from_base) {
    if (base->text == text)
      change = TextChange{text->size(), text->size(), text->size()};
    else if (origin.from_id != 0 && origin.from_id == base->text_id)
      change = complete_change(*base->text, *text, origin.change); // the editor's edit
    else
      change = find_change(*base->text, *text);
  }
  const bool same_text =
      change && base->text->size() == text->size() && change->begin == text->size();
  a->text = same_text ? base->text : std::move(text);
  a->context = std::move(context);
  a->version = version;
  a->generation = generation;
  a->text_id = same_text ? base->text_id : origin.id;
  const std::string_view source = *a->text;
  // The re-check's re-parsed window, when it re-checked only a window: the simulation then
  // knows which blocks are the base's, moved.
  std::optional<ReparseWindow> window;
  if (source.size() > a->context->settings.max_document_bytes) {
    a->too_large = true;
    auto checked = std::make_shared<CheckedDocument>();
    checked->parsed.lines = LineIndex(source);
    a->checked_ = std::move(checked);
  } else {
    CheckOptions options;
    options.parse.dialects = a->context->settings.dialects;
    options.catalog = a->context->catalog.get();
    options.keep_parser_diagnostics = true; // the next edit re-checks this one incrementally
    if (same_text) {
      a->checked_ = base->checked_;
      a->incremental = true;
    } else if (from_base) {
      ReparseWindow reparsed;
      a->checked_ = std::make_shared<const CheckedDocument>(recheck_with_verified_fixes(
          *base->text, *base->checked_, source, options, &a->incremental, &*change, &reparsed));
      if (a->incremental) window = reparsed;
    } else {
      a->checked_ =
          std::make_shared<const CheckedDocument>(check_with_verified_fixes(source, options));
    }
    const CheckedDocument& checked = *a->checked_;
    a->diagnostics = checked.diagnostics;
    if (a->context->apply_config) {
      // The workspace diagnostics are published: the plan and its simulation are needed now.
      // Built here (on the worker, before anyone else sees `a`), so plan() returns it as is.
      std::call_once(a->plan_once_, [&] {
        a->plan_ = same_text ? base->plan_ptr()
                             : std::make_shared<apply::Plan>(
                                   apply::build_plan(source, checked, *a->context->catalog, {},
                                                     spare ? &spare->actions : nullptr));
      });
      const apply::Plan& plan = *a->plan_;
      if (!plan.actions.empty()) {
        apply::SimulationInput input{source, &checked, &plan, &*a->context->apply_config};
        apply::DiskSource disk;
        apply::SimulationOptions options;
        options.paths = a->context->paths.get();
        options.spare = spare ? &spare->blocks : nullptr;
        a->path_epoch = options.paths->epoch();
        // The files that changed since the base read them: its blocks that observed none of
        // them are taken over without reading their files again.
        std::optional<std::vector<std::string>> changed;
        if (files) a->files_generation = files->refresh();
        // The base's blocks are reusable when it resolved paths with the same answers.
        apply::SimulationBase previous;
        if (base && base->context == a->context && base->simulation &&
            base->path_epoch == a->path_epoch) {
          if (files && base->files_generation != 0)
            changed = files->changed_since(base->files_generation);
          previous = {*base->text,
                      &base->checked(),
                      &base->plan(),
                      &*base->simulation,
                      changed ? &*changed : nullptr,
                      change ? &*change : nullptr,
                      window ? &*window : nullptr};
          options.base = &previous;
        }
        const apply::FileSource& read_from =
            files ? static_cast<const apply::FileSource&>(*files) : disk;
        a->simulation = apply::simulate_plan(input, read_from, options);
        // A simulation without a base read every path afresh, and the cache has nothing yet to
        // vouch for the missing ones: the next refresh would look at each of them (at 10 MB,
        // 65,000 lstat calls, two thirds of the first keystroke after the open). Done now,
        // while the document opens, so that refresh finds each one's anchor; this analysis
        // keeps the generation it read at, so a change seen here still counts for it.
        if (files && !options.base) files->refresh();
        if (!a->simulation->diagnostics.empty()) {
          a->diagnostics.insert(a->diagnostics.end(), a->simulation->diagnostics.begin(),
                                a->simulation->diagnostics.end());
          sort_by_position(a->diagnostics);
        }
      }
    }
  }
  // Counted once: lenses, symbols and execute ask for every block.
  a->block_error_counts.assign(a->checked_->parsed.blocks.size(), 0);
  for (const Diagnostic& d : a->diagnostics)
    if (d.block >= 0 && static_cast<size_t>(d.block) < a->block_error_counts.size() &&
        is_error(d.severity))
      ++a->block_error_counts[static_cast<size_t>(d.block)];
  a->elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  return a;
}

SpareStorage spare_storage(std::shared_ptr<const Analysis> analysis) {
  SpareStorage spare;
  // The last reference: no other thread can reach the analysis (made non-const by analyze).
  if (!analysis || analysis.use_count() != 1) return spare;
  Analysis& a = const_cast<Analysis&>(*analysis);
  if (a.simulation) spare.blocks = std::move(a.simulation->blocks);
  // The plan too when no analysis of the same text shares it (made non-const by plan()).
  if (a.plan_ && a.plan_.use_count() == 1)
    spare.actions = std::move(const_cast<apply::Plan&>(*a.plan_).actions);
  return spare;
}

std::shared_ptr<const Analysis> failed_analysis(std::shared_ptr<const std::string> text,
                                                int64_t version, uint64_t generation,
                                                std::shared_ptr<const AnalysisContext> context,
                                                std::string why) {
  auto a = std::make_shared<Analysis>();
  a->version = version;
  a->generation = generation;
  a->context = std::move(context);
  a->too_large = true;
  a->failure = std::move(why);
  auto checked = std::make_shared<CheckedDocument>();
  checked->parsed.lines = LineIndex(*text);
  a->checked_ = std::move(checked);
  a->text = std::move(text);
  return a;
}

} // namespace blockls::lsp
