// Builds the benchmark transcript turn by turn: prose (headings, paragraphs, bullet lists),
// then one to three action blocks in fences, as a model answers a coding request. Randomness
// comes from bench/rng.h (the same sequence on every standard library).
#include "bench/transcript_generator.h"

#include "bench/rng.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

namespace blockls::bench {
namespace {

constexpr std::array<std::string_view, 64> kWords = {
    "the",   "parser",   "file",    "we",      "need",    "to",       "update",  "config",
    "so",    "that",     "it",      "handles", "empty",   "input",    "and",     "returns",
    "an",    "error",    "when",    "value",   "is",      "missing",  "this",    "change",
    "keeps", "existing", "tests",   "green",   "module",  "function", "now",     "reads",
    "from",  "cache",    "instead", "of",      "calling", "server",   "again",   "next",
    "add",   "a",        "small",   "helper",  "for",     "paths",    "then",    "run",
    "suite", "build",    "should",  "pass",    "without", "warnings", "because", "old",
    "code",  "path",     "still",   "works",   "with",    "both",     "formats", "layout"};

constexpr std::array<std::string_view, 16> kIdentifiers = {
    "parseConfig", "loadUser",  "cache",    "result",    "options", "handler",
    "request",     "response",  "items",    "index",     "buffer",  "token",
    "session",     "readLines", "settings", "retryCount"};

constexpr std::array<std::string_view, 12> kDirs = {"src",   "lib",     "app",  "tests",
                                                    "utils", "server",  "api",  "models",
                                                    "core",  "scripts", "docs", "config"};
constexpr std::array<std::string_view, 12> kStems = {"index",  "main",    "config", "parser",
                                                     "user",   "session", "cache",  "http",
                                                     "router", "store",   "util",   "schema"};
constexpr std::array<std::string_view, 8> kExtensions = {".ts", ".py",   ".cpp", ".js",
                                                         ".md", ".json", ".sh",  ".go"};
constexpr std::array<std::string_view, 4> kProjects = {"webapp", "blockls", "billing", "cli-tool"};

// Code lines: '@' becomes an identifier, '~' a number.
constexpr std::array<std::string_view, 40> kCodeLines = {
    "import { @ } from './@';",
    "export function @(@: string): number {",
    "  const @ = @(@, ~);",
    "  if (!@) return ~;",
    "  return @.length + ~;",
    "}",
    "",
    "// TODO: handle the case where @ is undefined",
    "def @(@, @=None):",
    "    \"\"\"Return the @ for the given @.\"\"\"",
    "    if @ is None:",
    "        raise ValueError(\"@ must not be None\")",
    "    return {\"@\": @, \"count\": ~}",
    "#include <string>",
    "std::vector<int> @(const std::string& @) {",
    "  for (size_t i = 0; i < @.size(); ++i) @.push_back(i * ~);",
    "  return @;",
    "set -euo pipefail",
    "npm test -- --grep \"@\"",
    "echo \"done: $@\" >&2",
    "  \"@\": ~,",
    "  \"@\": \"@\",",
    "{",
    "},",
    "-- SELECT @ FROM @ WHERE id = ~;",
    "---",
    "  @: ~",
    "# @ notes",
    "    @ = @.get('@', ~)",
    "func @(@ int) error {",
    "\treturn fmt.Errorf(\"bad @: %d\", @)",
    "const @ = async (@) => {",
    "  await @.save({ @: ~ });",
    "};",
    "  // keep in sync with @",
    "    @.append(@)",
    "      throw new Error(`@ failed: ${@}`);",
    "if [ -f \"$@\" ]; then",
    "fi",
    "  - @: ~"};

constexpr std::array<std::string_view, 8> kLeadIns = {
    "Here is the change:",         "Apply this:",
    "Update the file as follows.", "Next, the edit to the module:",
    "Then run the tests:",         "I'll create the new file first.",
    "Now the fix itself:",         "And the follow-up edit:"};

constexpr std::array<std::string_view, 6> kHeadings = {
    "## Plan",           "## Changes", "### Step ~: update @",
    "## Why this works", "### Tests",  "## Summary"};

class Writer {
public:
  Writer(const TranscriptOptions& options, TranscriptStats* stats)
      : options_(options), rng_(options.seed), stats_(stats) {}

