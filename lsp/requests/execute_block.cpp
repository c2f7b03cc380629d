// Runs executeBlock / executeAll on the current analysis: the blocks that would apply, through
// a WorkspaceEdit when the client can apply every operation it needs, else on disk (the
// journalled apply of the CLI). Nothing is changed when the document moved on meanwhile, nor
// when a file the blocks read is no longer what the check saw.
#include "apply/file_changes.h"
#include "apply/journal.h"
#include "apply/run.h"
#include "diagnostics/json_text.h"
#include "lsp/handlers.h"
#include "lsp/uri.h"
#include "lsp/workspace_edit.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <sys/stat.h>

namespace blockls::lsp {
namespace {

// A path as messages show it: relative to the root when it is below it.
std::string shown_path(const apply::ApplyConfig& config, const std::string& path) {
  return path.starts_with(config.root + "/") ? path.substr(config.root.size() + 1) : path;
}

// A document open in the server, as the file it is: what an edit of that file applies to in
// the editor (the client's buffer, of which the server has the text and version).
struct OpenFile {
  const Doc* doc = nullptr;
  std::string shown; // the path relative to the root, for messages
};
using OpenFiles = std::map<std::string, OpenFile>;

// The open documents with a file:// URI, by the absolute path the simulation uses for their
// file (symbolic links resolved when the file exists).
OpenFiles open_files(const Session& s, const apply::ApplyConfig& config) {
  OpenFiles out;
  for (const auto& [uri, doc] : s.docs) {
    std::string path = path_from_uri(uri);
    if (path.empty() || path.front() != '/') continue;
    if (char resolved[PATH_MAX]; ::realpath(path.c_str(), resolved)) path = resolved;
    std::string shown = shown_path(config, path);
    out.emplace(std::move(path), OpenFile{&doc, std::move(shown)});
  }
  return out;
}

// The files as an edit sent now would find them: an open document's text as the server has it
// (the editor's buffer, saved or not), every other file as it is on disk now (read again, not
// from the analyses' cache).
class EditorFiles final : public apply::FileSource {
public:
  explicit EditorFiles(const OpenFiles& open) : open_(open) {}
  apply::FileState read(const std::string& path) const override {
    const auto it = open_.find(path);
    if (it == open_.end()) return disk_.read(path);
    struct stat st {};
    const bool exists = ::lstat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) return disk_.read(path);
    auto [cached, added] = contents_.try_emplace(path);
    if (added) cached->second = apply::FileContent(*it->second.doc->text.text);
    apply::FileState state;
    state.kind = apply::FileState::Kind::file;
    state.content = cached->second;
    state.mode = exists ? st.st_mode & 07777 : 0;
    return state;
  }
  std::vector<std::string> list_tree(const std::string& dir) const override {
    return disk_.list_tree(dir);
  }

private:
  const OpenFiles& open_;
  apply::DiskSource disk_;
  mutable std::map<std::string, apply::FileContent> contents_;
};

std::string join(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string out;
  for (const std::string& item : items)
    out += (out.empty() ? "" : separator) + item;
  return out;
}

// The path an observation key names ("tree:DIR" -> DIR).
std::string observed_path(const std::string& key) {
  return key.starts_with("tree:") ? key.substr(5) : key;
}

// The blocks of `sims` simulated again, in order, over the files as the edit will find them
// (EditorFiles): their effects are computed on exactly the text the client applies them to.
// First every file a block read that is not open in the server must be as the check saw it:
// else (it changed on disk without the server being told, or an earlier block that is not
// applied changes it) the error names it, and nothing is sent. An open document is what the
// edit applies to, guarded by its version: the block is simulated on its text as it is (the
// check read the file on disk). False with `error` (a sentence) when a block cannot be applied.
bool simulate_on_editor_files(const Analysis& a,
                              const std::vector<const apply::BlockSimulation*>& sims,
                              const OpenFiles& open, apply::Simulation* out, bool* disk_changed,
                              std::string* error) {
  const apply::ApplyConfig& config = *a.context->apply_config;
  const auto& blocks = a.checked().parsed.blocks;
  const EditorFiles files(open);
  apply::Overlay state(files);
  const apply::SimulationInput input{*a.text, &a.checked(), &a.plan(), &config, nullptr};
  std::vector<Diagnostic> diagnostics; // the check's are published; these are not
  for (const apply::BlockSimulation* sim : sims) {
    const std::string label = block_label(*a.text, blocks[sim->block]);
    std::vector<std::string> changed, by_earlier;
    for (const auto& [key, seen] : *sim->observed) {
      const std::string path = observed_path(key);
      if (!key.starts_with("tree:") && open.count(path)) continue;
      if (apply::observe(state, key) == seen) continue;
      // An earlier block of the check that changes this path, and is not applied with it?
      std::string earlier;
      for (const apply::BlockSimulation& e : a.simulation->blocks) {
        if (e.block >= sim->block) break;
        if (!e.ok || std::find(sims.begin(), sims.end(), &e) != sims.end()) continue;
        for (const auto& [changed_path, after] : *e.changes)
          if (changed_path == path || changed_path.starts_with(path + "/") ||
              path.starts_with(changed_path + "/"))
            earlier = block_label(*a.text, blocks[e.block]);
      }
      if (earlier.empty())
        changed.push_back(shown_path(config, path));
      else
        by_earlier.push_back(shown_path(config, path) + " as the " + earlier +
                             " before it leaves it, and that block is not applied with it");
    }
    if (!changed.empty() || !by_earlier.empty()) {
      std::vector<std::string> parts;
      if (!changed.empty()) {
        *disk_changed = true;
        parts.push_back(join(changed) + (changed.size() == 1 ? " changed" : " have changed") +
                        " on disk since the " + label + " was checked");
      }
      if (!by_earlier.empty())
        parts.push_back((changed.empty() ? "the " + label : std::string("it")) +
                        " was checked on " + join(by_earlier, ", and on "));
      *error = "FILE_CHANGED: " + join(parts, "; ") + ". Nothing was changed; " +
               (changed.empty() ? "apply the earlier block first, or every block with Execute "
                                  "All."
                                : "the document is checked again: run the command again from "
                                  "the new code lens.");
      return false;
    }
    apply::BlockSimulation now =
        apply::simulate_block(input, sim->block, state, &diagnostics, &state);
    if (!now.ok) {
      std::string code, why;
      for (const apply::ActionOutcome& o : now.actions)
        if (o.action->seq == now.failed_seq) {
          code = o.code;
          why = o.error;
        }
      std::string read_open;
      for (const auto& [key, seen] : *now.observed)
        if (const auto it = open.find(key); it != open.end())
          read_open += (read_open.empty() ? "" : ", ") + it->second.shown + " (version " +
                       std::to_string(it->second.doc->version) + ")";
      *error = "The " + label + " does not apply to the files as they are now" +
               (read_open.empty() ? std::string()
                                  : " (the editor's text of " + read_open + ", saved or not)") +
               ": " + why + " [" + code + "]. Nothing was changed.";
      return false;
    }
    out->blocks.push_back(std::move(now));
  }
  return true;
}

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
  std::vector<std::string> not_run; // valid blocks that will not run, and why
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
    if (sim->ok)
      sims.push_back(sim);
    else if (const std::optional<WillNotRun> why = will_not_run(a, b))
      not_run.push_back(block_label(*a.text, blocks[b]) + " will not run: " + why->because);
  }
  const std::string reasons = join(not_run, "; the ");
  if (sims.empty())
    s.reply_error(id, kRequestFailed,
                  reasons.empty() ? "Nothing to apply; nothing was changed."
                  : all           ? "Nothing to apply: the " + reasons + "; nothing was changed."
                                  : "The " + reasons + "; nothing was changed.");
  else if (!reasons.empty())
    s.show_message(2, "blockls: the " + reasons + "; the other blocks are applied.");
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
void apply_by_edit(Session& s, const json& id, const json& token, const apply::Simulation& sub,
                   const OpenFiles& open, const std::string& label,
                   std::shared_ptr<const Analysis> a) {
  WorkspaceEditOptions options;
  options.encoding = s.client.encoding;
  for (const auto& [path, file] : open)
    options.open_documents[path] = {file.doc->uri, file.doc->version};
  const WorkspaceEditResult r = workspace_edit(apply::file_changes(sub), options);
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
                         "Cannot prepare the workspace: " + error + "; no block was run.");
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
  const OpenFiles open = open_files(s, *a->context->apply_config);
  // The open documents the blocks read: the edit backend applies to their text, the disk
  // backend to the file on disk (which must then be what the editor shows).
  std::map<std::string, const OpenFile*> read_open;
  for (const apply::BlockSimulation* sim : sims)
    for (const auto& [key, seen] : *sim->observed)
      if (const auto it = open.find(key); it != open.end()) read_open[key] = &it->second;
  for (const auto& [path, f] : read_open)
    if (f->doc->desynced)
      return s.reply_error(id, kRequestFailed,
                           f->shown + " is out of sync with the editor (save it first); nothing "
                                      "was changed.");
  if (edit_backend(s.client, sims)) {
    apply::Simulation now;
    bool disk_changed = false;
    std::string error;
    if (!simulate_on_editor_files(*a, sims, open, &now, &disk_changed, &error)) {
      s.reply_error(id, kRequestFailed, error);
      // A file changed behind the server's back: every workspace check runs again.
      if (disk_changed) s.files_changed("execute found a file changed on disk");
      return;
    }
    std::vector<const apply::BlockSimulation*> fresh;
    for (const apply::BlockSimulation& b : now.blocks)
      fresh.push_back(&b);
    if (edit_backend(s.client, fresh)) {
      s.progress(token, {"begin", label, false, std::nullopt});
      return apply_by_edit(s, id, token, now, open, label, a);
    }
    // (the files as they are now need an operation the client cannot do: on disk, then)
  }
  // On disk: an open document whose text is not the file's would be written under the editor,
  // from a text the user does not see.
  const apply::DiskSource disk;
  for (const auto& [path, f] : read_open) {
    const apply::FileState on_disk = disk.read(path);
    if (on_disk.kind == apply::FileState::Kind::file && on_disk.content.str() == *f->doc->text.text)
      continue;
    return s.reply_error(id, kRequestFailed,
                         f->shown + " has changes in the editor that are not saved (version " +
                             std::to_string(f->doc->version) +
                             "), and these blocks are applied on disk: save it first. Nothing "
                             "was changed.");
  }
  s.progress(token, {"begin", label, false, std::nullopt});
  apply_on_disk(s, id, token, sims, *a);
}

} // namespace blockls::lsp
