// Executing effects. Each effect first verifies that its target is still what the
// simulation expected (compare, then swap by rename), so a change made by someone else, or by
// an exec earlier in the block, makes the block fail and roll back instead of clobbering it.
#include "apply/disk_backend.h"

#include "apply/beneath_source.h"
#include "apply/exec_runner.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::apply {
namespace {

using Kind = FileState::Kind;

bool is_file_with(const FileState& s, const std::optional<FileContent>& content) {
  if (!content) return s.kind == Kind::missing;
  return s.kind == Kind::file && s.content == *content;
}

class Executor {
public:
  Executor(const SimulationInput& in, Journal& journal, const Beneath& files)
      : in_(in), journal_(journal), files_(files) {}

  // Performs one effect; false with `code`/`error` set when it cannot. Every write goes
  // through `files_`, walked from the root's descriptor (no link on the way is followed).
  bool perform(const FileEffect& e, ActionOutcome* outcome, std::vector<std::string>* touched) {
    // Read as written: from the root's descriptor, under the check's size limit.
    const BeneathSource disk(files_, in_.config->max_file_bytes);
    switch (e.kind) {
    case FileEffect::Kind::write: {
      const FileState now = disk.read(e.path);
      if (!is_file_with(now, e.before)) return changed(e.path);
      if (is_read_only(now)) return read_only(e.path, now);
      if (!files_.make_dirs(parent_of(e.path), &error)) return io();
      if (!files_.write_file(e.path, e.after.str(), e.mode, journal_.temp_tag(), &error))
        return io();
      touched->push_back(e.path);
      return true;
    }
    case FileEffect::Kind::remove: {
      const FileState now = disk.read(e.path);
      if (!is_file_with(now, e.before)) return changed(e.path);
      if (is_read_only(now)) return read_only(e.path, now);
      if (!files_.remove_file(e.path, &error)) return io();
      touched->push_back(e.path);
      return true;
    }
    case FileEffect::Kind::move: {
      const FileState now = disk.read(e.path);
      if (!is_file_with(now, e.before)) return changed(e.path);
      if (is_read_only(now)) return read_only(e.path, now);
      const FileState dest = disk.read(e.new_path);
      if (!(dest.kind == Kind::missing || (e.dest_before && is_file_with(dest, e.dest_before))))
        return changed(e.new_path);
      if (is_read_only(dest)) return read_only(e.new_path, dest);
      if (!files_.rename(e.path, e.new_path, &error)) return io();
      touched->push_back(e.path);
      touched->push_back(e.new_path);
      return true;
    }
    case FileEffect::Kind::make_dir: {
      if (!files_.make_dirs(e.path, &error)) return io();
      touched->push_back(e.path);
      return true;
    }
    case FileEffect::Kind::remove_dir: {
      if (disk.read(e.path).kind != Kind::directory) return changed(e.path);
      if (!files_.remove_tree(e.path, &error)) return io();
      touched->push_back(e.path);
      return true;
    }
    case FileEffect::Kind::exec: {
      const std::vector<std::string> argv = interpreter_argv(e.lang, e.code);
      const ProcessOutput p = run_program(argv, e.cwd, in_.config->exec_timeout);
      outcome->data = nlohmann::json{{"stdout", p.out}, {"stderr", p.err}};
      if (p.out_dropped || p.err_dropped)
        outcome->data.edit()["truncated"] = {{"stdoutBytesDropped", p.out_dropped},
                                             {"stderrBytesDropped", p.err_dropped}};
      if (!p.started) {
        code = "EXEC_FAILED";
        error =
            fmt::format("exec: {} could not be run: {}", argv.empty() ? e.lang : argv[0], p.error);
        return false;
      }
      ran_exec = true;
      if (p.timed_out) {
        code = "EXEC_FAILED";
        error = fmt::format("exec: Process timeout after {}s (TIMEOUT)",
                            static_cast<double>(in_.config->exec_timeout.count()) / 1000.0);
        return false;
      }
      outcome->data.edit()["exit_code"] = p.exit_code;
      if (p.exit_code != 0) {
        code = "EXEC_FAILED";
        error = fmt::format("exec: exited with code {}", p.exit_code);
        return false;
      }
      return true;
    }
    }
    return false;
  }

  bool ran_exec = false; // a command ran: what it did is outside the journal
  std::string code, error;

private:
  bool changed(const std::string& path) {
    code = "FILE_CHANGED";
    error = fmt::format("{} changed while the block was running", path);
    return false;
  }
  // A file made read-only after the block's re-check (which refuses one it sees): the
  // simulation did not, so its write would also undo the chmod (a write keeps the old mode).
  bool read_only(const std::string& path, const FileState& now) {
    code = "FILE_READ_ONLY";
    error = fmt::format("{} became read-only (mode {:04o}) while the block was running", path,
                        now.mode & 07777);
    return false;
  }
  bool io() {
    code = "IO_ERROR";
    return false;
  }

