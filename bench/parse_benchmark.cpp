// The blockls throughput benchmark: parse+validate speed on a generated ~10 MB transcript,
// measured beside a memchr newline scan of the same buffer, plus the peak heap of one
// check_document. A custom main runs Google Benchmark, then prints the report (bench/README.md).
#include "bench/heap_tracker.h"
#include "bench/transcript_generator.h"
#include "cli/process_heap.h"
#include "diagnostics/check.h"
#include "fixits/verify_fixes.h"
#include "grammar/router/document_parser.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace blockls::bench {
namespace {

constexpr double kNeslJsBytesPerSecond = 46e6; // nesl-js under node on these machines
constexpr double kNeslJsAim = 20.0;            // we aim at 20x nesl-js
constexpr double kMemchrRatioTarget = 0.25;    // parse+validate >= 0.25x the memchr scan
constexpr double kPeakHeapTarget = 3.0;        // peak heap <= 3x the input
constexpr size_t kStreamChunk = 4096;

struct Corpus {
  std::string name; // "mixed", "nesl", "heredoc", "edits", "every"
  std::string text;
  TranscriptStats stats;
};

// ---- benchmarks ----------------------------------------------------------------------------

size_t count_newlines(std::string_view text) {
  size_t count = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    const void* hit = std::memchr(p, '\n', static_cast<size_t>(end - p));
    if (!hit) break;
    ++count;
    p = static_cast<const char*>(hit) + 1;
  }
  return count;
}

void set_bytes(benchmark::State& state, const Corpus& corpus) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(corpus.text.size()));
}

void BM_MemchrNewlineScan(benchmark::State& state, const Corpus* corpus) {
  size_t lines = 0;
  for (auto _ : state) {
    lines = count_newlines(corpus->text);
    benchmark::DoNotOptimize(lines);
  }
  state.counters["lines"] = static_cast<double>(lines);
  set_bytes(state, *corpus);
}

void BM_ParseDocument(benchmark::State& state, const Corpus* corpus) {
  size_t blocks = 0, diagnostics = 0;
  for (auto _ : state) {
    ParsedDocument doc = parse_document(corpus->text);
    benchmark::DoNotOptimize(doc.blocks.data());
    blocks = doc.blocks.size();
    diagnostics = doc.diagnostics.size();
  }
  state.counters["blocks"] = static_cast<double>(blocks);
  state.counters["diags"] = static_cast<double>(diagnostics);
  set_bytes(state, *corpus);
}

void BM_ParseAndValidate(benchmark::State& state, const Corpus* corpus) {
  size_t blocks = 0, diagnostics = 0;
  for (auto _ : state) {
    CheckedDocument checked = check_document(corpus->text);
    benchmark::DoNotOptimize(checked.diagnostics.data());
    blocks = checked.parsed.blocks.size();
    diagnostics = checked.diagnostics.size();
  }
  state.counters["blocks"] = static_cast<double>(blocks);
  state.counters["diags"] = static_cast<double>(diagnostics);
  set_bytes(state, *corpus);
}

// What the CLI and the language server run: parse + validate + verification of every fix.
void BM_CheckWithVerifiedFixes(benchmark::State& state, const Corpus* corpus) {
  for (auto _ : state) {
    CheckedDocument checked = check_with_verified_fixes(corpus->text);
    benchmark::DoNotOptimize(checked.diagnostics.data());
  }
  set_bytes(state, *corpus);
}

ParsedDocument stream_parse(std::string_view text) {
  DocumentParser parser;
  for (size_t pos = 0; pos < text.size(); pos += kStreamChunk) {
    parser.feed(text.substr(pos, kStreamChunk));
  }
  return parser.finish();
}

void BM_StreamingParse(benchmark::State& state, const Corpus* corpus) {
  size_t blocks = 0, diagnostics = 0;
  for (auto _ : state) {
    ParsedDocument doc = stream_parse(corpus->text);
    benchmark::DoNotOptimize(doc.blocks.data());
    blocks = doc.blocks.size();
    diagnostics = doc.diagnostics.size();
  }
  state.counters["blocks"] = static_cast<double>(blocks);
  state.counters["diags"] = static_cast<double>(diagnostics);
  set_bytes(state, *corpus);
}

