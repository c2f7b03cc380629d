// check: parse + validate each file, print in the chosen format, exit 0/1/2.
// fix: apply every preferred fix once, print the text, a unified diff, or rewrite in place.
#include "cli/check_command.h"

#include "apply/file_source.h"
#include "apply/journal.h"
#include "apply/workspace_check.h"
#include "cli/app.h"
#include "cli/apply_command.h"
#include "cli/feedback_report.h"
#include "cli/option_checks.h"
#include "cli/parallel.h"
#include "cli/parted_report.h"
#include "cli/sarif_report.h"
#include "cli/text_report.h"
#include "diagnostics/check.h"
#include "diagnostics/json_report.h"
#include "fixits/apply_fixes.h"
#include "fixits/unified_diff.h"
#include "fixits/verify_fixes.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <ostream>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace blockls::cli {
namespace {

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  return ::isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
}

CheckOptions options_for(DialectSet dialects, const ActionCatalog* catalog) {
  CheckOptions o;
  o.parse.dialects = dialects;
  o.catalog = catalog;
  return o;
}

// Keeps `value` alive until the process exits, reachable from a static (so no leak checker
// reports it), and never destroys it. For a 40 MB transcript the checked document is ~60 MB
// of model in many allocations; freeing them just before the exit frees the whole address
// space anyway cost ~5% of a whole `blockls check`.
template <typename T> void leave_to_exit(T value) {
  static std::vector<T>* kept = new std::vector<T>();
  kept->push_back(std::move(value));
}

} // namespace

// The options that only change the checks against the files under --root, as given: without
// --root they would be ignored, silently.
std::vector<std::string> root_only_options(const CheckRequest& request) {
  std::vector<std::string> given;
  if (request.allow_exec) given.push_back("--allow-exec");
  if (!request.deny.empty()) given.push_back("--deny");
  if (!request.allow_roots.empty()) given.push_back("--allow-root");
  if (request.max_file_size) given.push_back("--max-file-size");
  return given;
}

