// libFuzzer target for the whole engine: check_document on the bytes, the streaming
// DocumentParser (chunk sizes derived from the data) against the one-shot parse, `blockls
// stream`'s engine (StreamSession, the same chunks) against `check --format json`, the
// preferred fixes applied and re-checked, the incremental re-check after two edits (the
// fixes, and a data-derived cut and paste) against a full check, the workspace simulation
// reusing the previous version's against a full one, and every output format
// (text report, JSON, SARIF, the language server's diagnostics, lenses, symbols and hover)
// written from the result, invalid UTF-8 included. Any mismatch, broken invariant, exception or
// output that is not valid UTF-8 (or JSON that does not read back) aborts.
#include "apply/simulate.h"
#include "apply/simulation_diff.h"
#include "cli/sarif_report.h"
#include "cli/stream_session.h"
#include "cli/text_report.h"
#include "diagnostics/check.h"
#include "diagnostics/codes.h"
#include "diagnostics/json_report.h"
#include "diagnostics/json_text.h"
#include "fixits/apply_fixes.h"
#include "fixits/parted_check.h"
#include "fixits/verify_fixes.h"
#include "grammar/router/document_parser.h"
#include "grammar/unicode.h"
#include "lsp/features.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdlib.h>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using namespace blockls;

namespace {

[[noreturn]] void fail(const char* what, size_t index, std::string_view detail = {}) {
  std::fprintf(stderr, "document_parser_fuzzer: %s (element %zu)%s%.*s\n", what, index,
               detail.empty() ? "" : ": ", static_cast<int>(detail.size()), detail.data());
  std::abort();
}

#define FUZZ_CHECK(cond, what, index)                                                              \
  do {                                                                                             \
    if (!(cond)) fail(what, index);                                                                \
  } while (0)

// ---- invariants of one parse -----------------------------------------------------------------

bool in_bounds(ByteRange r, size_t size) {
  return r.begin <= r.end && r.end <= size;
}

void check_invariants(std::string_view text, const ParsedDocument& doc,
                      const std::vector<Diagnostic>& diagnostics) {
  const uint32_t line_count = doc.lines.line_count();
  for (size_t b = 0; b < doc.blocks.size(); ++b) {
    const Block& block = doc.blocks[b];
    FUZZ_CHECK(in_bounds(block.range, text.size()), "block range out of bounds", b);
    FUZZ_CHECK(in_bounds(block.id_range, text.size()), "block id range out of bounds", b);
    FUZZ_CHECK(block.start_line < line_count, "block start line past the end", b);
    FUZZ_CHECK(!block.end_line ||
                   (*block.end_line >= block.start_line && *block.end_line < line_count),
               "block end line out of order", b);
    for (const Command& command : block.commands) {
      FUZZ_CHECK(in_bounds(command.name_range, text.size()), "command range out of bounds", b);
      for (const Parameter& param : command.params) {
        FUZZ_CHECK(in_bounds(param.name_range, text.size()), "param name out of bounds", b);
        FUZZ_CHECK(in_bounds(param.value_range, text.size()), "param value out of bounds", b);
      }
    }
  }
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = diagnostics[i];
    if (!find_code(d.code)) fail("diagnostic code missing from the codes table", i, d.code);
    FUZZ_CHECK(in_bounds(d.range, text.size()), "diagnostic range out of bounds", i);
    FUZZ_CHECK(d.line <= line_count, "diagnostic line past the end of input", i);
    FUZZ_CHECK(d.block >= -1 && d.block < static_cast<int32_t>(doc.blocks.size()),
               "diagnostic block index out of range", i);
  }
}

// ---- one-shot vs streaming -------------------------------------------------------------------

void compare_params(std::string_view text, const Parameter& a, const Parameter& b, size_t block) {
  FUZZ_CHECK(a.name == b.name, "param name differs", block);
  FUZZ_CHECK(a.name_range == b.name_range, "param name range differs", block);
  FUZZ_CHECK(a.value_range == b.value_range, "param value range differs", block);
  FUZZ_CHECK(a.line == b.line, "param line differs", block);
  FUZZ_CHECK(a.value(text) == b.value(text), "param value differs", block);
}

