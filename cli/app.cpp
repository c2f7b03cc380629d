// Command-line parsing (CLI11) and dispatch to the subcommands.
#include "cli/app.h"

#include "cli/check_command.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/codes.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <ostream>
#include <sstream>

namespace blockls::cli {
namespace {

constexpr const char* kDefaultDocsUrl = "https://github.com/blockls/blockls/blob/main/docs/codes/";

// Loads --schema FILE on top of the built-in catalog.
std::unique_ptr<ActionCatalog> load_catalog(const std::string& schema, std::ostream& err) {
  auto catalog = std::make_unique<ActionCatalog>(ActionCatalog::builtin());
  if (schema.empty()) return catalog;
  std::ifstream in(schema, std::ios::binary);
  if (!in) {
    err << "blockls: " << schema << ": cannot open schema file\n";
    return nullptr;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string error;
  const bool ok = schema.ends_with(".json")
                      ? [&] {
                          auto parsed = ActionCatalog::from_json(text, &error);
                          if (parsed) *catalog = std::move(*parsed);
                          return parsed.has_value();
                        }()
                      : catalog->merge_schema_yaml(text, &error);
  if (!ok) {
    err << "blockls: " << schema << ": " << error << '\n';
    return nullptr;
  }
  return catalog;
}

bool parse_dialects(const std::string& list, bool* telt, bool* nesl, std::ostream& err) {
  *telt = *nesl = false;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "telt") *telt = true;
    else if (item == "nesl" || item == "sham") *nesl = true;
    else {
      err << "blockls: unknown dialect '" << item << "' (known: telt, nesl)\n";
      return false;
    }
  }
  return true;
}

int print_codes(const std::string& format, std::ostream& out) {
  if (format == "json") {
    nlohmann::json arr = nlohmann::json::array();
    for (const CodeInfo& c : all_codes())
      arr.push_back({{"code", c.name}, {"severity", severity_name(c.severity)}, {"dialect", c.dialect},
                     {"doc", fmt::format("docs/codes/{}.md", c.doc_page)}, {"summary", c.summary}});
    out << arr.dump(2) << '\n';
    return kExitOk;
  }
  for (const CodeInfo& c : all_codes())
    out << fmt::format("{:<28} {:<18} {:<5} {}\n", c.name, severity_name(c.severity), c.dialect, c.summary);
  return kExitOk;
}

} // namespace

const char* version() { return BLOCKLS_VERSION; }

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"blockls: checks, fixes and applies the action blocks LLMs write (TELT, SHAM/NESL)",
               "blockls"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("blockls ") + version());
  app.footer("Exit status: 0 no error-severity diagnostic, 1 some, 2 usage or I/O error.\n"
             "Codes are documented in docs/codes/; `blockls codes` lists them.");

  CheckRequest check;
  std::string check_schema, check_dialects = "telt,nesl";
  size_t max_size = check.limits.max_bytes;
  CLI::App* check_cmd = app.add_subcommand("check", "Report every diagnostic of the given transcripts");
  check_cmd->add_option("files", check.files, "Transcript files, or - for standard input")->required();
  check_cmd->add_option("--format", check.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  check_cmd->add_option("--schema", check_schema,
                        "Action schema: clada unified-design.yaml (merged) or catalog .json (replaces)");
  check_cmd->add_option("--color", check.color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  check_cmd->add_option("--dialects", check_dialects, "Comma-separated dialects to parse")
      ->capture_default_str();
  check_cmd->add_option("--max-size", max_size, "Largest input accepted, in bytes")->capture_default_str();
  check.docs_url = kDefaultDocsUrl;
  check_cmd->add_option("--docs-url", check.docs_url, "Base URL of the code pages (SARIF helpUri)")
      ->capture_default_str();

  FixRequest fix;
  std::string fix_schema, fix_dialects = "telt,nesl";
  size_t fix_max_size = fix.limits.max_bytes;
  CLI::App* fix_cmd = app.add_subcommand(
      "fix", "Apply every preferred fix once; print the fixed text (default), a diff, or rewrite");
  fix_cmd->add_option("files", fix.files, "Transcript files, or - for standard input")->required();
  auto* diff_flag = fix_cmd->add_flag("--diff", fix.diff, "Print a unified diff instead of the text");
  fix_cmd->add_flag("--in-place", fix.in_place, "Rewrite the files (atomically)")->excludes(diff_flag);
  fix_cmd->add_option("--schema", fix_schema, "Action schema (see check --schema)");
  fix_cmd->add_option("--dialects", fix_dialects, "Comma-separated dialects to parse")->capture_default_str();
  fix_cmd->add_option("--max-size", fix_max_size, "Largest input accepted, in bytes")->capture_default_str();

  std::string codes_format = "text";
  CLI::App* codes_cmd = app.add_subcommand("codes", "List every diagnostic code with its severity");
  codes_cmd->add_option("--format", codes_format)->check(CLI::IsMember({"text", "json"}));

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
    err << "blockls: " << e.what() << "\nRun 'blockls --help' for usage.\n";
    return kExitUsage;
  }

  if (check_cmd->parsed()) {
    if (!parse_dialects(check_dialects, &check.telt, &check.nesl, err)) return kExitUsage;
    auto catalog = load_catalog(check_schema, err);
    if (!catalog) return kExitUsage;
    check.catalog = catalog.get();
    check.limits.max_bytes = max_size;
    return run_check(check, out, err);
  }
  if (fix_cmd->parsed()) {
    if (!parse_dialects(fix_dialects, &fix.telt, &fix.nesl, err)) return kExitUsage;
    auto catalog = load_catalog(fix_schema, err);
    if (!catalog) return kExitUsage;
    fix.catalog = catalog.get();
    fix.limits.max_bytes = fix_max_size;
    return run_fix(fix, out, err);
  }
  if (codes_cmd->parsed()) return print_codes(codes_format, out);
  out << app.help();
  return kExitUsage;
}

} // namespace blockls::cli