int run_check(const CheckRequest& request, std::ostream& out, std::ostream& err) {
  if (const std::vector<std::string> given = root_only_options(request);
      request.root.empty() && !given.empty()) {
    err << "blockls check: " << list_options(given) << (given.size() == 1 ? " needs" : " need")
        << " --root DIR (only the checks against the files under it use "
        << (given.size() == 1 ? "it" : "them") << ")\n";
    return kExitUsage;
  }
  struct Checked {
    InputFile file;
    CheckedDocument result;
  };
  std::vector<std::pair<std::string, std::string>> failed; // path, message
  const CheckOptions options = options_for(request.dialects, request.catalog);
  apply::ApplyConfig workspace;
  if (!request.root.empty()) {
    ApplyRequest ar;
    ar.root = request.root;
    ar.allow_exec = request.allow_exec;
    ar.deny = request.deny;
    ar.allow_roots = request.allow_roots;
    ar.max_file_size = request.max_file_size;
    if (!make_apply_config(ar, &workspace, err, "check")) return kExitUsage;
    // The files may be about to change: an interrupted apply is waiting to be rolled back.
    for (const std::string& journal : apply::pending_journals(workspace.root))
      err << "blockls check: note: " << printable(journal)
          << " is the journal of an interrupted apply in this root; `blockls apply --recover "
             "--root DIR` rolls it back, keeping (and reporting) any file changed since the "
             "block wrote it (the files may not be as the transcript expects until then)\n";
    for (const std::string& planted : apply::planted_journals(workspace.root))
      err << "blockls check: note: " << printable(planted)
          << " is inside the workspace; blockls never trusts a journal found there and ignores "
             "it\n";
  }
  // Reading and checking each file is independent: the files are checked on `jobs` threads,
  // at most a window of them ahead of the one being written, and taken in the order of the
  // arguments (the workspace simulation and the output need it) as soon as each is ready. Text and
  // JSON are written file by file as they are taken, and a file's model is let go once written:
  // memory follows the window (a few files per thread), not the whole run. A large input
  // (parts_from_bytes) is not checked ahead at all: the thread that takes it checks it in parts
  // as it writes it (cli/parted_report.h), so its memory follows a part, not the document. SARIF
  // (one log) and feedback (whose headers depend on how many files were checked) keep every file
  // until the end.
  const bool streamed = request.format == "text" || request.format == "json";
  const unsigned threads =
      request.jobs ? request.jobs : std::max(1u, std::thread::hardware_concurrency());
  const size_t window = streamed ? size_t{threads} * 4 : SIZE_MAX;
  const ActionCatalog& catalog = request.catalog ? *request.catalog : ActionCatalog::builtin();
  const TextStyle style{use_color(request.color)};
  Summary total;
  size_t checked = 0;
  std::vector<Checked> kept; // every file (SARIF, feedback), else the last window's
  // --format json and sarif: written straight to text, out a megabyte at a time.
  std::string json_text;
  JsonWriter w(&json_text, 2);
  if (request.format == "json" || request.format == "sarif")
    w.spill_every(1 << 20, [&out](std::string_view part) { out << part; });
  if (request.format == "json") {
    w.begin_object();
    w.key("files");
    w.begin_array();
  }
  struct Read {
    std::optional<InputFile> file;
    std::string error;
    CheckedDocument result;
    bool in_parts = false; // read only: checked (in parts) as it is written
    // Text without a workspace: the file's report, put together by the thread that checked
    // it while its model is in that core's cache, and the model let go there.
    std::optional<std::string> report;
    Summary summary;
  };
  // Whether a file's text report can be written before its turn: nothing taken in order (the
  // workspace simulation) changes it. Not for a single file, whose model is left to the exit.
  const bool report_early =
      request.format == "text" && request.root.empty() && request.files.size() > 1;
  // A large input is checked by the thread that takes it in order, part by part as it writes
  // the report, not ahead into a whole model.
  const auto in_parts = [&](const InputFile& file) {
    return streamed && request.root.empty() && file.text.size() >= request.parts_from_bytes;
  };
  const apply::DiskSource disk(workspace.max_file_bytes);
  apply::Overlay files(disk); // later transcripts see what earlier ones would do
  // Each file is read and checked by one of the threads (into its own slot); the files are
  // taken in order as they are ready, one at a time, by whichever thread is free (see
  // cli/parallel.h), which runs the workspace simulation and writes the report.
  std::vector<std::unique_ptr<Read>> reads(request.files.size());
  const auto check_file = [&](size_t k) {
    auto r = std::make_unique<Read>();
    const std::string& path = request.files[k];
    r->file = read_input(path, request.limits, &r->error);
    if (r->file && in_parts(*r->file)) {
      r->in_parts = true;
    } else if (r->file) {
      r->result = check_with_verified_fixes(r->file->text, options);
      if (const std::optional<std::string> why = r->file->changed_since_read()) {
        r->error = display_path(path) + ": " + *why + "; not checked (run again)";
        r->result = {};
        r->file.reset();
      } else if (report_early) {
        r->summary = summarize(r->result);
        append_text_diagnostics(&r->report.emplace(), display_path(r->file->path), r->file->text,
                                r->result, style);
        r->result = {};
        r->file.reset();
      }
    }
    reads[k] = std::move(r);
  };
  // A file not checked: in JSON, its entry goes where the file is among the arguments.
  const auto note_failure = [&](const std::string& path, const std::string& message) {
    failed.emplace_back(path, message);
    if (request.format != "json") return;
    w.begin_object();
    w.field("io_error", message);
    w.field("path", path);
    w.end_object();
  };
  const auto take_file = [&](size_t k) {
    const std::unique_ptr<Read> read = std::move(reads[k]);
    const std::string& path = request.files[k];
    std::optional<InputFile>& file = read->file;
    if (read->report) {
      total += read->summary;
      ++checked;
      out << *read->report;
      return;
    }
    if (!file) {
      err << "blockls: " << printable(read->error) << '\n';
      note_failure(display_path(path), read->error);
      return;
    }
    if (read->in_parts) {
      const std::string shown = display_path(file->path);
      // With a core to spare, a second thread parses the parts ahead of this one.
      const bool pipelined = threads > 1;
      const PartedCheck parted = request.format == "json"
                                     ? write_json_in_parts(w, shown, *file, options, catalog,
                                                           request.part_bytes, pipelined)
                                     : print_text_in_parts(out, shown, *file, options,
                                                           request.part_bytes, style, pipelined);
      if (request.report_parts)
        err << "blockls check: " << printable(shown) << ": checked in " << parted.parts << " part"
            << (parted.parts == 1 ? "" : "s") << '\n';
      if (parted.changed) {
        const std::string error = shown + ": " + *parted.changed + "; not checked (run again)";
        err << "blockls: " << printable(error) << '\n';
        note_failure(shown, error);
        return;
      }
      total += parted.summary;
      ++checked;
      return; // its parts were let go as they were written
    }
    CheckedDocument result = std::move(read->result);
    if (!request.root.empty()) {
      const apply::Plan plan = apply::build_plan(file->text, result, catalog);
      const apply::SimulationInput in{file->text, &result, &plan, &workspace};
      std::vector<Diagnostic> found;
      for (int b : plan.planned_blocks)
        apply::simulate_block(in, b, files, &found, &files);
      apply::merge_diagnostics(&result, std::move(found));
    }
    total += summarize(result);
    ++checked;
    const std::string shown = display_path(file->path);
    if (request.format == "json")
      write_document(w, file->text, result, catalog, shown);
    else if (request.format == "text")
      print_text_diagnostics(out, shown, file->text, result, style);
    // Written: the previous file's model goes now, while its memory is warm and can serve the
    // next files; the last file's is left to the exit.
    if (streamed) kept.clear();
    kept.push_back({std::move(*file), std::move(result)});
  };
  for_each_ordered(request.files.size(), request.jobs, window, check_file, take_file);

  if (request.format == "json") {
    w.end_array();
    w.end_object();
    out << json_text << '\n';
  } else if (request.format == "feedback") {
    // For the model: one section per file when there are several.
    for (const Checked& c : kept) {
      // (Several files named: each section says which, even when only one could be read.)
      if (request.files.size() > 1) out << "== " << printable(display_path(c.file.path)) << " ==\n";
      out << feedback_text(c.file.text, c.result, options);
    }
  } else if (request.format == "sarif") {
    std::vector<SarifFile> sarif;
    for (const Checked& c : kept)
      sarif.push_back({display_path(c.file.path), c.file.text, &c.result});
    std::vector<SarifIoError> unchecked;
    for (const auto& [path, message] : failed)
      unchecked.push_back({path, message});
    write_sarif_log(w, sarif, version(), request.docs_url, unchecked);
    out << json_text << '\n';
  } else {
    out << fmt::format(
        "{} file{} checked: {} block{} ({} valid, {} invalid), {} error{}, {} warning{}, "
        "{} info{}\n",
        checked, checked == 1 ? "" : "s", total.blocks_parsed, total.blocks_parsed == 1 ? "" : "s",
        total.blocks_valid, total.blocks_parsed - total.blocks_valid, total.errors,
        total.errors == 1 ? "" : "s", total.warnings, total.warnings == 1 ? "" : "s", total.infos,
        total.infos == 1 ? "" : "s");
    if (!failed.empty())
      out << fmt::format("{} file{} could not be checked\n", failed.size(),
                         failed.size() == 1 ? "" : "s");
  }
  if (request.process_exits_after) leave_to_exit(std::move(kept));
  if (!failed.empty()) return kExitUsage;
  return total.errors > 0 ? kExitFindings : kExitOk;
}