void compare_documents(std::string_view text, const ParsedDocument& a, const ParsedDocument& b) {
  FUZZ_CHECK(a.lines.line_count() == b.lines.line_count(), "line count differs", 0);
  FUZZ_CHECK(a.blocks.size() == b.blocks.size(), "block count differs", 0);
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const Block& x = a.blocks[i];
    const Block& y = b.blocks[i];
    FUZZ_CHECK(x.dialect == y.dialect && x.era == y.era, "block dialect/era differs", i);
    FUZZ_CHECK(x.id == y.id && x.id_range == y.id_range, "block id differs", i);
    FUZZ_CHECK(x.start_line == y.start_line && x.end_line == y.end_line, "block lines differ", i);
    FUZZ_CHECK(x.range == y.range, "block range differs", i);
    FUZZ_CHECK(x.fence_close_line == y.fence_close_line, "block fence differs", i);
    FUZZ_CHECK(x.commands.size() == y.commands.size(), "command count differs", i);
    for (size_t c = 0; c < x.commands.size(); ++c) {
      const Command& cx = x.commands[c];
      const Command& cy = y.commands[c];
      FUZZ_CHECK(cx.name == cy.name && cx.name_range == cy.name_range, "command name differs", i);
      FUZZ_CHECK(cx.line == cy.line, "command line differs", i);
      FUZZ_CHECK(cx.params.size() == cy.params.size(), "param count differs", i);
      for (size_t p = 0; p < cx.params.size(); ++p)
        compare_params(text, cx.params[p], cy.params[p], i);
    }
  }
  FUZZ_CHECK(a.diagnostics.size() == b.diagnostics.size(), "diagnostic count differs", 0);
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const Diagnostic& x = a.diagnostics[i];
    const Diagnostic& y = b.diagnostics[i];
    if (x.code != y.code)
      fail("diagnostic code differs", i, std::string(x.code) + " vs " + std::string(y.code));
    FUZZ_CHECK(x.severity == y.severity && x.dialect == y.dialect, "diagnostic kind differs", i);
    FUZZ_CHECK(x.block == y.block, "diagnostic block differs", i);
    FUZZ_CHECK(x.line == y.line && x.range == y.range, "diagnostic position differs", i);
    FUZZ_CHECK(x.message == y.message && x.fix_hint == y.fix_hint, "diagnostic text differs", i);
    FUZZ_CHECK(x.fixes == y.fixes, "diagnostic fixes differ", i);
  }
}

// Two ordered diagnostic lists: the same diagnostics, in the same order.
void compare_ordered(const std::vector<Diagnostic>& a, const std::vector<Diagnostic>& b) {
  FUZZ_CHECK(a.size() == b.size(), "checked diagnostic count differs", 0);
  for (size_t i = 0; i < a.size(); ++i) {
    const Diagnostic& x = a[i];
    const Diagnostic& y = b[i];
    FUZZ_CHECK(x.code == y.code && x.severity == y.severity && x.block == y.block &&
                   x.line == y.line && x.range == y.range,
               "checked diagnostic differs", i);
    FUZZ_CHECK(x.message == y.message && x.fix_hint == y.fix_hint && x.fixes == y.fixes,
               "checked diagnostic text differs", i);
  }
}

void compare_checked(std::string_view text, const CheckedDocument& a, const CheckedDocument& b) {
  compare_documents(text, a.parsed, b.parsed);
  FUZZ_CHECK(a.parsed.resume_points.size() == b.parsed.resume_points.size(),
             "resume point count differs", 0);
  for (size_t i = 0; i < a.parsed.resume_points.size(); ++i) {
    const ResumePoint& x = a.parsed.resume_points[i];
    const ResumePoint& y = b.parsed.resume_points[i];
    FUZZ_CHECK(x.offset == y.offset && x.line == y.line && x.blocks == y.blocks &&
                   x.diagnostics == y.diagnostics && x.same_state(y) &&
                   x.before_start == y.before_start,
               "resume point differs", i);
  }
  compare_ordered(a.diagnostics, b.diagnostics);
  FUZZ_CHECK(a.verdicts.size() == b.verdicts.size(), "verdict count differs", 0);
  for (size_t i = 0; i < a.verdicts.size(); ++i)
    FUZZ_CHECK(a.verdicts[i].valid == b.verdicts[i].valid &&
                   a.verdicts[i].error_count == b.verdicts[i].error_count &&
                   a.verdicts[i].warning_count == b.verdicts[i].warning_count,
               "verdict differs", i);
}