// The new dialects' transcripts: the target figure (check beside memchr) only, so the run
// stays short.
void register_ratio_benchmarks(const Corpus& corpus) {
  const std::string suffix = "/" + corpus.name;
  benchmark::RegisterBenchmark(("BM_MemchrNewlineScan" + suffix).c_str(), BM_MemchrNewlineScan,
                               &corpus)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("BM_ParseAndValidate" + suffix).c_str(), BM_ParseAndValidate,
                               &corpus)
      ->Unit(benchmark::kMillisecond);
}

void register_benchmarks(const Corpus& corpus) {
  const std::string suffix = "/" + corpus.name;
  benchmark::RegisterBenchmark(("BM_MemchrNewlineScan" + suffix).c_str(), BM_MemchrNewlineScan,
                               &corpus)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("BM_ParseDocument" + suffix).c_str(), BM_ParseDocument, &corpus)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("BM_ParseAndValidate" + suffix).c_str(), BM_ParseAndValidate,
                               &corpus)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("BM_CheckWithVerifiedFixes" + suffix).c_str(),
                               BM_CheckWithVerifiedFixes, &corpus)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("BM_StreamingParse" + suffix).c_str(), BM_StreamingParse, &corpus)
      ->Unit(benchmark::kMillisecond);
}

// ---- report --------------------------------------------------------------------------------

// The console reporter, which also keeps each benchmark's bytes/s for the final report.
class RecordingReporter : public benchmark::ConsoleReporter {
public:
  using ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
      auto it = run.counters.find("bytes_per_second");
      if (it != run.counters.end()) rates_[run.run_name.function_name].push_back(it->second.value);
    }
  }

  // Median bytes/s over the repetitions of `name`, if it ran.
  std::optional<double> rate(const std::string& name) const {
    auto it = rates_.find(name);
    if (it == rates_.end() || it->second.empty()) return std::nullopt;
    std::vector<double> v = it->second;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }

private:
  std::map<std::string, std::vector<double>> rates_;
};

struct PeakHeap {
  size_t bytes = 0;
  size_t blocks = 0;
  size_t diagnostics = 0;
  size_t errors = 0;
};

// Peak heap above the level before the call, with the result still alive at the end. Heap
// tracking is on only here (declared first, so the result is freed while it is still on).
PeakHeap measure_check_peak(std::string_view text) {
  // Chunks kept from earlier parses were allocated before tracking: the parse must take new
  // ones, counted as its own.
  Arena::release_cached_chunks();
  HeapTracking tracking;
  const size_t base = heap_current();
  reset_heap_peak();
  CheckedDocument checked = check_document(text);
  PeakHeap peak{heap_peak() - base, checked.parsed.blocks.size(), checked.diagnostics.size(),
                checked.error_count()};
  return peak;
}

size_t measure_streaming_peak(std::string_view text) {
  Arena::release_cached_chunks(); // as in measure_check_peak
  HeapTracking tracking;
  const size_t base = heap_current();
  reset_heap_peak();
  ParsedDocument doc = stream_parse(text);
  benchmark::DoNotOptimize(doc.blocks.data());
  return heap_peak() - base;
}

double mb(double bytes) {
  return bytes / 1e6;
}

const char* verdict(bool met) {
  return met ? "MET" : "NOT MET";
}

struct PairedRatio {
  double median = 0, low = 0, high = 0;
  int pairs = 0;
};

