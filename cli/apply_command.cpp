// apply: for each transcript, check + plan + simulate, then run each valid block on disk (or,
// with --dry-run, print the diff of what would change). Output per block and per action in
// text or JSON (clada's result shape); exit 0 all applied, 1 some invalid or failed, 2 usage
// or I/O error.
#include "cli/apply_command.h"

#include "apply/beneath_source.h"
#include "apply/disk_backend.h"
#include "apply/git_commit.h"
#include "apply/path_policy.h"
#include "apply/run.h"
#include "apply/workspace_check.h"
#include "cli/app.h"
#include "cli/parallel.h"
#include "cli/text_report.h"
#include "diagnostics/json_report.h"
#include "diagnostics/json_text.h"
#include "fixits/unified_diff.h"
#include "grammar/dialects.h"

#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <unistd.h>

namespace blockls::cli {
namespace {

using namespace blockls::apply;

struct BlockReport {
  int block = -1;
  std::string id;
  bool id_names_block = true; // false: the id is a heredoc's marker, shared by other blocks
  uint32_t line = 0;
  std::string status; // applied, failed, skipped, would_apply, would_fail
  std::string code, error;
  std::vector<std::string> changed_files;
  ActionOutcomes actions;
  bool exec_ran = false; // failed, but a command of it ran (its own changes were not undone)
};

struct FileReport {
  InputFile file;
  CheckedDocument checked;
  Plan plan;
  std::vector<Diagnostic> workspace;
  std::vector<BlockReport> blocks;
  std::string diff;
};

// A block without an id (edit blocks, XML, replacer, patches), or whose id is a heredoc's
// marker (`EOF`, shared by most heredocs), by its number in the document, from 1, as check's
// feedback names blocks ("block 2").
std::string block_name(const BlockReport& b) {
  return b.id.empty() || !b.id_names_block ? std::to_string(b.block + 1) : b.id;
}

std::string relative(const ApplyConfig& config, const std::string& path) {
  if (path == config.root) return ".";
  if (path.compare(0, config.root.size() + 1, config.root + "/") == 0)
    return path.substr(config.root.size() + 1);
  return path;
}

std::string primary(const PlannedAction& a) {
  if (const std::string_view* p = a.param("path")) return std::string(trim_path(*p));
  if (a.param("old_path") && a.param("new_path"))
    return fmt::format("{} -> {}", trim_path(*a.param("old_path")),
                       trim_path(*a.param("new_path")));
  if (const std::string_view* p = a.param("paths")) {
    size_t n = 0;
    for (size_t pos = 0; pos <= p->size();) {
      const size_t nl = p->find('\n', pos);
      if (!trim_path(p->substr(pos, nl == std::string::npos ? std::string::npos : nl - pos))
               .empty())
        ++n;
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
    return fmt::format("{} path{}", n, n == 1 ? "" : "s");
  }
  if (const std::string_view* l = a.param("lang")) return std::string(*l);
  return {};
}

std::string outcome_text(const ActionOutcome& o, bool dry_run) {
  if (!o.success)
    return fmt::format("{} [{}] {}", o.code == "NOT_RUN" ? "not run" : "FAILED", o.code, o.error);
  const std::string_view n = o.action->action;
  const nlohmann::json& d = *o.data;
  const char* would = dry_run ? "would be " : "";
  if (n == "file_write")
    return fmt::format("{}written, {} bytes", would, d.value("bytesWritten", 0));
  if (n == "file_append")
    return fmt::format("{}appended, {} bytes", would, d.value("bytesWritten", 0));
  if (n == "file_replace_lines")
    return fmt::format("{} line{} replaced", d.value("lines_replaced", 0),
                       d.value("lines_replaced", 0) == 1 ? "" : "s");
  if (n == "files_replace_all_text") {
    size_t total = 0, files = 0;
    for (const nlohmann::json& r : d.value("results", nlohmann::json::array())) {
      total += r.value("replacements_made", size_t{0});
      ++files;
    }
    return fmt::format("{} replacement{} in {} file{}", total, total == 1 ? "" : "s", files,
                       files == 1 ? "" : "s");
  }
  if (n.starts_with("file_replace"))
    return fmt::format("{} replacement{}", d.value("replacements", 0),
                       d.value("replacements", 0) == 1 ? "" : "s");
  if (n == "file_delete" || n == "dir_delete") return fmt::format("{}deleted", would);
  if (n == "file_move")
    return fmt::format("{}moved{}", would,
                       d.value("overwrote", false) ? " (overwrote the destination)" : "");
  if (n == "file_read")
    return fmt::format("read, {} bytes",
                       d.contains("content") ? d["content"].get<std::string>().size() : 0);
  if (n == "file_read_numbered") return "read";
  if (n == "files_read")
    return fmt::format("read {} files", d.contains("content") ? d["content"].size() : 0);
  if (n == "dir_create") return fmt::format("{}created", would);
  if (n == "exec" && d.contains("notRolledBack"))
    return fmt::format("RAN, exit code {}; {}", d.value("exit_code", -1),
                       d["notRolledBack"].get<std::string>());
  if (n == "exec")
    return dry_run ? "would run" : fmt::format("exit code {}", d.value("exit_code", -1));
  return "ok";
}

void indent(std::ostream& out, const std::string& text, const char* prefix) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    out << prefix
        << printable(text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos))
        << '\n';
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
}

} // namespace