  const SimulationInput& in_;
  Journal& journal_;
  const Beneath& files_;
};

// Marks action `seq` as the failure and the others as not run, except the exec actions in
// `ran` (they ran before the failure: what they did cannot be rolled back, so they say so).
void mark_failed(BlockSimulation* sim, size_t seq, const std::string& code,
                 const std::string& error, const std::string& others,
                 const std::set<size_t>& ran = {}) {
  sim->ok = false;
  sim->failed_seq = seq;
  for (ActionOutcome& o : sim->actions) {
    o.effects = {};
    if (ran.count(o.action->seq)) {
      o.success = true;
      o.data.edit()["notRolledBack"] =
          fmt::format("this command ran before action {} failed; the files the block wrote "
                      "were restored, but not what the command itself changed",
                      seq);
    } else if (o.action->seq == seq) {
      o.success = false;
      o.code = code;
      o.error = error;
    } else {
      o.success = false;
      o.code = "NOT_RUN";
      o.error = others;
      if (o.action->action != "exec") o.data = {};
    }
  }
}

} // namespace

BlockRun run_block_on_disk(const SimulationInput& input, const BlockSimulation& checked,
                           StateDir& state, std::vector<Diagnostic>* diagnostics) {
  BlockRun run;
  // The files as the writes will find them: read from the roots' descriptors, never through a
  // link (a directory swapped for one by another process reads as changed, not as the file it
  // points to outside the root).
  const BeneathSource disk(state.files(), input.config->max_file_bytes);
  run.sim = simulate_block(input, checked.block, disk, diagnostics, nullptr);

  // 1. Every file the check read must be unchanged.
  for (const auto& [key, sig] : *checked.observed)
    if (observe(disk, key) != sig)
      run.changed_files.push_back(key.starts_with("tree:") ? key.substr(5) : key);
  if (!run.changed_files.empty()) {
    run.code = "FILE_CHANGED";
    run.error = fmt::format("{} changed since the check; nothing was written",
                            fmt::join(run.changed_files, ", "));
    mark_failed(&run.sim, run.sim.actions.empty() ? 0 : run.sim.actions.front().action->seq,
                run.code, run.error,
                fmt::format("not run: {} was not applied ({})", block_of_actions(run.sim.block_id),
                            run.error));
    return run;
  }
  // 2. The re-check must pass.
  if (!run.sim.ok) {
    for (const ActionOutcome& o : run.sim.actions)
      if (o.action->seq == run.sim.failed_seq) {
        run.code = o.code;
        run.error = o.error;
      }
    return run;
  }
  // 3. Journal, perform, commit (or roll back).
  // What each effect leaves at its paths (what an exec does is not known, nor journaled).
  std::vector<BlockChange> changes;
  for (const ActionOutcome& o : run.sim.actions)
    for (const FileEffect& e : *o.effects) {
      switch (e.kind) {
      case FileEffect::Kind::write:
        changes.push_back({e.path, EntryKind::file, e.after.str()});
        break;
      case FileEffect::Kind::remove:
      case FileEffect::Kind::remove_dir:
        changes.push_back({e.path, EntryKind::missing, {}});
        break;
      case FileEffect::Kind::move:
        changes.push_back({e.path, EntryKind::missing, {}});
        changes.push_back({e.new_path, EntryKind::file,
                           e.before ? std::string_view(e.before->str()) : std::string_view()});
        break;
      case FileEffect::Kind::make_dir:
        changes.push_back({e.path, EntryKind::directory, {}});
        break;
      case FileEffect::Kind::exec:
        break;
      }
    }
  Journal journal;
  std::string error;
  const bool has_effects = !changes.empty();
  const bool has_exec =
      std::any_of(run.sim.actions.begin(), run.sim.actions.end(), [](const ActionOutcome& o) {
        return std::any_of(o.effects->begin(), o.effects->end(),
                           [](const FileEffect& e) { return e.kind == FileEffect::Kind::exec; });
      });
  if ((has_effects || has_exec) && !journal.begin(state, run.sim.block_id, changes, &error)) {
    run.code = "IO_ERROR";
    run.error = error;
    mark_failed(&run.sim, run.sim.actions.front().action->seq, run.code, error,
                fmt::format("not run: the journal of {} could not be written",
                            block_of_actions(run.sim.block_id)));
    return run;
  }
  Executor exec(input, journal, state.files());
  std::set<size_t> ran_execs;
  for (ActionOutcome& o : run.sim.actions) {
    for (const FileEffect& e : *o.effects) {
      if (exec.perform(e, &o, &run.touched)) {
        if (e.kind == FileEffect::Kind::exec) ran_execs.insert(o.action->seq);
        continue;
      }
      std::string rollback_error, kept;
      const bool rolled_back = journal.rollback(&kept, &rollback_error);
      run.code = exec.code;
      run.error = exec.error;
      if (!rolled_back)
        run.error += "; ROLLBACK FAILED: " + rollback_error;
      else if (!kept.empty())
        run.error += "; left as they are (changed while the block ran, not by its writes): " + kept;
      run.touched.clear();
      run.exec_ran = exec.ran_exec;
      mark_failed(&run.sim, o.action->seq, run.code, run.error,
                  fmt::format("rolled back: action {} of {} failed", o.action->seq,
                              block_of_actions(run.sim.block_id)),
                  ran_execs);
      return run;
    }
  }
  if ((has_effects || has_exec) && !journal.commit(&error)) {
    run.code = "IO_ERROR";
    run.error = error;
    return run;
  }
  run.applied = true;
  return run;
}

} // namespace blockls::apply