// The ratio measured in pairs: memchr scans of the buffer, then one check_document of it,
// one right after the other, `pairs` times; the median of the pairs' ratios. Both halves of a
// pair run under the same load of the (shared) machine, which the two benchmarks above, timed
// a second apart, do not: on a busy machine their ratio moves by several percent from run to
// run. A pair holds four scans, about as long as the check.
PairedRatio paired_ratio(std::string_view text, int pairs) {
  using Clock = std::chrono::steady_clock;
  constexpr int kScansPerPair = 4;
  std::vector<double> ratios;
  for (int i = 0; i < pairs + 1; ++i) {
    const auto t0 = Clock::now();
    for (int k = 0; k < kScansPerPair; ++k)
      benchmark::DoNotOptimize(count_newlines(text));
    const auto t1 = Clock::now();
    {
      CheckedDocument checked = check_document(text);
      benchmark::DoNotOptimize(checked.diagnostics.data());
    }
    const auto t2 = Clock::now();
    const double scan = std::chrono::duration<double>(t1 - t0).count() / kScansPerPair;
    const double check = std::chrono::duration<double>(t2 - t1).count();
    if (i > 0 && check > 0) ratios.push_back(scan / check); // the first pair warms up
  }
  std::sort(ratios.begin(), ratios.end());
  PairedRatio r;
  r.pairs = static_cast<int>(ratios.size());
  if (!ratios.empty()) {
    r.median = ratios[ratios.size() / 2];
    r.low = ratios.front();
    r.high = ratios.back();
  }
  return r;
}

void print_rate(const RecordingReporter& reporter, const char* label, const std::string& name) {
  if (auto r = reporter.rate(name)) {
    std::printf("  %-34s %10.1f MB/s\n", label, mb(*r));
  } else {
    std::printf("  %-34s %10s\n", label, "(not run)");
  }
}

void print_corpus(const Corpus& corpus) {
  const TranscriptStats& s = corpus.stats;
  std::printf("  %s transcript: %.2f MB, %zu lines, %zu blocks (telt %zu, nesl %zu, SHAM %zu, "
              "NESL %zu, heredoc %zu, editblock %zu, replacer %zu, sections %zu, patch %zu), %zu "
              "deliberately broken\n",
              corpus.name.c_str(), mb(static_cast<double>(corpus.text.size())), s.lines,
              s.total_blocks(), s.telt_blocks, s.nesl_blocks, s.sham_blocks, s.nesl_upper_blocks,
              s.heredoc_blocks, s.editblock_blocks, s.replacer_blocks, s.sections_blocks,
              s.patch_blocks, s.broken_blocks);
}

// The target line of one of the new dialects' transcripts.
void print_dialect_ratio(const RecordingReporter& reporter, const Corpus& corpus) {
  const auto memchr_rate = reporter.rate("BM_MemchrNewlineScan/" + corpus.name);
  const auto check_rate = reporter.rate("BM_ParseAndValidate/" + corpus.name);
  if (!memchr_rate || !check_rate || *memchr_rate <= 0) {
    std::printf("  %-8s (not run)\n", corpus.name.c_str());
    return;
  }
  const double ratio = *check_rate / *memchr_rate;
  std::printf("  %-8s memchr %8.1f MB/s, check %7.1f MB/s: RATIO %.3fx (target >= %.2fx: %s)\n",
              corpus.name.c_str(), mb(*memchr_rate), mb(*check_rate), ratio, kMemchrRatioTarget,
              verdict(ratio >= kMemchrRatioTarget));
  // The same ratio in interleaved pairs: on a shared machine, load moves both halves of a pair
  // alike, so the median is the steadier figure.
  constexpr int kPairs = 21;
  const PairedRatio paired = paired_ratio(corpus.text, kPairs);
  std::printf("  %-8s ratio in interleaved pairs (median of %d): %.3fx, range %.3f-%.3f "
              "(target >= %.2fx: %s)\n",
              corpus.name.c_str(), paired.pairs, paired.median, paired.low, paired.high,
              kMemchrRatioTarget, verdict(paired.median >= kMemchrRatioTarget));
}