namespace {

// Git's extended header (`diff --git`, then mode and rename lines), which both `git apply` and
// GNU patch read: the only way to say "create this empty file" or "rename" in a patch.
std::string git_header(const std::string& from, const std::string& to) {
  return fmt::format("diff --git a/{} b/{}\n", from, to);
}

// A file the diff creates or deletes has mode 100755 when executable, 100644 otherwise (the
// destination a move overwrites has no mode here: 100644; git apply only warns if it differs).
const char* git_mode(uint32_t mode) {
  return (mode & 0111) != 0 ? "100755" : "100644";
}

std::string write_diff(const std::string& rel, const FileEffect& e) {
  if (e.before) {
    const std::string hunks = unified_diff(e.before->str(), e.after.str(), "a/" + rel, "b/" + rel);
    return hunks.empty() ? std::string() : git_header(rel, rel) + hunks;
  }
  return git_header(rel, rel) + fmt::format("new file mode {}\n", git_mode(e.mode)) +
         unified_diff("", e.after.str(), "/dev/null", "b/" + rel);
}

std::string delete_diff(const std::string& rel, const std::string& content, uint32_t mode) {
  return git_header(rel, rel) + fmt::format("deleted file mode {}\n", git_mode(mode)) +
         unified_diff(content, "", "a/" + rel, "/dev/null");
}

// A move that overwrites its destination: the destination's deletion, then a pure rename (a
// rename's hunks would apply to the source, not to what it replaces).
std::string move_diff(const std::string& from, const std::string& to, const FileEffect& e) {
  std::string out;
  if (e.dest_before) out += delete_diff(to, e.dest_before->str(), 0);
  return out + git_header(from, to) +
         fmt::format("similarity index 100%\nrename from {}\nrename to {}\n", from, to);
}

std::string exec_note(const ApplyConfig& config, const FileEffect& e) {
  std::string out = fmt::format("run {} in {}:\n", e.lang, relative(config, e.cwd));
  for (size_t pos = 0; pos < e.code.size();) {
    const size_t nl = e.code.find('\n', pos);
    out +=
        "    " + e.code.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

} // namespace

// Directories and exec have no patch form: they are plain lines between the patches, which
// patch and git apply skip (a directory is created with the first file put in it).
std::string effects_diff(const ApplyConfig& config, const std::vector<FileEffect>& effects) {
  std::string out;
  for (const FileEffect& e : effects) {
    const std::string rel = relative(config, e.path);
    switch (e.kind) {
    case FileEffect::Kind::write:
      out += write_diff(rel, e);
      break;
    case FileEffect::Kind::remove:
      out += delete_diff(rel, e.before->str(), e.mode);
      break;
    case FileEffect::Kind::move:
      out += move_diff(rel, relative(config, e.new_path), e);
      break;
    case FileEffect::Kind::make_dir:
      out += fmt::format("new directory {}\n", rel);
      break;
    case FileEffect::Kind::remove_dir:
      out += fmt::format("deleted directory {}\n", rel);
      for (const auto& [p, s] : e.tree)
        if (s.kind == FileState::Kind::file)
          out += delete_diff(relative(config, p), s.content.str(), s.mode);
      break;
    case FileEffect::Kind::exec:
      out += exec_note(config, e);
      break;
    }
  }
  return out;
}

bool make_apply_config(const ApplyRequest& request, ApplyConfig* config, std::ostream& err,
                       std::string_view command) {
  std::string error;
  if (!make_config(request.root, config, &error)) {
    err << "blockls " << command << ": " << printable(error) << '\n';
    return false;
  }
  for (const std::string& dir : request.allow_roots)
    if (!add_allowed_root(config, dir, &error)) {
      err << "blockls " << command << ": " << printable(error) << '\n';
      return false;
    }
  for (const std::string& glob : request.deny)
    config->deny_globs.push_back(glob);
  if (request.max_file_size) config->max_file_bytes = *request.max_file_size;
  config->allow_exec = request.allow_exec;
  config->exec_timeout =
      std::chrono::milliseconds(static_cast<long long>(request.exec_timeout_seconds * 1000));
  return true;
}

namespace {

CheckOptions check_options(const ApplyRequest& request) {
  CheckOptions o;
  o.parse.dialects = request.dialects;
  o.catalog = request.catalog;
  return o;
}

nlohmann::json file_json(const FileReport& f, bool dry_run) {
  nlohmann::json results = nlohmann::json::array(), blocks = nlohmann::json::array(),
                 skipped = nlohmann::json::array(), diags = nlohmann::json::array();
  // executedActions is clada's: every action attempted, the one that failed its block included
  // (its conformance cases count it); appliedActions only those whose block was committed.
  size_t executed = 0, applied = 0;
  bool success = true;
  for (const BlockReport& b : f.blocks) {
    nlohmann::json jb = {{"blockId", b.id}, {"line", b.line + 1}, {"status", b.status}};
    if (!b.code.empty()) jb["code"] = b.code;
    if (!b.error.empty()) jb["error"] = b.error;
    if (!b.changed_files.empty()) jb["changedFiles"] = b.changed_files;
    if (b.exec_ran) jb["execRan"] = true;
    blocks.push_back(std::move(jb));
    if (b.status == "not_run") continue; // command input: shown, never run (not a failure)
    if (b.status == "skipped") {
      skipped.push_back(
          {{"blockId", b.id}, {"line", b.line + 1}, {"code", b.code}, {"message", b.error}});
      success = false;
      continue;
    }
    if (b.status != "applied" && b.status != "would_apply")
      success = false;
    else
      applied += b.actions.size();
    for (const ActionOutcome& o : b.actions) {
      results.push_back(result_json(o));
      if (o.code != "NOT_RUN") ++executed;
    }
  }
  for (const Diagnostic& d : f.workspace)
    diags.push_back(diagnostic_json(f.file.text, f.checked, d));
  nlohmann::json j = {{"path", display_path(f.file.path)},
                      {"success", success},
                      {"totalBlocks", f.checked.parsed.blocks.size()},
                      {"executedActions", executed},
                      {"appliedActions", applied},
                      {"results", results},
                      {"skipped", skipped},
                      {"blocks", blocks},
                      {"diagnostics", diags}};
  if (dry_run) j["diff"] = f.diff;
  return j;
}

void print_file_text(std::ostream& out, const FileReport& f, const ApplyConfig& config,
                     bool dry_run) {
  const std::string path = printable(display_path(f.file.path));
  for (const BlockReport& b : f.blocks) {
    const std::string where = fmt::format("{}:{}: block {}", path, b.line + 1, block_name(b));
    if (b.status == "skipped") {
      out << fmt::format("{}: skipped, invalid: [{}] {}\n", where, b.code, printable(b.error));
      continue;
    }
    if (b.status == "not_run") {
      out << fmt::format("{}: not run: {}\n", where, printable(b.error));
      continue;
    }
    if (b.status == "applied" || b.status == "would_apply")
      out << fmt::format("{}: {}\n", where, b.status == "applied" ? "applied" : "would apply");
    else
      out << fmt::format("{}: {}: [{}] {}\n", where,
                         dry_run      ? "would fail, nothing changed"
                         : b.exec_ran ? "FAILED, its files rolled back (a command of it ran)"
                                      : "FAILED, nothing changed",
                         b.code, printable(b.error));
    for (const ActionOutcome& o : b.actions) {
      out << fmt::format("  [{}] {} {}: {}\n", o.action->seq, o.action->action,
                         printable(primary(*o.action)), printable(outcome_text(o, dry_run)));
      if (!o.success || o.data->is_null()) continue;
      if (o.action->action == "file_read" || o.action->action == "file_read_numbered")
        indent(out, (*o.data)["content"].get<std::string>(), "    | ");
      if (o.action->action == "files_read")
        for (size_t i = 0; i < (*o.data)["paths"].size(); ++i) {
          out << "    " << printable((*o.data)["paths"][i].get<std::string>()) << ":\n";
          indent(out, (*o.data)["content"][i].get<std::string>(), "    | ");
        }
      if (o.action->action == "exec") {
        indent(out, o.data->value("stdout", ""), "    out| ");
        indent(out, o.data->value("stderr", ""), "    err| ");
      }
    }
  }
  if (!f.workspace.empty()) {
    CheckedDocument only = f.checked;
    only.diagnostics = f.workspace;
    print_text_diagnostics(out, path, f.file.text, only, TextStyle{false});
  }
  if (dry_run && !f.diff.empty()) out << f.diff;
  (void)config;
}

} // namespace

int run_apply(const ApplyRequest& request, std::ostream& out, std::ostream& err) {
  ApplyConfig config;
  if (!make_apply_config(request, &config, err, "apply")) return kExitUsage;
  if (request.files.empty() && !request.recover) {
    err << "blockls apply: give transcript files (or - for standard input), or --recover\n";
    return kExitUsage;
  }
  if (request.dry_run && (request.recover || request.git_commit)) {
    err << "blockls apply: --dry-run writes nothing; it cannot be combined with --recover or "
           "--git-commit\n";
    return kExitUsage;
  }

  // Read every input first: an unreadable file stops the run before anything is written.
  // Into memory, not mapped: a transcript that the writes below change (or that sits in the
  // root) is applied as it was read, whatever happens to the file.
  std::vector<InputFile> inputs;
  InputLimits limits = request.limits;
  limits.map_files = false;
  bool io_failed = false;
  for (const std::string& path : request.files) {
    std::string error;
    std::optional<InputFile> file = read_input(path, limits, &error);
    if (!file) {
      err << "blockls: " << printable(error) << '\n';
      io_failed = true;
      continue;
    }
    inputs.push_back(std::move(*file));
  }
  if (io_failed) return kExitUsage;

  // Journal-like files inside the root were not written by this user's blockls (journals live
  // in the user's state directory): never read, only mentioned.
  for (const std::string& planted : planted_journals(config.root))
    err << "blockls apply: note: " << printable(planted)
        << " is inside the workspace; blockls never trusts a journal found there and ignored "
           "it\n";
  StateDir state;
  std::vector<std::string> recovered;
  if (!request.dry_run) {
    std::string error;
    if (!state.open(config, &error) || !state.recover(&recovered, &error)) {
      err << "blockls apply: " << printable(error) << '\n';
      return kExitUsage;
    }
    for (const std::string& m : recovered)
      (request.format == "json" ? err : out) << "blockls apply: " << m << '\n';
  } else {
    for (const std::string& journal : pending_journals(config.root))
      err << "blockls apply: note: " << journal
          << " is the journal of an interrupted run; the next apply (or --recover) rolls it "
             "back, keeping (and reporting) any file changed since the block wrote it\n";
  }
  if (request.files.empty()) {
    if (request.format == "json") // the shape of a run's JSON, with no transcript
      out << nlohmann::json{{"root", config.root}, {"recovered", recovered}}.dump(2) << '\n';
    else
      out << fmt::format("recovery done: {} interrupted block{} rolled back\n", recovered.size(),
                         recovered.size() == 1 ? "" : "s");
    return kExitOk;
  }

  const ActionCatalog& catalog = request.catalog ? *request.catalog : ActionCatalog::builtin();
  // The files under the roots, read from their descriptors (a directory swapped for a link by
  // another process never reads as a file outside; what the blocks run on is read so again).
  Beneath roots;
  if (std::string error; !open_roots(config, &roots, &error)) {
    err << "blockls apply: " << printable(error) << '\n';
    return kExitUsage;
  }
  const BeneathSource disk(roots, config.max_file_bytes);
  Overlay dry_state(disk); // --dry-run: later files see what earlier ones would do
  std::vector<FileReport> reports;
  std::vector<std::string> touched;
  std::vector<std::string> commit_lines;
  bool any_failed = false, apply_io_error = false;
  size_t n_applied = 0, n_failed = 0, n_skipped = 0, n_actions = 0, n_not_run = 0;
  // Checking and planning each transcript is independent: done on `jobs` threads. Simulating
  // and applying are not (each file sees what the earlier ones did): in argument order, each
  // transcript as soon as it is planned.
  std::vector<FileReport> prepared(inputs.size());
  const auto prepare = [&](size_t i) {
    FileReport& f = prepared[i];
    f.file = std::move(inputs[i]);
    f.checked = check_document(f.file.text, check_options(request));
    f.plan = build_plan(f.file.text, f.checked, catalog);
  };
  const auto run_file = [&](size_t i) {
    FileReport& f = prepared[i];
    const SimulationInput in{f.file.text, &f.checked, &f.plan, &config};
    const FileSource& base = request.dry_run ? static_cast<const FileSource&>(dry_state) : disk;
    Overlay simulated(base);
    std::vector<BlockSimulation> sims;
    for (int b : f.plan.planned_blocks)
      sims.push_back(simulate_block(in, b, simulated, &f.workspace, &simulated));
    if (request.dry_run) dry_state.merge(simulated.entries());

    // Every block in order through the one apply loop, each with its simulation above.
    std::vector<BlockRequest> requests;
    size_t next_sim = 0;
    for (size_t b = 0; b < f.checked.parsed.blocks.size(); ++b) {
      BlockRequest q{static_cast<int>(b), nullptr};
      if (next_sim < sims.size() && sims[next_sim].block == q.block)
        q.simulation = &sims[next_sim++];
      requests.push_back(q);
    }
    RunInput run_input{in};
    run_input.dry_run = request.dry_run;
    for (BlockOutcome& o : run_blocks(run_input, requests, request.dry_run ? nullptr : &state)) {
      BlockReport r;
      r.block = o.block;
      r.id = std::move(o.block_id);
      if (o.block >= 0 && static_cast<size_t>(o.block) < f.checked.parsed.blocks.size())
        r.id_names_block =
            !dialect_info(f.checked.parsed.blocks[static_cast<size_t>(o.block)].dialect)
                 .id_is_marker;
      r.line = o.line;
      r.code = std::move(o.code);
      r.error = std::move(o.error);
      if (o.status == BlockStatus::no_actions) continue; // a block without actions
      if (o.status == BlockStatus::skipped) {
        r.status = "skipped";
        ++n_skipped;
        any_failed = true;
        f.blocks.push_back(std::move(r));
        continue;
      }
      if (o.status == BlockStatus::not_run) {
        r.status = "not_run"; // command input: checked and shown, never run; not a failure
        ++n_not_run;
        f.blocks.push_back(std::move(r));
        continue;
      }
      const bool ok = o.status == BlockStatus::applied;
      r.status =
          request.dry_run ? (ok ? "would_apply" : "would_fail") : (ok ? "applied" : "failed");
      r.changed_files = std::move(o.changed_files);
      r.exec_ran = o.exec_ran;
      r.actions = std::move(o.actions);
      if (request.dry_run && ok)
        for (const ActionOutcome& a : r.actions)
          f.diff += effects_diff(config, *a.effects);
      if (!request.dry_run && r.code == "IO_ERROR") apply_io_error = true;
      if (!request.dry_run && ok) {
        touched.insert(touched.end(), o.touched.begin(), o.touched.end());
        std::vector<std::string> what;
        for (const ActionOutcome& a : r.actions)
          what.push_back(fmt::format("{} {}", a.action->action, printable(primary(*a.action))));
        commit_lines.push_back(fmt::format("- block {} ({}:{}): {}", block_name(r),
                                           printable(display_path(f.file.path)), r.line + 1,
                                           fmt::join(what, "; ")));
      }
      if (ok)
        ++n_applied;
      else {
        ++n_failed;
        any_failed = true;
      }
      if (ok) n_actions += r.actions.size(); // committed (or, dry, would be): see file_json
      f.blocks.push_back(std::move(r));
    }
    reports.push_back(std::move(f));
  };
  for_each_ordered(inputs.size(), request.jobs, SIZE_MAX, prepare, run_file);

  nlohmann::json git_json;
  bool git_failed = false;
  if (request.git_commit && !touched.empty()) {
    const std::string message =
        fmt::format("blockls apply: {} block{}\n\n{}\n", commit_lines.size(),
                    commit_lines.size() == 1 ? "" : "s", fmt::join(commit_lines, "\n"));
    const GitCommitResult g = git_commit_paths(config.root, touched, message, &git_failed);
    git_json = {{"committed", g.committed}, {"message", g.message}};
    if (!g.commit.empty()) git_json["commit"] = g.commit;
    if (request.format != "json") (git_failed ? err : out) << "git: " << g.message << '\n';
  }

  if (request.format == "json") {
    nlohmann::json files = nlohmann::json::array();
    for (const FileReport& f : reports)
      files.push_back(file_json(f, request.dry_run));
    nlohmann::json j = {{"root", config.root},
                        {"dryRun", request.dry_run},
                        {"files", files},
                        {"recovered", recovered},
                        {"summary",
                         {{"blocks", n_applied + n_failed + n_skipped},
                          {request.dry_run ? "wouldApply" : "applied", n_applied},
                          {request.dry_run ? "wouldFail" : "failed", n_failed},
                          {"skipped", n_skipped},
                          {"notRun", n_not_run},
                          {"actions", n_actions}}}};
    if (!git_json.is_null()) j["git"] = git_json;
    out << dump_json(j, 2) << '\n';
  } else {
    for (const FileReport& f : reports)
      print_file_text(out, f, config, request.dry_run);
    out << fmt::format("{} block{}: {} {}, {} {}, {} skipped (invalid); {} action{} {}\n",
                       n_applied + n_failed + n_skipped,
                       n_applied + n_failed + n_skipped == 1 ? "" : "s", n_applied,
                       request.dry_run ? "would apply" : "applied", n_failed,
                       request.dry_run ? "would fail" : "failed", n_skipped, n_actions,
                       n_actions == 1 ? "" : "s", request.dry_run ? "would be applied" : "applied");
    if (n_not_run > 0)
      out << fmt::format("{} block{} of command input not run (checked only)\n", n_not_run,
                         n_not_run == 1 ? "" : "s");
    if (request.dry_run) out << "dry run: nothing was written\n";
  }
  if (apply_io_error || git_failed) return kExitUsage;
  return any_failed ? kExitFindings : kExitOk;
}

} // namespace blockls::cli