// ---- output formats --------------------------------------------------------------------------

// `out` is valid UTF-8 (what every format promises, whatever the input's bytes).
void check_utf8(std::string_view out, const char* format) {
  const size_t bad = unicode::first_invalid_utf8(out);
  if (bad != std::string_view::npos) fail("output is not valid UTF-8", bad, format);
}

// JSON text as the program wrote it: valid UTF-8 that reads back as JSON.
void check_json_text(std::string_view text, const char* format) {
  check_utf8(text, format);
  if (nlohmann::json::parse(text, nullptr, false).is_discarded())
    fail("JSON output does not read back", 0, format);
}

// The JSON text of `value` as the program writes it.
void check_json(const nlohmann::json& value, const char* format) {
  check_json_text(dump_json(value, 1), format);
}

// Every output format written from `checked`, the check of `text`. Exceptions escape to
// libFuzzer, which reports them as crashes.
void check_outputs(std::string_view text, const CheckedDocument& checked) {
  std::ostringstream report;
  cli::print_text_diagnostics(report, "fuzz.md", text, checked, cli::TextStyle{});
  check_utf8(report.str(), "text report");
  cli::print_text_diagnostics(report, "fuzz.md", text, checked, cli::TextStyle{true});
  check_utf8(report.str(), "text report, colour");
  check_json(document_json(text, checked), "check --format json");
  std::string sarif;
  JsonWriter sarif_writer(&sarif, 1);
  cli::write_sarif_log(sarif_writer, {{"fuzz.md", text, &checked}}, "fuzz",
                       "https://example.invalid/");
  check_json_text(sarif, "sarif");

  // The language server's view of the same text: a fresh analysis (no workspace root).
  static const std::shared_ptr<const lsp::AnalysisContext> context =
      lsp::make_context(lsp::Settings{}, {});
  const auto analysis = lsp::analyze(std::make_shared<const std::string>(text), 1, 1, context);
  for (const lsp::PositionEncoding encoding :
       {lsp::PositionEncoding::utf16, lsp::PositionEncoding::utf8}) {
    const lsp::FeatureContext features{*analysis, "file:///fuzz.md", encoding,
                                       "https://example.invalid/"};
    check_json(lsp::diagnostics_json(features), "lsp diagnostics");
    check_json(lsp::code_lenses(features), "lsp code lenses");
    check_json(lsp::document_symbols(features), "lsp symbols");
    check_json(lsp::folding_ranges(features), "lsp folding");
    if (const auto edit = lsp::fix_all_edit(features)) check_json(*edit, "lsp fix all");
    for (const Block& b : analysis->checked().parsed.blocks)
      if (const auto hover = lsp::hover(features, {b.start_line, 1}))
        check_json(*hover, "lsp hover");
  }
}

// Chunk sizes come from a hash of the input, so a crash reproduces from the file alone.
class ChunkPlan {
public:
  explicit ChunkPlan(std::string_view text) {
    uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (unsigned char c : text)
      h = (h ^ c) * 1099511628211ULL;
    state_ = h | 1;
    mode_ = static_cast<int>(next() % 4);
  }

  // Size of the chunk that starts at `pos` (may be 0: an empty feed is legal).
  size_t next_size(std::string_view text, size_t pos) {
    switch (mode_) {
    case 0:
      return 1;
    case 1:
      return next() % 17; // 0..16
    case 2:
      return 1 + next() % 4096;
    default: { // cut right after every '\r' and '\n' (splits "\r\n" between two feeds)
      size_t end = pos;
      while (end < text.size() && text[end] != '\r' && text[end] != '\n')
        ++end;
      return end - pos + 1;
    }
    }
  }