void print_report(const RecordingReporter& reporter, const Corpus& mixed, const Corpus& nesl,
                  const std::vector<const Corpus*>& dialects) {
  std::printf("\n==== blockls benchmark report (MB = 10^6 bytes) ====\n");
  print_corpus(mixed);
  print_corpus(nesl);
  for (const Corpus* c : dialects)
    print_corpus(*c);

  std::printf("\nMixed transcript (the target figure):\n");
  print_rate(reporter, "memchr newline scan", "BM_MemchrNewlineScan/mixed");
  print_rate(reporter, "parse_document", "BM_ParseDocument/mixed");
  print_rate(reporter, "parse+validate (check_document)", "BM_ParseAndValidate/mixed");
  print_rate(reporter, "+ fix verification (CLI, LSP)", "BM_CheckWithVerifiedFixes/mixed");
  print_rate(reporter, "streaming parse (4 KiB chunks)", "BM_StreamingParse/mixed");
  const auto memchr_rate = reporter.rate("BM_MemchrNewlineScan/mixed");
  const auto check_rate = reporter.rate("BM_ParseAndValidate/mixed");
  if (memchr_rate && check_rate && *memchr_rate > 0) {
    const double ratio = *check_rate / *memchr_rate;
    std::printf("  RATIO parse+validate / memchr: %.3fx (target >= %.2fx: %s)\n", ratio,
                kMemchrRatioTarget, verdict(ratio >= kMemchrRatioTarget));
    constexpr int kPairs = 21;
    const PairedRatio paired = paired_ratio(mixed.text, kPairs);
    std::printf("  ratio in interleaved pairs (median of %d): %.3fx, range %.3f-%.3f (target "
                ">= %.2fx: %s)\n",
                paired.pairs, paired.median, paired.low, paired.high, kMemchrRatioTarget,
                verdict(paired.median >= kMemchrRatioTarget));
  } else {
    std::printf("  RATIO parse+validate / memchr: n/a (both benchmarks must run)\n");
  }

  std::printf("\nOne transcript per newer dialect, and all of them mixed (check / memchr):\n");
  for (const Corpus* c : dialects)
    print_dialect_ratio(reporter, *c);

  std::printf("\nPure NESL transcript (comparison with nesl-js at %.0f MB/s):\n",
              mb(kNeslJsBytesPerSecond));
  print_rate(reporter, "memchr newline scan", "BM_MemchrNewlineScan/nesl");
  print_rate(reporter, "parse_document", "BM_ParseDocument/nesl");
  print_rate(reporter, "parse+validate (check_document)", "BM_ParseAndValidate/nesl");
  print_rate(reporter, "+ fix verification (CLI, LSP)", "BM_CheckWithVerifiedFixes/nesl");
  print_rate(reporter, "streaming parse (4 KiB chunks)", "BM_StreamingParse/nesl");
  for (const char* name : {"BM_ParseDocument/nesl", "BM_ParseAndValidate/nesl"}) {
    if (auto r = reporter.rate(name)) {
      const double multiple = *r / kNeslJsBytesPerSecond;
      std::printf("  %-27s = %6.1fx nesl-js (aim %.0fx = %.0f MB/s: %s)\n", name, multiple,
                  kNeslJsAim, mb(kNeslJsAim * kNeslJsBytesPerSecond),
                  verdict(multiple >= kNeslJsAim));
    }
  }
  if (const auto nesl_memchr = reporter.rate("BM_MemchrNewlineScan/nesl")) {
    if (const auto nesl_check = reporter.rate("BM_ParseAndValidate/nesl")) {
      std::printf("  ratio parse+validate / memchr: %.3fx\n", *nesl_check / *nesl_memchr);
    }
  }

  std::printf("\nPeak heap of one check_document (result kept alive; input buffer not counted):\n");
  for (const Corpus* corpus : {&mixed, &nesl}) {
    const PeakHeap peak = measure_check_peak(corpus->text);
    const double input = static_cast<double>(corpus->text.size());
    const double multiple = static_cast<double>(peak.bytes) / input;
    std::printf("  PEAK MEMORY %-5s: %7.2f MB = %.2fx input (target <= %.0fx: %s)"
                "  [%zu blocks, %zu diagnostics, %zu errors]\n",
                corpus->name.c_str(), mb(static_cast<double>(peak.bytes)), multiple,
                kPeakHeapTarget, verdict(multiple <= kPeakHeapTarget), peak.blocks,
                peak.diagnostics, peak.errors);
  }
  const size_t streaming = measure_streaming_peak(mixed.text);
  std::printf("  (informational) streaming parse of mixed, incl. the parser's own copy of the "
              "text: %.2f MB = %.2fx input\n",
              mb(static_cast<double>(streaming)),
              static_cast<double>(streaming) / static_cast<double>(mixed.text.size()));
  if (heap_tracking_overflowed())
    std::printf("  WARNING: more blocks were live than the heap tracker can record; the peak "
                "figures above are too low\n");
}