namespace {

// The permission bits of the regular file `path` names (through a symbolic link, as the
// rewrite follows it); nullopt for anything else, or what stat(2) cannot see (the read says
// why).
std::optional<unsigned> regular_file_mode(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return st.st_mode & 07777;
}

// Why `fix --in-place` refuses to rewrite `path`, a regular file of `mode`; nullopt when it
// may. The rule of apply (apply/file_source.h, docs/apply.md): a file whose owner write bit is
// clear is not replaced (FILE_READ_ONLY), and a file of mode 0000 is one no one may open
// (NOT_A_FILE). By the mode bits, not access(2), so that root and the owner get the same answer.
std::optional<std::string> in_place_refusal(const std::string& path, unsigned mode) {
  if (mode == 0)
    return fmt::format("blockls: {}: mode 0000: a file no one may read or write is not fixed; "
                       "give its owner read and write first (chmod u+rw '{}')",
                       path, path);
  if (apply::owner_may_not_write(mode))
    return fmt::format("blockls: {}: read-only (mode {:04o}): --in-place does not rewrite a file "
                       "its owner may not write; not fixed. Make it writable first (chmod u+w "
                       "'{}'), or leave it out",
                       path, mode, path);
  return std::nullopt;
}

// Whether two of `paths` name the same file (the same device and inode once symbolic links are
// followed: `t.txt`, `./t.txt` and a link to it are one file). Such a file rewritten in place
// must be read again after each rewrite, as one job does it.
bool names_a_file_twice(const std::vector<std::string>& paths) {
  std::set<std::pair<dev_t, ino_t>> seen;
  for (const std::string& path : paths) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !seen.emplace(st.st_dev, st.st_ino).second) return true;
  }
  return false;
}