  ParseOptions options() {
    const uint64_t r = next() % 8;
    ParseOptions o;
    // Now and then one registered dialect off.
    if (r >= 6) o.dialects.erase(static_cast<Dialect>(next() % kDialectCount));
    return o;
  }

private:
  uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }

  uint64_t state_ = 0;
  int mode_ = 0;
};

// ---- `blockls stream` vs `check --format json` -----------------------------------------------

// `streamed` without its first `lines` lines ("" when it has no more).
std::string without_lines(const std::string& streamed, int lines) {
  size_t at = 0;
  for (int i = 0; i < lines; ++i) {
    at = streamed.find('\n', at);
    if (at == std::string::npos) return "";
    ++at;
  }
  return streamed.substr(at);
}

// An error's `context_window` and NESL `context` quote lines after the error, which a stream
// has not read when its block closes (docs/stream.md): the window is compared up to the error's
// own line; the context, nesl-js's 5 lines on the text read so far, is shifted back when that
// text ends less than 3 lines after the error, so without its first 0 to 2 lines it must be a
// prefix of check's; every other field exactly.
bool same_streamed_error(nlohmann::json got, nlohmann::json want) {
  for (nlohmann::json* e : {&got, &want}) {
    std::string window = e->value("context_window", "");
    const size_t mark = window.find("<-- ERROR HERE");
    if (mark != std::string::npos) window.resize(mark);
    (*e)["context_window"] = window;
  }
  if (got.contains("context") || want.contains("context")) {
    const std::string g = got.value("context", ""), w = want.value("context", "");
    if (!w.starts_with(g) && !w.starts_with(without_lines(g, 1)) &&
        !w.starts_with(without_lines(g, 2)))
      return false;
    got.erase("context");
    want.erase("context");
  }
  return got == want;
}

// Streams `text` through cli::StreamSession in `plan`'s chunks and aborts unless the blocks
// and errors of its events, in order, and its summary are those of `check --format json`
// with the same options, each block_start comes before its block_end and `done` comes last.
void check_stream(std::string_view text, ChunkPlan& plan, const CheckOptions& options) {
  const CheckedDocument checked = check_with_verified_fixes(text, options);
  const nlohmann::json want =
      document_json(text, checked, options.catalog ? *options.catalog : ActionCatalog::builtin());
  nlohmann::json blocks = nlohmann::json::array(), errors = nlohmann::json::array(), summary;
  size_t starts = 0;
  bool done = false;
  // The value_chunk texts of each value: (block, command, param, line) -> their concatenation.
  std::map<std::tuple<size_t, size_t, std::string, size_t>, std::string> values;
  cli::StreamSession session(options, [&](const cli::StreamEvent& raw) {
    const nlohmann::json e = nlohmann::json::parse(raw.json);
    FUZZ_CHECK(e.at("event") == std::string(raw.type),
               "stream: an event's type is not its \"event\"", 0);
    FUZZ_CHECK(!done, "stream: an event after done", 0);
    const std::string& event = e.at("event").get_ref<const std::string&>();
    if (event == "block_start") {
      ++starts;
    } else if (event == "value_chunk") {
      FUZZ_CHECK(starts > blocks.size(), "stream: value_chunk outside an open block", starts);
      values[{starts - 1, e.at("command").get<size_t>(), e.at("param").get<std::string>(),
              e.at("line").get<size_t>()}] += e.at("text").get<std::string>();
    } else if (event == "block_end") {
      FUZZ_CHECK(blocks.size() < starts, "stream: block_end before its block_start", starts);
      blocks.push_back(e.at("block"));
      for (const nlohmann::json& error : e.at("errors"))
        errors.push_back(error);
    } else if (event == "error") {
      errors.push_back(e.at("error"));
    } else if (event == "done") {
      summary = e.at("summary");
      done = true;
    }
  });
  for (size_t pos = 0; pos < text.size();) {
    const size_t n = std::min(plan.next_size(text, pos), text.size() - pos);
    session.feed(text.substr(pos, n));
    pos += n;
  }
  const size_t error_count = session.finish();
  FUZZ_CHECK(done, "stream: no done event", 0);
  FUZZ_CHECK(starts == want["blocks"].size(), "stream: block_start count differs", starts);
  const nlohmann::json& want_blocks = want["blocks"];
  FUZZ_CHECK(blocks.size() == want_blocks.size(), "stream: block_end count differs", blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i] != want_blocks[i])
      fail("stream: block differs from check's", i,
           dump_json(blocks[i]) + " vs " + dump_json(want_blocks[i]));
  const nlohmann::json& want_errors = want["errors"];
  FUZZ_CHECK(errors.size() == want_errors.size(), "stream: error count differs", errors.size());
  for (size_t i = 0; i < errors.size(); ++i)
    if (!same_streamed_error(errors[i], want_errors[i]))
      fail("stream: error differs from check's", i,
           dump_json(errors[i]) + " vs " + dump_json(want_errors[i]));
  FUZZ_CHECK(summary == want["summary"], "stream: summary differs", 0);
  // A value's chunks, concatenated, are the value of its parameter (the one of its name in
  // check's block whose value begins on the line after the value's key line, `line`), when it
  // became one: a heredoc the input never closed, or a key given twice, may leave it none
  // (docs/stream.md).
  for (const auto& [key, streamed] : values) {
    const auto& [b, c, param, line] = key;
    FUZZ_CHECK(b < checked.parsed.blocks.size(), "stream: value_chunk of no block", b);
    const Block& block = checked.parsed.blocks[b];
    if (c >= block.commands.size()) continue;
    // (Compared as JSON text: the events carry invalid UTF-8 as U+FFFD, as every output does.)
    for (const Parameter& p : block.commands[c].params)
      if (p.name == param && checked.parsed.lines.line_of(p.value_range.begin) == line &&
          dump_json(nlohmann::json(std::string(p.value(text)))) !=
              dump_json(nlohmann::json(streamed)))
        fail("stream: value_chunk texts differ from the value", b,
             param + ": " + streamed + " vs " + std::string(p.value(text)));
  }
  FUZZ_CHECK(error_count == want["summary"]["errors"].get<size_t>(), "stream: exit count differs",
             error_count);
}

} // namespace

