// Runs executeBlock / executeAll on the current analysis: the blocks that would apply, through
// a WorkspaceEdit when the client can apply every operation it needs, else on disk (the
// journalled apply of the CLI). Nothing is changed when the document moved on meanwhile.
#include "apply/journal.h"
#include "apply/run.h"
#include "diagnostics/json_text.h"
#include "lsp/handlers.h"
#include "lsp/workspace_edit.h"

namespace blockls::lsp {
namespace {

// The simulations to apply (each ok), or an error reply sent and an empty list.
std::vector<const apply::BlockSimulation*> blocks_to_apply(Session& s, const json& id,
                                                           const ExecuteBlockArguments& args,
                                                           bool all, const Analysis& a,
                                                           std::vector<int>* targets) {
  const auto& blocks = a.checked().parsed.blocks;
  if (all) {
    for (int b : a.plan().planned_blocks)
      if (a.block_errors(b) == 0) targets->push_back(b);
    if (targets->empty()) {
      s.reply_error(id, kRequestFailed, "No valid block to apply; nothing was changed.");
      return {};
    }
  } else {
    const int b = args.line >= 0 ? a.block_at_line(static_cast<uint32_t>(args.line)) : -1;
    if (b < 0) {
      s.reply_error(id, kRequestFailed,
                    "No block at line " + std::to_string(args.line + 1) + "; nothing was changed.");
      return {};
    }
    if (const size_t errors = a.block_errors(b); errors > 0) {
      std::string first;
      for (const Diagnostic& d : a.diagnostics)
        if (d.block == b && is_error(d.severity)) {
          first = std::string(d.code) + " at line " + std::to_string(d.line + 1) + ": " + d.message;
          break;
        }
      s.reply_error(id, kRequestFailed,
                    "The " + block_label(*a.text, blocks[b]) + " has " +
                        count_noun(errors, "error") + " (first: " + first +
                        "); nothing was changed.");
      return {};
    }
    targets->push_back(b);
  }
  if (!a.simulation || !a.context->apply_config) {
    s.reply_error(
        id, kRequestFailed,
        "No workspace root is known (open a folder or set allowedRoots); nothing was changed.");
    return {};
  }
  std::vector<const apply::BlockSimulation*> sims;
  for (int b : *targets) {
    const apply::BlockSimulation* sim = a.block_simulation(b);
    if (!sim) {
      if (!all) {
        s.reply_error(id, kRequestFailed,
                      "The " + block_label(*a.text, blocks[b]) +
                          " has no action; nothing was changed.");
        return {};
      }
      continue;
    }
    if (sim->ok) sims.push_back(sim);
  }
  if (sims.empty()) s.reply_error(id, kRequestFailed, "Nothing to apply; nothing was changed.");
  return sims;
}

// True when the client can apply every effect of `sims` as a WorkspaceEdit.
bool edit_backend(const ClientCapabilities& client,
                  const std::vector<const apply::BlockSimulation*>& sims) {
  bool needs_create = false, needs_rename = false, needs_delete = false, has_exec = false;
  for (const apply::BlockSimulation* sim : sims)
    for (const apply::ActionOutcome& o : sim->actions)
      for (const apply::FileEffect& e : *o.effects) {
        using K = apply::FileEffect::Kind;
        needs_create |= e.kind == K::write && !e.before;
        needs_rename |= e.kind == K::move;
        needs_delete |= e.kind == K::remove || e.kind == K::remove_dir;
        has_exec |= e.kind == K::exec;
      }
  return client.apply_edit && client.document_changes && !has_exec &&
         (!needs_create || client.resource_operations.count("create")) &&
         (!needs_rename || client.resource_operations.count("rename")) &&
         (!needs_delete || client.resource_operations.count("delete"));
}

// The WorkspaceEdit backend: workspace/applyEdit, answered when the client has applied it.
void apply_by_edit(Session& s, const json& id, const json& token,
                   const std::vector<const apply::BlockSimulation*>& sims, const std::string& label,
                   std::shared_ptr<const Analysis> a) {
  apply::Simulation sub;
  for (const apply::BlockSimulation* sim : sims)
    sub.blocks.push_back(*sim);
  const WorkspaceEditResult r = workspace_edit(apply::file_changes(sub), {s.client.encoding});
  json results = r.results;
  s.request("workspace/applyEdit", ApplyWorkspaceEditParams{label, r.edit},
            [&s, id, token, results, a, label](const json& result, const json* error) {
              if (!s.in_flight.count(id_key(id))) return; // cancelled meanwhile
              ExecuteResult out;
              out.backend = "workspaceEdit";
              out.results = results;
              if (error) {
                out.failure_reason = response_error_message(*error);
              } else {
                // A malformed answer is a failure that says why, never an exception.
                try {
                  const ApplyWorkspaceEditResult answer = result.get<ApplyWorkspaceEditResult>();
                  out.applied = answer.applied;
                  if (!out.applied)
                    out.failure_reason =
                        answer.failure_reason.value_or("the client did not apply the edit");
                } catch (const LspError& e) {
                  s.log(LogLevel::warning, std::string("malformed workspace/applyEdit response: ") +
                                               e.what() + ": " + dump_json(result));
                  out.failure_reason =
                      std::string("malformed workspace/applyEdit response (") + e.what() + ")";
                }
              }
              s.progress(token, {"end", std::nullopt, std::nullopt,
                                 out.applied ? "applied" : "not applied"});
              s.reply(id, out);
              s.files_changed("applied an edit");
            });
}

// The disk backend (Neovim 0.7 and other clients without documentChanges).
void apply_on_disk(Session& s, const json& id, const json& token,
                   const std::vector<const apply::BlockSimulation*>& sims, const Analysis& a) {
  const auto& blocks = a.checked().parsed.blocks;
  apply::StateDir state;
  std::string error;
  std::vector<std::string> recovered;
  if (!apply::prepare_state(state, *a.context->apply_config, &recovered, &error)) {
    s.progress(token, {"end", std::nullopt, std::nullopt, "failed"});
    return s.reply_error(id, kRequestFailed,
                         "Cannot prepare the workspace: " + error + "; nothing was changed.");
  }
  for (const std::string& m : recovered)
    s.log(LogLevel::info, m);
  apply::RunInput input{{*a.text, &a.checked(), &a.plan(), &*a.context->apply_config}};
  std::vector<apply::BlockRequest> requests;
  for (const apply::BlockSimulation* sim : sims)
    requests.push_back({sim->block, sim});
  ExecuteResult out;
  out.backend = "disk";
  out.touched = json::array();
  out.applied = true;
  std::vector<std::string> messages;
  for (const apply::BlockOutcome& run : apply::run_blocks(input, requests, &state)) {
    for (const apply::ActionOutcome& o : run.actions)
      out.results.push_back(apply::result_json(o));
    for (const std::string& t : run.touched)
      out.touched->push_back(t);
    if (run.status == apply::BlockStatus::applied) {
      messages.push_back(block_label(*a.text, blocks[run.block]) + " applied (" +
                         count_noun(run.touched.size(), "path") + " changed)");
    } else {
      out.applied = false;
      messages.push_back(block_label(*a.text, blocks[run.block]) + " NOT applied: " + run.error +
                         " [" + run.code + "]");
    }
  }
  std::string summary;
  for (const std::string& m : messages)
    summary += (summary.empty() ? "" : "; ") + m;
  s.show_message(out.applied ? 3 : 1, "blockls: " + summary + " (on disk)");
  s.progress(token, {"end", std::nullopt, std::nullopt, out.applied ? "applied" : "not applied"});
  if (!out.applied) out.failure_reason = summary;
  s.reply(id, out);
  s.files_changed("applied on disk");
}

} // namespace

void execute_blocks(Session& s, const json& id, const ExecuteBlockArguments& args, bool all,
                    const json& token, std::shared_ptr<const Analysis> a) {
  Doc* doc = s.find_doc(args.uri);
  if (!doc)
    return s.reply_error(id, kRequestFailed, "The document was closed; nothing was changed");
  if (doc->version != args.version || a->version != args.version)
    return s.reply_error(
        id, kRequestFailed,
        "The document changed since version " + std::to_string(args.version) +
            " (it is now at version " + std::to_string(doc->version) +
            "); nothing was changed. Run the command again from the current code lens.");
  if (doc->desynced)
    return s.reply_error(id, kRequestFailed,
                         "The document is out of sync; save it first. Nothing was changed.");
  if (!a->failure.empty())
    return s.reply_error(id, kRequestFailed,
                         "The document could not be checked (" + a->failure +
                             "); nothing was changed.");
  if (a->too_large)
    return s.reply_error(id, kRequestFailed,
                         "The document is too large to be checked; nothing was changed.");
  std::vector<int> targets;
  const std::vector<const apply::BlockSimulation*> sims =
      blocks_to_apply(s, id, args, all, *a, &targets);
  if (sims.empty()) return; // answered

  const auto& blocks = a->checked().parsed.blocks;
  const std::string label =
      all ? "blockls: apply " + count_noun(sims.size(), "block")
          : "blockls: apply " + block_label(*a->text, blocks[targets.front()]);
  s.progress(token, {"begin", label, false, std::nullopt});
  if (edit_backend(s.client, sims)) return apply_by_edit(s, id, token, sims, label, a);
  apply_on_disk(s, id, token, sims, *a);
}

} // namespace blockls::lsp
