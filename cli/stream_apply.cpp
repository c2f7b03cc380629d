// `blockls stream --apply` (see stream_apply.h).
#include "cli/stream_apply.h"

#include "apply/path_policy.h"
#include "apply/plan.h"
#include "apply/run.h"
#include "cli/feedback_report.h"
#include "cli/text_report.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/json_text.h"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

namespace blockls::cli {
namespace {

using namespace blockls::apply;

std::string relative(const ApplyConfig& config, const std::string& path) {
  if (path == config.root) return ".";
  if (path.compare(0, config.root.size() + 1, config.root + "/") == 0)
    return path.substr(config.root.size() + 1);
  return path;
}

// The paths a block's actions change (or would), relative to the root, each once, in order.
nlohmann::json changed_paths(const ApplyConfig& config, const ActionOutcomes& actions) {
  std::vector<std::string> paths;
  for (const ActionOutcome& o : actions)
    for (const FileEffect& e : *o.effects) {
      if (e.kind == FileEffect::Kind::exec) continue;
      for (const std::string* p : {&e.path, &e.new_path})
        if (!p->empty()) {
          std::string rel = relative(config, *p);
          if (std::find(paths.begin(), paths.end(), rel) == paths.end())
            paths.push_back(std::move(rel));
        }
    }
  return paths;
}

// The line of the block's first failing action (0-based), else the block's start line.
uint32_t failed_line(const BlockOutcome& o) {
  for (const ActionOutcome& a : o.actions)
    if (!a.success && a.action) return a.action->line;
  return o.line;
}

// What the failed command wrote, for the model: the last lines of its stderr and of its stdout
// (empty when it wrote nothing, or the failure was not a command's).
std::string failed_output(const BlockOutcome& o) {
  constexpr size_t kMaxBytes = 1500, kMaxLines = 15;
  for (const ActionOutcome& a : o.actions) {
    if (a.success) continue;
    const nlohmann::json& data = *a.data;
    std::string out;
    if (!data.is_object()) return out;
    for (const char* key : {"stderr", "stdout"}) {
      const auto it = data.find(key);
      if (it == data.end() || !it->is_string()) continue;
      std::string_view v = it->get_ref<const std::string&>();
      while (!v.empty() && (v.back() == '\n' || v.back() == '\r'))
        v.remove_suffix(1);
      if (v.empty()) continue;
      // The tail: at most kMaxLines lines, kMaxBytes bytes, cut at a line start when it can be.
      size_t from = v.size() > kMaxBytes ? v.size() - kMaxBytes : 0;
      size_t lines = 0;
      for (size_t i = v.size(); i-- > from;)
        if (v[i] == '\n' && ++lines == kMaxLines) {
          from = i + 1;
          break;
        }
      if (from > 0 && v[from - 1] != '\n') {
        const size_t nl = v.find('\n', from);
        from = nl != std::string_view::npos ? nl + 1 : from;
        while (from < v.size() && (static_cast<unsigned char>(v[from]) & 0xC0) == 0x80)
          ++from; // not inside a UTF-8 sequence
      }
      out += fmt::format("{}{}:\n{}\n", from > 0 ? "the end of its " : "its ", key, v.substr(from));
    }
    return out;
  }
  return "";
}

nlohmann::json results_json(const ActionOutcomes& actions) {
  nlohmann::json results = nlohmann::json::array();
  for (const ActionOutcome& o : actions)
    results.push_back(result_json(o));
  return results;
}

} // namespace

StreamApplier::StreamApplier(const ApplyRequest& request, const ActionCatalog* catalog)
    : request_(request), catalog_(catalog) {}

bool StreamApplier::start(std::ostream& err) {
  if (!make_apply_config(request_, &config_, err, "stream")) return false;
  disk_.set_max_file_bytes(config_.max_file_bytes);
  if (std::string error; !open_roots(config_, &roots_, &error)) {
    err << "blockls stream: " << printable(error) << '\n';
    return false;
  }
  for (const std::string& planted : planted_journals(config_.root))
    err << "blockls stream: note: " << printable(planted)
        << " is inside the workspace; blockls never trusts a journal found there and ignored "
           "it\n";
  if (request_.dry_run) {
    for (const std::string& journal : pending_journals(config_.root))
      err << "blockls stream: note: " << journal
          << " is the journal of an interrupted run; the next apply (or --recover) rolls it "
             "back, keeping (and reporting) any file changed since the block wrote it\n";
    return true;
  }
  std::vector<std::string> recovered;
  std::string error;
  if (!prepare_state(state_, config_, &recovered, &error)) {
    err << "blockls stream: " << printable(error) << '\n';
    return false;
  }
  for (const std::string& m : recovered)
    err << "blockls stream: " << m << '\n';
  return true;
}

nlohmann::json StreamApplier::apply_block(std::string_view text, const CheckedDocument& checked,
                                          size_t block) {
  const ActionCatalog& catalog = catalog_ ? *catalog_ : ActionCatalog::builtin();
  // The plan of this block alone, its actions numbered after those of the blocks before it
  // (each block comes here once, in order): as in the whole transcript's plan.
  const Plan plan = build_plan(text, checked, catalog, {block, block + 1, planned_actions_});
  planned_actions_ += plan.actions.size();
  RunInput input{{text, &checked, &plan, &config_}};
  input.dry_run = request_.dry_run;
  // The workspace diagnostics of the block's simulation: a failed block's feedback.
  std::vector<Diagnostic> found;
  input.diagnostics = &found;
  if (request_.dry_run) {
    input.source = &dry_state_;
    input.simulated = &dry_state_;
  }
  const BlockOutcome o =
      run_blocks(input, {BlockRequest{static_cast<int>(block), nullptr}}, &state_).front();

  const Block& b = checked.parsed.blocks[block];
  nlohmann::json event = {
      {"block_number", ++blocks_seen_},
      {"block_id", b.id.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.id)},
      {"dialect", dialect_name(b.dialect)},
      {"line", o.line + 1}};
  if (request_.dry_run) event["dry_run"] = true;
  switch (o.status) {
  case BlockStatus::applied:
    event["event"] = "applied";
    event["files"] = changed_paths(config_, o.actions);
    event["results"] = results_json(o.actions);
    if (request_.dry_run) {
      std::string diff;
      for (const ActionOutcome& a : o.actions)
        diff += effects_diff(config_, *a.effects);
      event["diff"] = std::move(diff);
    }
    break;
  case BlockStatus::failed: {
    event["event"] = "skipped";
    event["reason"] = "failed";
    event["code"] = o.code;
    event["message"] = o.error;
    event["results"] = results_json(o.actions);
    if (!o.changed_files.empty()) {
      nlohmann::json changed = nlohmann::json::array();
      for (const std::string& p : o.changed_files)
        changed.push_back(relative(config_, p));
      event["changed_files"] = std::move(changed);
    }
    if (o.exec_ran) event["exec_ran"] = true;
    // What to tell the model: its block_end was valid and carries no feedback.
    CheckOptions recheck; // a correction is re-checked with the stream's catalog
    recheck.catalog = catalog_;
    const std::string output = failed_output(o);
    event["feedback"] = failed_block_feedback(
        text, checked, block, blocks_seen_,
        {&found, o.code, o.error, failed_line(o), o.exec_ran, output}, recheck);
    any_failed_ = true;
    if (o.code == "IO_ERROR" && !request_.dry_run) io_error_ = true;
    break;
  }
  case BlockStatus::skipped:
    event["event"] = "skipped";
    event["reason"] = "invalid";
    event["code"] = o.code;
    event["message"] = o.error;
    break;
  case BlockStatus::not_run:
    event["event"] = "skipped";
    event["reason"] = "not_run";
    event["message"] = o.error;
    break;
  case BlockStatus::no_actions:
    event["event"] = "skipped";
    event["reason"] = "no_actions";
    event["message"] = "the block asks for no action";
    break;
  }
  return event;
}

} // namespace blockls::cli