// ---- incremental workspace checks ------------------------------------------------------------

// A root made once per process, with a few files for the blocks to read and edit.
const apply::ApplyConfig& fuzz_root() {
  static const apply::ApplyConfig config = [] {
    char dir[] = "/tmp/blockls-fuzz-root-XXXXXX";
    if (!mkdtemp(dir)) fail("cannot make the fuzz root", 0);
    const std::string root = dir;
    std::filesystem::create_directories(root + "/d");
    std::ofstream(root + "/a.txt") << "alpha beta\n";
    std::ofstream(root + "/d/c.txt") << "gamma\n";
    static const std::string made = root;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(made, ec);
    });
    apply::ApplyConfig c;
    std::string error;
    if (!apply::make_config(root, &c, &error)) fail("cannot configure the fuzz root", 0, error);
    return c;
  }();
  return config;
}

// One version of a document with its plan and simulation (the plan and the simulation point
// into the text and the checked document, which stay where they are).
struct Simulated {
  std::string_view text;
  const CheckedDocument* checked = nullptr;
  apply::Plan plan;
  apply::Simulation simulation;
};

// `changed_files`: what changed on disk since `base` (null: unknown, every observation read).
// `window`: the re-parse's window when v->checked was re-checked from base->checked (null: not
// told, every block is looked up and compared).
void simulate(Simulated* v, apply::PathMemo* paths, const Simulated* base,
              const std::vector<std::string>* changed_files = nullptr,
              const ReparseWindow* window = nullptr,
              std::vector<apply::BlockSimulation>* spare = nullptr) {
  v->plan = apply::build_plan(v->text, *v->checked, ActionCatalog::builtin());
  const apply::SimulationInput input{v->text, v->checked, &v->plan, &fuzz_root()};
  apply::SimulationOptions options;
  options.paths = paths;
  options.spare = spare;
  apply::SimulationBase previous;
  if (base) {
    previous = {base->text,    base->checked, &base->plan, &base->simulation,
                changed_files, nullptr,       window};
    options.base = &previous;
  }
  v->simulation = apply::simulate_plan(input, apply::DiskSource(), options);
}

