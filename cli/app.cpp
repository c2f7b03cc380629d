// Command-line parsing (CLI11) and dispatch to the subcommands.
#include "cli/app.h"

#include "cli/apply_command.h"
#include "cli/check_command.h"
#include "cli/instructions_command.h"
#include "cli/option_checks.h"
#include "cli/stream_command.h"
#include "cli/text_report.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/codes.h"
#include "diagnostics/json_text.h"
#include "diagnostics/schema_file.h"
#include "grammar/dialects.h"
#include "lsp/server.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace blockls::cli {
namespace {

constexpr const char* kDefaultDocsUrl = "https://github.com/blockls/blockls/blob/main/docs/codes/";
// Bounds of the numeric options (see option_checks.h): sizes and counts are at least 1 byte,
// the debounce at most a minute, an exec at most a day.
constexpr int64_t kMaxCount = std::numeric_limits<int64_t>::max();
constexpr int64_t kMaxDebounceMs = 60 * 1000;
constexpr double kMaxExecSeconds = 24 * 60 * 60;

// Loads --schema FILE on top of the built-in catalog; nullptr (with the reason on `err`) when
// the file cannot be used.
std::unique_ptr<ActionCatalog> load_catalog(const std::string& schema, std::ostream& err) {
  std::string error;
  auto catalog = load_action_catalog(schema, &error);
  if (!catalog) err << "blockls: " << printable(error) << '\n';
  return catalog;
}

// Standard input can be read once: `check - -` read it twice (the second time empty) and
// reported two files. False, with the message, when `-` is given more than once.
bool stdin_once(const std::vector<std::string>& files, std::string_view command,
                std::ostream& err) {
  if (std::count(files.begin(), files.end(), "-") <= 1) return true;
  err << "blockls " << command << ": standard input ('-') can be read only once; give '-' once\n";
  return false;
}

// --docs-url as a base: a page name is appended to it, so it ends with '/'.
std::string docs_base(std::string url) {
  if (!url.empty() && url.back() != '/') url += '/';
  return url;
}

bool parse_dialects(const std::string& list, DialectSet* dialects, std::ostream& err) {
  std::string error;
  const std::optional<DialectSet> set = parse_dialect_set(list, &error);
  if (!set) {
    err << "blockls: " << error << '\n';
    return false;
  }
  if (set->empty()) { // `--dialects ''` would parse nothing and report no error, silently
    err << "blockls: --dialects names no dialect (one or more of: " << dialect_names(", ") << ")\n";
    return false;
  }
  *dialects = *set;
  return true;
}

int print_codes(const std::string& format, std::ostream& out) {
  if (format == "json") {
    nlohmann::json arr = nlohmann::json::array();
    for (const CodeInfo& c : all_codes())
      arr.push_back({{"code", c.name},
                     {"severity", severity_name(c.severity)},
                     {"dialect", dialect_column(c)},
                     {"doc", fmt::format("docs/codes/{}.md", c.doc_page)},
                     {"summary", c.summary}});
    out << dump_json(arr, 2) << '\n';
    return kExitOk;
  }
  // Columns as wide as their longest entry, so a longer dialect name keeps the table aligned.
  size_t name_width = 0, dialect_width = 0;
  for (const CodeInfo& c : all_codes()) {
    name_width = std::max(name_width, std::string_view(c.name).size());
    dialect_width = std::max(dialect_width, dialect_column(c).size());
  }
  for (const CodeInfo& c : all_codes())
    out << fmt::format("{:<{}} {:<18} {:<{}} {}\n", c.name, name_width, severity_name(c.severity),
                       dialect_column(c), dialect_width, c.summary);
  return kExitOk;
}

// The options `apply` and `stream --apply` share: where and how blocks run. `prefix` starts
// each description ("With --apply: " for stream). Returns --root.
CLI::Option* add_run_options(CLI::App* cmd, ApplyRequest& r, const std::string& prefix,
                             const std::string& dry_run_help) {
  CLI::Option* root = cmd->add_option(
      "--root", r.root, prefix + "The directory the actions work in (relative paths start here)");
  cmd->add_flag("--dry-run", r.dry_run, prefix + dry_run_help);
  cmd->add_flag("--allow-exec", r.allow_exec,
                prefix + "Run exec actions (bash -c / python3 -c / node -e, in the root, with a "
                         "timeout)");
  cmd->add_option("--exec-timeout", r.exec_timeout_seconds,
                  prefix + "Seconds before an exec is killed")
      ->check(positive_number(kMaxExecSeconds))
      ->capture_default_str();
  cmd->add_option("--deny", r.deny,
                  prefix + "Another glob of paths actions may not touch (repeatable; defaults: "
                           "**/.git/**, **/.ssh/**, **/node_modules/**)")
      ->check(not_empty("a glob"))
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--allow-root", r.allow_roots,
                  prefix + "Another directory absolute paths may name (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--max-file-size", r.max_file_size,
                  prefix + "Largest file an action may read, in bytes (default 67108864, 64 MiB; "
                           "larger ones: FILE_TOO_LARGE)")
      ->check(whole_number(1, kMaxCount));
  return root;
}