  std::string run() {
    out_.reserve(options_.target_bytes + (64 << 10));
    while (out_.size() < options_.target_bytes)
      turn();
    for (char c : out_)
      stats_->lines += c == '\n';
    return std::move(out_);
  }

private:
  // ---- text pieces -------------------------------------------------------------------------
  void fill(std::string_view pattern, std::string* line) {
    for (char c : pattern) {
      if (c == '@') {
        line->append(rng_.pick(kIdentifiers));
      } else if (c == '~') {
        line->append(std::to_string(rng_.below(1000)));
      } else {
        line->push_back(c);
      }
    }
  }

  std::string sentence() {
    std::string s;
    const size_t words = rng_.between(6, 18);
    for (size_t i = 0; i < words; ++i) {
      if (i > 0) s.push_back(' ');
      if (rng_.chance(0.05)) {
        s.push_back('`');
        s.append(rng_.pick(kIdentifiers));
        s.push_back('`');
      } else {
        s.append(rng_.pick(kWords));
      }
    }
    if (s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    s.push_back('.');
    return s;
  }

  void paragraph() {
    const size_t sentences = rng_.between(2, 5);
    for (size_t i = 0; i < sentences; ++i) {
      if (i > 0) out_.push_back(' ');
      out_.append(sentence());
    }
    out_.append("\n\n");
  }

  void bullets() {
    const size_t items = rng_.between(2, 5);
    for (size_t i = 0; i < items; ++i) {
      out_.append(rng_.chance(0.5) ? "- " : std::to_string(i + 1) + ". ");
      out_.append(sentence());
      out_.push_back('\n');
    }
    out_.push_back('\n');
  }

  std::string id() {
    static constexpr std::string_view kAlnum =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::string s(3, ' ');
    for (char& c : s)
      c = kAlnum[rng_.below(kAlnum.size())];
    return s;
  }

  std::string path() {
    std::string p = "/home/dev/";
    p.append(rng_.pick(kProjects));
    p.push_back('/');
    p.append(rng_.pick(kDirs));
    p.push_back('/');
    p.append(rng_.pick(kStems));
    p.append(rng_.pick(kExtensions));
    return p;
  }

  // Code lines for a heredoc or TELT value, skewed towards short snippets.
  std::vector<std::string> code(size_t max_lines) {
    const size_t n =
        rng_.chance(0.7) ? rng_.between(1, 8) : rng_.between(8, std::max<size_t>(8, max_lines));
    std::vector<std::string> lines(n);
    for (auto& line : lines)
      fill(rng_.pick(kCodeLines), &line);
    return lines;
  }

  static std::string json_quote(std::string_view raw) {
    std::string q = "\"";
    for (char c : raw) {
      switch (c) {
      case '"':
        q.append("\\\"");
        break;
      case '\\':
        q.append("\\\\");
        break;
      case '\t':
        q.append("\\t");
        break;
      default:
        q.push_back(c);
      }
    }
    q.push_back('"');
    return q;
  }

  // ---- NESL (all eras) ---------------------------------------------------------------------
  enum class NeslEra { current, sham, upper };

  struct NeslTokens {
    std::string start, end, heredoc;
  };

  static NeslTokens nesl_tokens(NeslEra era, const std::string& id) {
    switch (era) {
    case NeslEra::sham:
      return {"#!SHAM [@three-char-SHA-256: " + id + "]", "#!END_SHAM_" + id, "EOT_SHAM_" + id};
    case NeslEra::upper:
      return {"#!NESL [@three-char-SHA-256: " + id + "]", "#!END_NESL_" + id, "EOT_NESL_" + id};
    case NeslEra::current:
      break;
    }
    return {"#!nesl [@three-char-SHA-256: " + id + "]", "#!end_" + id, "EOT_" + id};
  }

  void heredoc(std::vector<std::string>* lines, std::string_view key, const NeslTokens& t,
               std::vector<std::string> body) {
    lines->push_back(std::string(key) + " = <<'" + t.heredoc + "'");
    for (auto& l : body)
      lines->push_back(std::move(l));
    lines->push_back(t.heredoc);
  }

  void quoted(std::vector<std::string>* lines, std::string_view key, std::string_view value) {
    lines->push_back(std::string(key) + " = " + json_quote(value));
  }

  std::vector<std::string> nesl_block(NeslEra era, const std::string& block_id) {
    const NeslTokens t = nesl_tokens(era, block_id);
    std::vector<std::string> lines{t.start};
    switch (rng_.below(10)) {
    case 0:
    case 1:
    case 2:
      quoted(&lines, "action", rng_.chance(0.5) ? "write_file" : "file_write");
      quoted(&lines, "path", path());
      heredoc(&lines, "content", t, code(60));
      break;
    case 3:
    case 4:
      quoted(&lines, "action", "replace_text_in_file");
      quoted(&lines, "path", path());
      if (rng_.chance(0.4)) {
        std::string old_text, new_text;
        fill(rng_.pick(kCodeLines), &old_text);
        fill(rng_.pick(kCodeLines), &new_text);
        quoted(&lines, "old_text", old_text);
        quoted(&lines, "new_text", new_text);
      } else {
        heredoc(&lines, "old_text", t, code(12));
        heredoc(&lines, "new_text", t, code(16));
      }
      break;
    case 5:
      quoted(&lines, "action", "replace_all_text_in_file");
      quoted(&lines, "path", path());
      quoted(&lines, "old_text", rng_.pick(kIdentifiers));
      quoted(&lines, "new_text", rng_.pick(kIdentifiers));
      quoted(&lines, "count", std::to_string(rng_.between(1, 9)));
      break;
    case 6:
      quoted(&lines, "action", "exec");
      quoted(&lines, "lang", "bash");
      heredoc(&lines, "code", t, code(10));
      if (rng_.chance(0.5)) quoted(&lines, "cwd", "/home/dev/webapp");
      break;
    case 7:
      quoted(&lines, "action", "append_to_file");
      quoted(&lines, "path", path());
      heredoc(&lines, "content", t, code(20));
      break;
    case 8: {
      quoted(&lines, "action", "read_files");
      std::vector<std::string> paths(rng_.between(1, 5));
      for (auto& p : paths)
        p = path();
      heredoc(&lines, "paths", t, std::move(paths));
      break;
    }
    default:
      if (rng_.chance(0.5)) {
        quoted(&lines, "action", "move_file");
        quoted(&lines, "old_path", path());
        quoted(&lines, "new_path", path());
      } else {
        quoted(&lines, "action", rng_.chance(0.5) ? "delete_file" : "create_dir");
        quoted(&lines, "path", path());
      }
    }
    if (rng_.chance(0.15)) lines.insert(lines.begin() + 1, "");
    lines.push_back(t.end);
    return lines;
  }

  // One mistake of the kinds models make in NESL.
  void break_nesl(std::vector<std::string>* lines, const NeslTokens& t) {
    switch (rng_.below(6)) {
    case 0: // end id does not match the header
      lines->back() = t.end.substr(0, t.end.size() - 3) + id();
      return;
    case 1: // unclosed quote
      for (size_t i = 1; i < lines->size(); ++i) {
        std::string& l = (*lines)[i];
        if (l.size() > 2 && l.back() == '"' && l.find(" = \"") != std::string::npos) {
          l.pop_back();
          return;
        }
      }
      [[fallthrough]];
    case 2: // missing end marker
      lines->pop_back();
      return;
    case 3: // misspelt action
      for (size_t i = 1; i < lines->size(); ++i) {
        std::string& l = (*lines)[i];
        if (l.starts_with("action = \"") && l.size() > 13) {
          std::swap(l[11], l[12]);
          return;
        }
      }
      return;
    case 4: // indented key (an unclosed heredoc is left out: it swallows the rest of the
            // transcript, so one would turn the whole benchmark into one heredoc body)
      for (size_t i = 1; i + 1 < lines->size(); ++i) {
        std::string& l = (*lines)[i];
        if (l.starts_with("path = ")) {
          l.insert(0, "  ");
          return;
        }
      }
      lines->pop_back();
      return;
    default: // bare value
      lines->insert(lines->end() - 1, "count = " + std::to_string(rng_.between(1, 9)));
    }
  }

  // ---- TELT --------------------------------------------------------------------------------
  void telt_param(std::vector<std::string>* lines, std::string_view name, const std::string& hash,
                  std::vector<std::string> value) {
    lines->push_back("--" + std::string(name) + " " + hash + "--");
    for (auto& l : value)
      lines->push_back(std::move(l));
  }

  std::vector<std::string> telt_block(const std::string& hash) {
    std::vector<std::string> lines{"#!telt [3-char SHA: " + hash + "]"};
    if (rng_.chance(0.2)) lines.push_back("// " + sentence());
    const size_t commands = rng_.chance(0.7) ? 1 : rng_.between(2, 3);
    for (size_t c = 0; c < commands; ++c) {
      switch (rng_.below(8)) {
      case 0:
      case 1:
      case 2:
        lines.push_back("=== CREATE_FILE ===");
        telt_param(&lines, "FILE", hash, {path()});
        telt_param(&lines, "CONTENT", hash, code(60));
        break;
      case 3:
      case 4:
        lines.push_back("=== REPLACE_TEXT ===");
        telt_param(&lines, "FILE", hash, {path()});
        telt_param(&lines, "OLD_TEXT", hash, code(10));
        telt_param(&lines, "NEW_TEXT", hash, code(14));
        break;
      case 5:
        lines.push_back("=== APPEND_FILE ===");
        telt_param(&lines, "PATH", hash, {path()});
        telt_param(&lines, "CONTENT", hash, code(20));
        break;
      case 6:
        lines.push_back("=== EXEC ===");
        telt_param(&lines, "LANG", hash, {"bash"});
        telt_param(&lines, "CODE", hash, code(8));
        break;
      default:
        lines.push_back(rng_.chance(0.5) ? "=== DELETE_FILE ===" : "=== CREATE_DIR ===");
        telt_param(&lines, "PATH", hash, {path()});
      }
    }
    lines.push_back("--END " + hash + "--");
    return lines;
  }

  void break_telt(std::vector<std::string>* lines, const std::string& hash) {
    const std::string param_suffix = " " + hash + "--";
    auto find_param = [&]() -> std::string* {
      for (size_t i = 1; i + 1 < lines->size(); ++i) {
        std::string& l = (*lines)[i];
        if (l.starts_with("--") && l.ends_with(param_suffix)) return &l;
      }
      return nullptr;
    };
    switch (rng_.below(4)) {
    case 0: // a delimiter with another hash
      if (std::string* l = find_param()) {
        l->replace(l->size() - param_suffix.size() + 1, 3, id());
        return;
      }
      [[fallthrough]];
    case 1: // missing end marker
      lines->pop_back();
      return;
    case 2: // misspelt command
      for (auto& l : *lines) {
        if (l.starts_with("=== ") && l.size() > 9) {
          std::swap(l[5], l[6]);
          return;
        }
      }
      return;
    default: // near-miss delimiter
      if (std::string* l = find_param()) l->insert(2, " ");
    }
  }

  // ---- turns -------------------------------------------------------------------------------
  void emit(const std::vector<std::string>& lines) {
    for (const auto& l : lines) {
      out_.append(l);
      out_.push_back('\n');
    }
  }

  // ---- heredoc and Aider edit blocks ------------------------------------------------------
  // A heredoc file write, fenced as models write it; broken ones use the sloppy start-line
  // spellings and indented terminators that models produce (each a syntax_info with a fix).
  void heredoc_block(bool broken) {
    ++stats_->heredoc_blocks;
    const bool append = rng_.chance(0.1);
    out_.append("```bash\n");
    out_.append(broken ? "CAT>" : (append ? "cat >> " : "cat > "));
    out_.append(path());
    out_.append(broken ? " << EOF\n" : " << 'EOF'\n");
    emit(code(40));
    out_.append(broken && rng_.chance(0.5) ? "  EOF\n" : "EOF\n");
    out_.append("```\n\n");
  }

  // An Aider SEARCH/REPLACE edit after its filename line; broken ones lose the divider (the
  // fence closes first: MALFORMED_EDIT) or widen a marker.
  void edit_block(bool broken) {
    ++stats_->editblock_blocks;
    std::string file = path();
    out_.append(std::string_view(file).substr(std::string_view("/home/dev/").size()));
    out_.append("\n```\n");
    out_.append(broken && rng_.chance(0.5) ? "<<<<<<<< SEARCH\n" : "<<<<<<< SEARCH\n");
    emit(code(12));
    const bool lose_divider = broken && rng_.chance(0.5);
    if (!lose_divider) {
      out_.append("=======\n");
      emit(code(16));
      out_.append(">>>>>>> REPLACE\n");
    }
    out_.append("```\n\n");
  }

  // A replacer edit (seed 001's <<<FILE>>> format); broken ones lose their SEARCH section
  // (MALFORMED_EDIT: a REPLACE without SEARCH).
  void replacer_block(bool broken) {
    ++stats_->replacer_blocks;
    if (rng_.chance(0.5)) {
      out_.append("<<<EXPLANATION>>>\n");
      out_.append(sentence());
      out_.push_back('\n');
    }
    std::string file = path();
    out_.append("<<<FILE>>>\n");
    out_.append(std::string_view(file).substr(std::string_view("/home/dev/").size()));
    out_.push_back('\n');
    if (!broken) {
      out_.append("<<<SEARCH>>>\n");
      emit(code(12));
    }
    out_.append("<<<REPLACE>>>\n");
    emit(code(16));
    out_.append("<<<END>>>\n\n");
  }

  // Command input with ---NAME--- sections (seed 002); broken ones repeat a delimiter
  // (DELIMITER_COLLISION).
  void sections_block(bool broken) {
    ++stats_->sections_blocks;
    out_.append("```bash\nchatroom task-started << 'PARAMS_END'\n---TITLE---\n");
    out_.append(sentence());
    out_.append("\n---DESCRIPTION---\n");
    for (size_t i = 0, n = rng_.between(1, 4); i < n; ++i) {
      out_.append(sentence());
      out_.push_back('\n');
    }
    if (broken) out_.append("---TITLE---\nagain\n");
    out_.append("PARAMS_END\n```\n\n");
  }

  // A Codex patch: one Update File with a hunk; broken ones drop a '+' of the added lines.
  void patch_block(bool broken) {
    ++stats_->patch_blocks;
    std::string file = path();
    out_.append("```\n*** Begin Patch\n*** Update File: ");
    out_.append(std::string_view(file).substr(std::string_view("/home/dev/").size()));
    out_.append("\n@@\n");
    for (const std::string& l : code(6))
      out_.append(" " + l + "\n");
    for (const std::string& l : code(4))
      out_.append("-" + l + "\n");
    bool first = true;
    for (const std::string& l : code(8)) {
      out_.append(broken && first ? "" : "+");
      out_.append(l + "\n");
      first = false;
    }
    out_.append("*** End Patch\n```\n\n");
  }

  void nesl_fenced(NeslEra era, const std::string& block_id, bool broken) {
    std::vector<std::string> lines = nesl_block(era, block_id);
    if (broken) break_nesl(&lines, nesl_tokens(era, block_id));
    ++(era == NeslEra::sham    ? stats_->sham_blocks
       : era == NeslEra::upper ? stats_->nesl_upper_blocks
                               : stats_->nesl_blocks);
    out_.append(era == NeslEra::sham ? "```sh sham\n" : "```sh nesl\n");
    emit(lines);
    out_.append("```\n\n");
  }

  void telt_fenced(const std::string& block_id, bool broken) {
    std::vector<std::string> lines = telt_block(block_id);
    if (broken) break_telt(&lines, block_id);
    ++stats_->telt_blocks;
    out_.append("```\n");
    emit(lines);
    out_.append("```\n\n");
  }

  void block() {
    const std::string block_id = id();
    const bool broken = rng_.chance(options_.broken_rate);
    stats_->broken_blocks += broken;
    switch (options_.mix) {
    case Mix::heredoc:
      return heredoc_block(broken);
    case Mix::edits:
      return edit_block(broken);
    case Mix::every:
      switch (rng_.below(7)) {
      case 0:
        return nesl_fenced(NeslEra::current, block_id, broken);
      case 1:
        return telt_fenced(block_id, broken);
      case 2:
        return heredoc_block(broken);
      case 3:
        return replacer_block(broken);
      case 4:
        return sections_block(broken);
      case 5:
        return patch_block(broken);
      default:
        return edit_block(broken);
      }
    case Mix::classic:
    case Mix::nesl_only:
      break;
    }
    const size_t kind = options_.mix == Mix::nesl_only ? 0 : rng_.below(100);
    if (kind < 55) {
      std::vector<std::string> lines = nesl_block(NeslEra::current, block_id);
      if (broken) break_nesl(&lines, nesl_tokens(NeslEra::current, block_id));
      ++stats_->nesl_blocks;
      out_.append("```sh nesl\n");
      emit(lines);
      out_.append("```\n\n");
    } else if (kind < 90) {
      std::vector<std::string> lines = telt_block(block_id);
      if (broken) break_telt(&lines, block_id);
      ++stats_->telt_blocks;
      const bool fenced = rng_.chance(0.5);
      if (fenced) out_.append("```\n");
      emit(lines);
      out_.append(fenced ? "```\n\n" : "\n");
    } else {
      const NeslEra era = kind < 95 ? NeslEra::sham : NeslEra::upper;
      std::vector<std::string> lines = nesl_block(era, block_id);
      if (broken) break_nesl(&lines, nesl_tokens(era, block_id));
      ++(era == NeslEra::sham ? stats_->sham_blocks : stats_->nesl_upper_blocks);
      out_.append(era == NeslEra::sham ? "```sh sham\n" : "```sh nesl\n");
      emit(lines);
      out_.append("```\n\n");
    }
  }

  void turn() {
    if (rng_.chance(0.3)) {
      std::string heading;
      fill(rng_.pick(kHeadings), &heading);
      out_.append(heading);
      out_.append("\n\n");
    }
    paragraph();
    if (rng_.chance(0.3)) paragraph();
    if (rng_.chance(0.3)) bullets();
    const size_t blocks = rng_.between(1, 3);
    for (size_t i = 0; i < blocks; ++i) {
      if (i > 0 || rng_.chance(0.5)) {
        out_.append(rng_.pick(kLeadIns));
        out_.append("\n\n");
      }
      block();
    }
    if (rng_.chance(0.5)) paragraph();
  }

  const TranscriptOptions& options_;
  Rng rng_;
  TranscriptStats* stats_;
  std::string out_;
};

} // namespace

std::string generate_transcript(const TranscriptOptions& options, TranscriptStats* stats) {
  TranscriptStats local;
  Writer writer(options, stats ? stats : &local);
  return writer.run();
}

} // namespace blockls::bench