// ---- main ----------------------------------------------------------------------------------

struct BenchFlags {
  double transcript_mb = 10.0;
  uint64_t seed = TranscriptOptions{}.seed;
  std::string write_transcripts; // directory, empty = do not write
};

// Takes our own --flags out of argv (Google Benchmark rejects unknown ones).
bool parse_own_flags(int* argc, char** argv, BenchFlags* flags) {
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    std::string_view arg = argv[i];
    auto value_of = [&](std::string_view flag) -> std::optional<std::string_view> {
      if (arg.size() > flag.size() && arg.starts_with(flag) && arg[flag.size()] == '=') {
        return arg.substr(flag.size() + 1);
      }
      return std::nullopt;
    };
    if (auto v = value_of("--transcript_mb")) {
      flags->transcript_mb = std::strtod(std::string(*v).c_str(), nullptr);
      if (!(flags->transcript_mb > 0)) {
        std::fprintf(stderr, "blockls_bench: --transcript_mb needs a positive number\n");
        return false;
      }
    } else if (auto v2 = value_of("--seed")) {
      flags->seed = std::strtoull(std::string(*v2).c_str(), nullptr, 0);
    } else if (auto v3 = value_of("--write_transcripts")) {
      flags->write_transcripts = std::string(*v3);
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return true;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

} // namespace
} // namespace blockls::bench

int main(int argc, char** argv) {
  using namespace blockls::bench;
  // The heap settings of the blockls executable (CLI and language server), so that the
  // figures are those of the product.
  blockls::cli::configure_process_heap();
  BenchFlags flags;
  if (!parse_own_flags(&argc, argv, &flags)) return 2;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  TranscriptOptions options;
  options.target_bytes = static_cast<size_t>(flags.transcript_mb * 1e6);
  options.seed = flags.seed;
  Corpus mixed{"mixed", {}, {}};
  mixed.text = generate_transcript(options, &mixed.stats);
  options.mix = Mix::nesl_only;
  Corpus nesl{"nesl", {}, {}};
  nesl.text = generate_transcript(options, &nesl.stats);
  Corpus heredoc{"heredoc", {}, {}}, edits{"edits", {}, {}}, every{"every", {}, {}};
  for (auto [corpus, mix] : {std::pair{&heredoc, Mix::heredoc}, std::pair{&edits, Mix::edits},
                             std::pair{&every, Mix::every}}) {
    options.mix = mix;
    corpus->text = generate_transcript(options, &corpus->stats);
  }
  const std::vector<const Corpus*> dialects = {&heredoc, &edits, &every};

  if (!flags.write_transcripts.empty()) {
    for (const Corpus* c : {&mixed, &nesl, &heredoc, &edits, &every}) {
      const std::string path = flags.write_transcripts + "/transcript-" + c->name + ".md";
      if (!write_file(path, c->text)) {
        std::fprintf(stderr, "blockls_bench: cannot write %s\n", path.c_str());
        return 2;
      }
      std::fprintf(stderr, "blockls_bench: wrote %s\n", path.c_str());
    }
  }

  register_benchmarks(mixed);
  register_benchmarks(nesl);
  for (const Corpus* c : dialects)
    register_ratio_benchmarks(*c);
  RecordingReporter reporter(isatty(STDOUT_FILENO) ? RecordingReporter::OO_ColorTabular
                                                   : RecordingReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::fflush(stdout);
  print_report(reporter, mixed, nesl, dialects);
  benchmark::Shutdown();
  return 0;
}