// The simulation of `after` reusing that of `before` (what the language server runs after an
// edit) == a full simulation of `after`. `window`: after_checked is the incremental re-check of
// before_checked with this re-parse window (the simulation then takes the blocks outside it
// over by their place), null when it was checked in full.
void check_incremental_simulation(std::string_view before, const CheckedDocument& before_checked,
                                  std::string_view after, const CheckedDocument& after_checked,
                                  const ReparseWindow* window) {
  apply::PathMemo paths, fresh_paths;
  Simulated old{before, &before_checked, {}, {}};
  simulate(&old, &paths, nullptr);
  Simulated reused{after, &after_checked, {}, {}}, full{after, &after_checked, {}, {}};
  // The fuzz root never changes: half the inputs tell the simulation so (it then reads again
  // only what the edit may have changed), half leave it unknown (it reads everything again).
  const std::vector<std::string> nothing_changed;
  // Half the inputs write the result over spare blocks (as the language server writes over
  // those of its analysis before the previous one): here another simulation of `before`'s.
  std::vector<apply::BlockSimulation> spare;
  if (before.size() % 2) {
    apply::PathMemo spare_paths;
    Simulated other{before, &before_checked, {}, {}};
    simulate(&other, &spare_paths, nullptr);
    spare = std::move(other.simulation.blocks);
  }
  simulate(&reused, &paths, &old, after.size() % 2 ? &nothing_changed : nullptr, window, &spare);
  simulate(&full, &fresh_paths, nullptr);
  const std::string difference = apply::simulation_difference(full.simulation, reused.simulation);
  if (!difference.empty()) fail("a reusing simulation differs from a full one", 0, difference);
}