// The name of `path` in a diff header after "a/" or "b/": without its leading slashes, as git
// writes an absolute path (`a/tmp/x`, not `a//tmp/x`), and without "./" steps (`a/t.txt` for
// `./t.txt`, as `git diff` names it; `patch -p1` finds the file either way).
std::string diff_name(const std::string& path) {
  std::string shown = display_path(path);
  for (size_t at; (at = shown.find("/./")) != std::string::npos;)
    shown.erase(at, 2);
  for (;;) {
    const size_t skip = shown.find_first_not_of('/');
    if (skip != 0 && skip != std::string::npos) shown.erase(0, skip);
    if (!shown.starts_with("./")) break;
    shown.erase(0, 2);
  }
  return shown;
}

} // namespace

int run_fix(const FixRequest& request, std::ostream& out, std::ostream& err) {
  if (request.diff && request.in_place) {
    err << "blockls fix: --diff and --in-place cannot be combined\n";
    return kExitUsage;
  }
  if (!request.diff && !request.in_place && request.files.size() != 1) {
    err << "blockls fix: printing the fixed text takes exactly one file; use --diff or --in-place "
           "for several\n";
    return kExitUsage;
  }
  const CheckOptions options = options_for(request.dialects, request.catalog);
  bool io_failed = false;
  bool errors_remain = false;
  // Each file is read, checked, fixed and checked again by one of the threads; the files are
  // taken in argument order as they are ready, one at a time, and printed (or written), so the
  // output and the files written do not depend on -j.
  struct Fixed {
    std::optional<InputFile> file;
    std::string error; // the message when the file could not be fixed
    std::string fixed, diff;
    size_t applied = 0, errors_left = 0;
  };
  std::vector<std::unique_ptr<Fixed>> slots(request.files.size());
  const auto fix_file = [&](size_t k) {
    auto r = std::make_unique<Fixed>();
    const std::string& path = request.files[k];
    if (request.in_place && path == "-") {
      r->error = "blockls fix: --in-place cannot rewrite standard input";
    } else if (request.in_place && regular_file_mode(path) == 0u) {
      r->error = *in_place_refusal(path, 0); // not even read: no one may (docs/apply.md)
    } else if (std::string error; !(r->file = read_input(path, request.limits, &error))) {
      r->error = "blockls: " + error;
    } else {
      const CheckedDocument before = check_with_verified_fixes(r->file->text, options);
      r->applied = apply_preferred_fixes(r->file->text, before.diagnostics, &r->fixed);
      if (const std::optional<std::string> why = r->file->changed_since_read()) {
        r->error = "blockls: " + display_path(path) + ": " + *why + "; not fixed (run again)";
        r->file.reset();
      } else {
        r->errors_left = check_document(r->fixed, options).error_count();
        if (request.diff)
          r->diff =
              unified_diff(r->file->text, r->fixed, "a/" + diff_name(path), "b/" + diff_name(path));
      }
    }
    slots[k] = std::move(r);
  };
  const auto take_file = [&](size_t k) {
    const std::unique_ptr<Fixed> r = std::move(slots[k]);
    const std::string& path = request.files[k];
    if (!r->file) {
      err << printable(r->error) << '\n';
      io_failed = true;
      return;
    }
    errors_remain = errors_remain || r->errors_left > 0;
    if (request.diff) {
      out << r->diff;
    } else if (request.in_place) {
      // Judged here, just before the write (as apply judges each effect), and only for a file
      // that has something to write: a read-only file that needs no fix is left as it is.
      if (const std::optional<unsigned> mode = regular_file_mode(path); r->applied > 0 && mode) {
        if (std::optional<std::string> refusal = in_place_refusal(path, *mode)) {
          err << printable(*refusal) << '\n';
          io_failed = true;
          return;
        }
      }
      std::string error;
      if (r->applied > 0 && !write_file_atomically(path, r->fixed, &error)) {
        err << "blockls: " << printable(error) << '\n';
        io_failed = true;
        return;
      }
      err << fmt::format("{}: {} fix{} applied, {} error{} left\n", printable(display_path(path)),
                         r->applied, r->applied == 1 ? "" : "es", r->errors_left,
                         r->errors_left == 1 ? "" : "s");
    } else {
      out << r->fixed;
    }
  };
  constexpr size_t kAhead = 32; // files fixed beyond the one being written (memory bound)
  // A file named twice with --in-place (by one name or by aliases) is read the second time
  // after the first rewrite, as one job does it.
  const unsigned jobs = request.in_place && names_a_file_twice(request.files) ? 1 : request.jobs;
  for_each_ordered(request.files.size(), jobs, kAhead, fix_file, take_file);
  if (io_failed) return kExitUsage;
  return errors_remain ? kExitFindings : kExitOk;
}

} // namespace blockls::cli