constexpr const char* kCodesNote =
    "Codes are documented in docs/codes/; `blockls codes` lists them.";

void set_exit_footer(CLI::App* cmd, const std::string& exit_status) {
  cmd->footer("Exit status: " + exit_status + "\n" + kCodesNote);
}

} // namespace

const char* version() {
  return BLOCKLS_VERSION;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "blockls: checks, fixes and applies the action blocks LLMs write (TELT, SHAM/NESL, "
      "heredocs, Aider edit blocks, replacer edits, sections, Codex patches, XML tool calls)",
      "blockls"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("blockls ") + version());
  // Each command says its own exit status (a subcommand copies the footer when it is added).
  app.footer("Each command's --help gives its exit status.\n" + std::string(kCodesNote));

  CheckRequest check;
  std::string check_schema, check_dialects = dialect_names(",");
  size_t max_size = check.limits.max_bytes;
  CLI::App* check_cmd =
      app.add_subcommand("check", "Report every diagnostic of the given transcripts");
  set_exit_footer(check_cmd, "0 no error-severity diagnostic, 1 some, 2 usage or I/O error.");
  check_cmd->add_option("files", check.files, "Transcript files, or - for standard input")
      ->required();
  check_cmd->add_option("--format", check.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "feedback"}))
      ->capture_default_str();
  check_cmd->add_option(
      "--schema", check_schema,
      "Action schema: clada unified-design.yaml (merged) or catalog .json (replaces)");
  check_cmd->add_option("--color", check.color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  check_cmd->add_option("--dialects", check_dialects, "Comma-separated dialects to parse")
      ->capture_default_str();
  check_cmd
      ->add_option("-j,--jobs", check.jobs,
                   "Files checked at once (default: one per core; the output does not depend on "
                   "it)")
      ->check(whole_number(1, 1024));
  check_cmd->add_option("--max-size", max_size, "Largest input accepted, in bytes")
      ->check(whole_number(1, kMaxCount))
      ->capture_default_str();
  check.docs_url = kDefaultDocsUrl;
  check_cmd->add_option("--docs-url", check.docs_url, "Base URL of the code pages (SARIF helpUri)")
      ->check(not_empty("a URL (the code pages' base)"))
      ->transform(docs_base, "", "")
      ->capture_default_str();
  check_cmd->add_option(
      "--root", check.root,
      "Also check the actions against the files under DIR (read-only): paths, old texts, "
      "counts, missing files");
  check_cmd->add_flag("--allow-exec", check.allow_exec,
                      "With --root: do not warn that exec is disabled");
  check_cmd->add_option("--deny", check.deny, "With --root: another deny glob (repeatable)")
      ->check(not_empty("a glob"))
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  check_cmd
      ->add_option("--allow-root", check.allow_roots,
                   "With --root: another directory absolute paths may name")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  check_cmd
      ->add_option("--max-file-size", check.max_file_size,
                   "With --root: largest file an action may read, in bytes (default 67108864, "
                   "64 MiB; larger ones: FILE_TOO_LARGE)")
      ->check(whole_number(1, kMaxCount));

  FixRequest fix;
  std::string fix_schema, fix_dialects = dialect_names(",");
  size_t fix_max_size = fix.limits.max_bytes;
  CLI::App* fix_cmd = app.add_subcommand(
      "fix", "Apply every preferred fix once; print the fixed text (default), a diff, or rewrite");
  set_exit_footer(fix_cmd, "0 no error-severity diagnostic is left after the fixes, 1 some is, 2 "
                           "usage or I/O error.");
  fix_cmd->add_option("files", fix.files, "Transcript files, or - for standard input")->required();
  auto* diff_flag =
      fix_cmd->add_flag("--diff", fix.diff, "Print a unified diff instead of the text");
  fix_cmd
      ->add_flag(
          "--in-place", fix.in_place,
          "Rewrite the files (atomically, keeping mode and owner; a read-only file is refused)")
      ->excludes(diff_flag);
  fix_cmd->add_option("--schema", fix_schema, "Action schema (see check --schema)");
  fix_cmd->add_option("--dialects", fix_dialects, "Comma-separated dialects to parse")
      ->capture_default_str();
  fix_cmd
      ->add_option("-j,--jobs", fix.jobs,
                   "Files fixed at once (default: one per core; the output and the files written "
                   "do not depend on it)")
      ->check(whole_number(1, 1024));
  fix_cmd->add_option("--max-size", fix_max_size, "Largest input accepted, in bytes")
      ->check(whole_number(1, kMaxCount))
      ->capture_default_str();

  ApplyRequest apply_req;
  std::string apply_schema, apply_dialects = dialect_names(",");
  size_t apply_max_size = apply_req.limits.max_bytes;
  CLI::App* apply_cmd =
      app.add_subcommand("apply", "Run the valid blocks of transcripts against the directory "
                                  "--root (each block all or nothing)");
  apply_cmd->add_option("files", apply_req.files, "Transcript files, or - for standard input");
  add_run_options(apply_cmd, apply_req, "",
                  "Print the unified diff of what would change and the blocks that would be "
                  "skipped; write nothing")
      ->required();
  apply_cmd
      ->add_option("--format", apply_req.format, "Output format (json: clada's result per action)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  apply_cmd->add_flag(
      "--git-commit", apply_req.git_commit,
      "When the root is in a git work tree, commit exactly the paths this run changed");
  apply_cmd->add_flag(
      "--recover", apply_req.recover,
      "Roll back blocks of an interrupted run (also done at the start of every apply); "
      "without files only that");
  apply_cmd->add_option("--schema", apply_schema, "Action schema (see check --schema)");
  apply_cmd->add_option("--dialects", apply_dialects, "Comma-separated dialects to parse")
      ->capture_default_str();
  apply_cmd
      ->add_option("-j,--jobs", apply_req.jobs,
                   "Transcripts checked at once (default: one per core); blocks are still applied "
                   "one at a time, in order")
      ->check(whole_number(1, 1024));
  apply_cmd->add_option("--max-size", apply_max_size, "Largest input accepted, in bytes")
      ->check(whole_number(1, kMaxCount))
      ->capture_default_str();
  apply_cmd->footer(
      "Exit status: 0 every block applied, 1 some block invalid or failed (a failed block changed "
      "nothing), 2 usage or I/O error.");

  lsp::ServerOptions lsp_options;
  lsp_options.version = version();
  lsp_options.settings.docs_url = kDefaultDocsUrl;
  std::string lsp_log_level = "warning";
  int64_t lsp_debounce_ms = lsp_options.debounce.min.count();
  CLI::App* lsp_cmd =
      app.add_subcommand("lsp", "Serve the Language Server Protocol (3.17) on stdin/stdout");
  set_exit_footer(lsp_cmd, "0 after shutdown and exit (or the end of the input or the client's "
                           "process gone, after shutdown), 1 otherwise, 2 usage error.");
  lsp_cmd->add_option("--log-level", lsp_log_level, "What to log on stderr")
      ->check(CLI::IsMember({"error", "warning", "info", "debug"}))
      ->capture_default_str();
  lsp_cmd
      ->add_option("--debounce-ms", lsp_debounce_ms,
                   "Least delay between an edit and its diagnostics (grows with the check time up "
                   "to 500 ms); "
                   "0 checks at once")
      ->check(whole_number(0, kMaxDebounceMs))
      ->capture_default_str();
  lsp_cmd
      ->add_option("--max-document-bytes", lsp_options.settings.max_document_bytes,
                   "Larger documents get one diagnostic saying so instead of a check")
      ->check(whole_number(1, kMaxCount))
      ->capture_default_str();
  lsp_cmd
      ->add_option("--max-message-bytes", lsp_options.max_message_bytes,
                   "Largest JSON-RPC message accepted; larger ones are discarded with an error")
      ->check(whole_number(1, kMaxCount))
      ->capture_default_str();
  lsp_cmd
      ->add_option("--docs-url", lsp_options.settings.docs_url,
                   "Base URL of the code pages (Diagnostic.codeDescription.href)")
      ->transform(docs_base, "", "")
      ->capture_default_str();
  // What language clients conventionally pass (vscode-languageclient adds --stdio; the LSP spec
  // has the client's pid): stdio is the only transport, so --stdio is accepted and ignored.
  bool lsp_stdio = true; // the only transport: the flag changes nothing
  lsp_cmd->add_flag("--stdio", lsp_stdio,
                    "Talk over stdin/stdout (the default and only transport)");
  lsp_cmd
      ->add_option("--clientProcessId", lsp_options.client_process_id,
                   "Exit when this process is gone (as initialize.processId)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));

  std::string codes_format = "text";
  CLI::App* codes_cmd = app.add_subcommand("codes", "List every diagnostic code with its severity");
  codes_cmd->add_option("--format", codes_format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  set_exit_footer(codes_cmd, "0, or 2 on a usage error.");

  StreamRequest stream_req;
  std::string stream_schema, stream_dialects = dialect_names(","), stream_format = "jsonl";
  size_t stream_max_size = stream_req.limits.max_bytes;
  CLI::App* stream_cmd = app.add_subcommand(
      "stream", "Read a transcript from standard input as it arrives; write one JSON event per "
                "line as each is known (block_start, value_chunk, block_end with the block, its "
                "errors and feedback for the model, error, done); with --apply --root DIR also "
                "apply each valid block as it closes (applied, skipped) (docs/stream.md)");
  stream_cmd->footer("Exit status: 0 no error-severity diagnostic (and, with --apply, every valid "
                     "block applied), 1 some, 2 the input could not be read, a usage error, or "
                     "an I/O error while applying.");
  stream_cmd->add_option("--format", stream_format, "Output format")
      ->check(CLI::IsMember({"jsonl"}));
  stream_cmd->add_option("--schema", stream_schema, "Action schema (see check --schema)");
  stream_cmd->add_option("--dialects", stream_dialects, "Comma-separated dialects to parse");
  stream_cmd->add_option("--max-size", stream_max_size, "Largest input accepted, in bytes")
      ->check(whole_number(1, kMaxCount));
  stream_cmd->add_flag(
      "--apply", stream_req.apply,
      "Apply each valid block to --root DIR as soon as it closes (all or nothing, journaled, as "
      "`apply` does) and write an `applied` or `skipped` event after its block_end");
  add_run_options(stream_cmd, stream_req.apply_options, "With --apply: ",
                  "Apply nothing; the `applied` events say what would change (with its diff)");

  std::string instructions_dialect;
  CLI::App* instructions_cmd = app.add_subcommand(
      "instructions", "Print a dialect's format instructions for a system prompt, with an example");
  set_exit_footer(instructions_cmd, "0, or 2 for an unknown dialect or a usage error.");
  instructions_cmd->add_option("DIALECT", instructions_dialect, "One of: " + dialect_names(", "))
      ->required();

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << "blockls " << version() << '\n';
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    // The help to read is the command's own when the error is in its options.
    std::string command;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* a) { return a->parsed(); }))
      command = " " + sub->get_name();
    // CLI11's words for an option given twice, in ours.
    std::string what = e.what();
    if (const size_t at = what.find(": At Most 1 required but received "); at != std::string::npos)
      what = what.substr(0, at) + ": given " + what.substr(at + 34) + " times; give it once";
    err << "blockls: " << what << "\nRun 'blockls" << command << " --help' for usage.\n";
    return kExitUsage;
  }

  if (check_cmd->parsed()) {
    if (!stdin_once(check.files, "check", err)) return kExitUsage;
    if (!parse_dialects(check_dialects, &check.dialects, err)) return kExitUsage;
    auto catalog = load_catalog(check_schema, err);
    if (!catalog) return kExitUsage;
    check.catalog = catalog.get();
    check.limits.max_bytes = max_size;
    check.process_exits_after = true; // run() is called once, by main()
    // For tests and benchmarks only (not a user option): every text or JSON input is checked
    // in parts of this many bytes, each saying on stderr how many parts it took; 0: none is.
    if (const char* bytes = std::getenv("BLOCKLS_CHECK_PART_BYTES"); bytes && *bytes) {
      check.part_bytes = std::strtoull(bytes, nullptr, 10);
      check.parts_from_bytes = check.part_bytes ? 0 : SIZE_MAX;
      check.report_parts = true;
    }
    return run_check(check, out, err);
  }
  if (fix_cmd->parsed()) {
    if (!stdin_once(fix.files, "fix", err)) return kExitUsage;
    if (!parse_dialects(fix_dialects, &fix.dialects, err)) return kExitUsage;
    auto catalog = load_catalog(fix_schema, err);
    if (!catalog) return kExitUsage;
    fix.catalog = catalog.get();
    fix.limits.max_bytes = fix_max_size;
    return run_fix(fix, out, err);
  }
  if (apply_cmd->parsed()) {
    if (!stdin_once(apply_req.files, "apply", err)) return kExitUsage;
    if (!parse_dialects(apply_dialects, &apply_req.dialects, err)) return kExitUsage;
    auto catalog = load_catalog(apply_schema, err);
    if (!catalog) return kExitUsage;
    apply_req.catalog = catalog.get();
    apply_req.limits.max_bytes = apply_max_size;
    return run_apply(apply_req, out, err);
  }
  if (lsp_cmd->parsed()) {
    const std::map<std::string, lsp::LogLevel> levels = {{"error", lsp::LogLevel::error},
                                                         {"warning", lsp::LogLevel::warning},
                                                         {"info", lsp::LogLevel::info},
                                                         {"debug", lsp::LogLevel::debug}};
    lsp_options.log_level = levels.at(lsp_log_level);
    lsp_options.debounce.min = std::chrono::milliseconds(lsp_debounce_ms);
    out.flush();
    return lsp::run_server(lsp_options);
  }
  if (stream_cmd->parsed()) {
    if (!parse_dialects(stream_dialects, &stream_req.dialects, err)) return kExitUsage;
    auto catalog = load_catalog(stream_schema, err);
    if (!catalog) return kExitUsage;
    stream_req.catalog = catalog.get();
    stream_req.limits.max_bytes = stream_max_size;
    return run_stream(stream_req, out, err);
  }
  if (codes_cmd->parsed()) return print_codes(codes_format, out);
  if (instructions_cmd->parsed()) return run_instructions(instructions_dialect, out, err);
  out << app.help();
  return kExitUsage;
}

} // namespace blockls::cli