// (6) `blockls check` of a large input, in parts (fixits/parted_check.h), serial and with the
// parse on a second thread, in parts of a data-derived size: the parts put together are the
// whole check's blocks, verdicts and diagnostics (block indices counted in the whole
// document), with the same fixes.
static void check_parts(std::string_view text, const CheckedDocument& whole) {
  const size_t part_bytes = 1 + std::hash<std::string_view>{}(text) % 512;
  for (const bool pipelined : {false, true}) {
    LineIndex lines = index_document_lines(text);
    size_t blocks = 0, diagnostics = 0;
    check_in_parts(
        text, lines, {}, part_bytes,
        [&](const CheckedDocument& part) {
          const size_t first_block = blocks;
          for (size_t b = 0; b < part.parsed.blocks.size(); ++b, ++blocks) {
            FUZZ_CHECK(blocks < whole.parsed.blocks.size(), "parts: a block too many", blocks);
            const Block& got = part.parsed.blocks[b];
            const Block& want = whole.parsed.blocks[blocks];
            FUZZ_CHECK(got.range.begin == want.range.begin && got.range.end == want.range.end &&
                           got.dialect == want.dialect && got.id == want.id,
                       "parts: a block differs", blocks);
            FUZZ_CHECK(part.verdicts[b].valid == whole.verdicts[blocks].valid,
                       "parts: a verdict differs", blocks);
          }
          for (const Diagnostic& d : part.diagnostics) {
            FUZZ_CHECK(diagnostics < whole.diagnostics.size(), "parts: a diagnostic too many",
                       diagnostics);
            const Diagnostic& want = whole.diagnostics[diagnostics];
            const int32_t block = d.block < 0 ? -1 : d.block + static_cast<int32_t>(first_block);
            FUZZ_CHECK(d.code == want.code && d.line == want.line &&
                           d.range.begin == want.range.begin && d.range.end == want.range.end &&
                           block == want.block && d.message == want.message &&
                           d.fixes == want.fixes,
                       "parts: a diagnostic differs", diagnostics);
            ++diagnostics;
          }
          return true;
        },
        pipelined);
    FUZZ_CHECK(blocks == whole.parsed.blocks.size(), "parts: blocks missing", blocks);
    FUZZ_CHECK(diagnostics == whole.diagnostics.size(), "parts: diagnostics missing", diagnostics);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // (1) the engine as the CLI and the server call it.
  // The parser's own list is kept: the server's checks, which step (4) re-checks.
  CheckOptions keep;
  keep.keep_parser_diagnostics = true;
  const CheckedDocument checked = check_with_verified_fixes(text, keep);
  check_invariants(text, checked.parsed, checked.diagnostics);
  FUZZ_CHECK(checked.verdicts.size() == checked.parsed.blocks.size(), "one verdict per block", 0);
  check_outputs(text, checked);
  check_parts(text, checked);

  // (2) streaming in data-derived chunks == one-shot parse.
  ChunkPlan plan(text);
  const ParseOptions options = plan.options();
  const ParsedDocument one_shot = parse_document(text, options);
  DocumentParser parser(options);
  for (size_t pos = 0; pos < size;) {
    const size_t n = std::min(plan.next_size(text, pos), size - pos);
    parser.feed(text.substr(pos, n));
    pos += n;
  }
  const ParsedDocument streamed = parser.finish();
  FUZZ_CHECK(parser.text() == text, "streaming buffer differs from the input", 0);
  compare_documents(text, one_shot, streamed);

  // (2b) `blockls stream`'s engine, in chunks from the same plan (continued), with the same
  // options == `check --format json`.
  CheckOptions stream_options;
  stream_options.parse = options;
  check_stream(text, plan, stream_options);

  // (3) the preferred fixes applied at once, then the result checked again.
  std::string fixed;
  apply_preferred_fixes(text, checked.diagnostics, &fixed);
  const CheckedDocument rechecked = check_document(fixed, keep);
  check_invariants(fixed, rechecked.parsed, rechecked.diagnostics);
  // The default check moves the parser's list into the ordered one: the same diagnostics.
  const CheckedDocument unkept = check_document(fixed);
  FUZZ_CHECK(unkept.parsed.diagnostics.empty() && !unkept.parser_diagnostics_kept,
             "the parser's list was kept unasked", 0);
  compare_ordered(unkept.diagnostics, rechecked.diagnostics);

  // (4) incremental re-checks == full checks: after the fixes, then after moving a span of the
  // fixed text elsewhere (positions from the data's hash); then (5) the workspace simulations of
  // those versions, each reusing the one before, against full ones.
  CheckedDocument fixed_full = rechecked; // check_with_verified_fixes(fixed), one parse fewer
  verify_fixes(fixed, fixed_full);
  bool fixed_reparsed = false;
  ReparseWindow fixed_window;
  const CheckedDocument fixed_incremental = recheck_with_verified_fixes(
      text, checked, fixed, keep, &fixed_reparsed, nullptr, &fixed_window);
  compare_checked(fixed, fixed_incremental, fixed_full);
  if (!fixed.empty()) {
    const size_t h = std::hash<std::string_view>{}(text);
    const size_t from = h % fixed.size();
    const size_t length = std::min<size_t>((h >> 20) % 64, fixed.size() - from);
    std::string moved = fixed;
    const std::string span = moved.substr(from, length);
    moved.erase(from, length);
    moved.insert((h >> 40) % (moved.size() + 1), span);
    const CheckedDocument moved_full = check_with_verified_fixes(moved, keep);
    bool moved_reparsed = false;
    ReparseWindow moved_window;
    const CheckedDocument moved_incremental = recheck_with_verified_fixes(
        fixed, fixed_full, moved, keep, &moved_reparsed, nullptr, &moved_window);
    compare_checked(moved, moved_incremental, moved_full);
    // (5) the workspace simulation after each edit, reusing the one before == a full one: of
    // the full checks, and of the incremental ones told their windows (as the language server
    // runs them).
    check_incremental_simulation(text, checked, fixed, fixed_full, nullptr);
    check_incremental_simulation(fixed, fixed_full, moved, moved_full, nullptr);
    check_incremental_simulation(text, checked, fixed, fixed_incremental,
                                 fixed_reparsed ? &fixed_window : nullptr);
    check_incremental_simulation(fixed, fixed_full, moved, moved_incremental,
                                 moved_reparsed ? &moved_window : nullptr);
  }
  return 0;
}
