// Latency of `blockls lsp` as an editor sees it, as a Google Benchmark binary: each benchmark
// spawns the real binary over pipes with --debounce-ms 0, opens a generated transcript of the
// given size (prose, valid TELT and NESL blocks, one error every ~100 KB), and each iteration
// sends one single-character didChange and waits for the publishDiagnostics of that version.
// After the benchmarks it prints p50/p90/p99/max per benchmark, the server's CPU time per edit
// and the verdicts on the targets (p99 < 5 ms at 1 MB; < 20 ms at 10 MB with a root, over 100
// edits or more, as a p99 of fewer is their largest). With a root it then rewrites a file
// that one block reads and sends didChangeWatchedFiles (type 2), --watched times, and prints
// the latency to the next publishDiagnostics (target < 10 ms at 1 MB). See bench/README.md.
//
// Usage: lsp_latency BLOCKLS_BINARY [MEGABYTES...] (default 1 10) [--edits N] (default 200)
//                    [--watched N] (default 20) [--no-root | --root] (default: both)
//                    [Google Benchmark flags]
#include "lsp/transport.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kTargetP99Ms = 5.0; // at 1 MB
constexpr double kTargetMegabytes = 1.0;
constexpr double kLargeTargetP99Ms = 20.0; // at 10 MB, with a root (issue #20)
constexpr double kLargeTargetMegabytes = 10.0;
constexpr double kTargetWatchedMs = 10.0; // a watched-file change at 1 MB
// A p99 of fewer edits is their largest or second largest: the verdict says so.
constexpr size_t kEditsForP99 = 100;

std::string id3(size_t n) {
  const char* digits = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(3, 'a');
  for (int i = 2; i >= 0; --i, n /= 36)
    s[i] = digits[n % 36];
  return s;
}

std::string transcript(size_t bytes) {
  std::string out;
  for (size_t i = 0; out.size() < bytes; ++i) {
    const std::string h = id3(i % 46656);
    out += "**Assistant:** step " + std::to_string(i) + ", writing a module and fixing a typo.\n\n";
    out += "```telt\n#!telt [3-char SHA: " + h + "]\n=== CREATE_FILE ===\n--FILE " + h +
           "--\nsrc/m" + std::to_string(i) + ".py\n--CONTENT " + h + "--\ndef f():\n    return " +
           std::to_string(i) + "\n--END " + h + "--\n```\n\n";
    out += "```sh nesl\n#!nesl [@three-char-SHA-256: " + h +
           "]\naction = \"write_file\"\npath = \"n/" + std::to_string(i) +
           ".txt\"\ncontent = \"hello\"\n#!end_" + h + "\n```\n\n";
    if (i % 200 == 199)
      out += "```telt\n#!telt [3-char SHA: zz9]\n=== MOVE_FLIE ===\n--END zz9--\n```\n\n";
  }
  return out;
}

// User + system CPU time of process `pid` so far, in milliseconds (0 when unknown).
double process_cpu_ms(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; fields >> field; ++i) { // field 3 is the state; 14 utime, 15 stime
    if (i == 14) utime = std::stoull(field);
    if (i == 15) {
      stime = std::stoull(field);
      break;
    }
  }
  return 1000.0 * static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

class Client {
public:
  explicit Client(const std::string& binary) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) std::exit(2);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      execl(binary.c_str(), binary.c_str(), "lsp", "--debounce-ms", "0", "--log-level", "error",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  pid_t pid() const { return pid_; }
  void send(json m) {
    m["jsonrpc"] = "2.0";
    const std::string bytes = blockls::lsp::frame_message(m.dump());
    for (size_t done = 0; done < bytes.size();) {
      const ssize_t n = write(to_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) std::exit(3);
      done += static_cast<size_t>(n);
    }
  }
  // Next message (waits on the pipe).
  json next() {
    blockls::lsp::Frame f;
    while (!parser_.next(&f)) {
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, 300000) <= 0) {
        std::cerr << "lsp_latency: no message from the server for 300 s\n";
        std::exit(4);
      }
      char buf[1 << 16];
      const ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) {
        std::cerr << "lsp_latency: the server closed its output\n";
        std::exit(5);
      }
      parser_.feed(std::string_view(buf, static_cast<size_t>(n)));
    }
    return json::parse(f.body);
  }
  json wait_for(const std::function<bool(const json&)>& pred) {
    for (;;) {
      json m = next();
      if (pred(m)) return m;
    }
  }
  int finish() {
    send({{"id", 999}, {"method", "shutdown"}});
    wait_for([](const json& m) { return m.contains("id") && m["id"] == 999; });
    send({{"method", "exit"}});
    close(to_);
    close(from_);
    int status = 0;
    waitpid(pid_, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  blockls::lsp::FrameParser parser_{SIZE_MAX};
};

struct Config {
  std::string binary;
  std::vector<double> sizes;
  int edits = 200;
  int watched = 20; // watched-file changes after the edits (with a root)
  bool with_root = true, without_root = true;
};

// What one benchmark run measured, for the report.
struct Result {
  double megabytes = 0;
  bool root = false;
  size_t bytes = 0, diagnostics = 0;
  double open_ms = 0;
  double server_cpu_ms_per_edit = 0;
  int exit_code = 0;
  std::vector<double> samples; // ms, one per edit
  // With a root: a file one block reads rewritten on disk, then a didChangeWatchedFiles of
  // type 2 (changed) -> the publishDiagnostics that follows, ms.
  std::vector<double> watched_samples;
};

Config g_config;
std::map<std::string, Result> g_results; // by benchmark name, in name order
std::vector<std::string> g_order;        // registration order

const std::string& text_of(double megabytes) {
  static std::map<double, std::string> cache;
  auto it = cache.find(megabytes);
  if (it == cache.end())
    it = cache.emplace(megabytes, transcript(static_cast<size_t>(megabytes * 1024 * 1024))).first;
  return it->second;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1,
                    static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

void BM_DidChangeToPublish(benchmark::State& state, const std::string& name, double megabytes,
                           bool with_root) {
  const std::string& text = text_of(megabytes);
  const std::string root = std::filesystem::temp_directory_path() / "blockls-lsp-bench";
  std::filesystem::create_directories(root);
  Result& result = g_results[name];
  result = Result{};
  result.megabytes = megabytes;
  result.root = with_root;
  result.bytes = text.size();

  Client c(g_config.binary);
  json init = {{"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}};
  if (with_root) init["params"]["rootUri"] = "file://" + root;
  c.send(init);
  c.wait_for([](const json& m) { return m.contains("id") && m["id"] == 1; });
  c.send({{"method", "initialized"}, {"params", json::object()}});
  const std::string uri = "file://" + root + "/bench.md";
  auto is_publish = [](int version) {
    return [version](const json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" &&
             m["params"].value("version", -1) == version;
    };
  };
  // The first block writes src/m0.py: make it exist, so that the block reads it and a change
  // of the file on disk concerns that one block.
  const std::string watched_file = root + "/src/m0.py";
  if (with_root) {
    std::filesystem::create_directories(root + "/src");
    std::ofstream(watched_file) << "old = 0\n";
  }
  const auto open_start = Clock::now();
  c.send({{"method", "textDocument/didOpen"},
          {"params",
           {{"textDocument",
             {{"uri", uri}, {"languageId", "markdown"}, {"version", 1}, {"text", text}}}}}});
  const json first = c.wait_for(is_publish(1));
  result.open_ms = std::chrono::duration<double, std::milli>(Clock::now() - open_start).count();
  result.diagnostics = first["params"]["diagnostics"].size();

  const double cpu_before = process_cpu_ms(c.pid());
  int i = 0;
  for (auto _ : state) {
    const int version = i + 2;
    // Alternately insert and delete one character at the start of the first prose line.
    const json range = {{"start", {{"line", 0}, {"character", 15}}},
                        {"end", {{"line", 0}, {"character", i % 2 == 0 ? 15 : 16}}}};
    const auto start = Clock::now();
    c.send({{"method", "textDocument/didChange"},
            {"params",
             {{"textDocument", {{"uri", uri}, {"version", version}}},
              {"contentChanges",
               json::array({{{"range", range}, {"text", i % 2 == 0 ? "x" : ""}}})}}}});
    c.wait_for(is_publish(version));
    result.samples.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    ++i;
  }
  const double cpu_after = process_cpu_ms(c.pid());
  result.server_cpu_ms_per_edit = i > 0 ? (cpu_after - cpu_before) / i : 0;
  // Each edit's latency in order, for a look at where the slow ones fall (appended: one line
  // per edit, "size root index ms").
  if (const char* path = std::getenv("LSP_LATENCY_SAMPLES")) {
    std::ofstream out(path, std::ios::app);
    for (size_t k = 0; k < result.samples.size(); ++k)
      out << megabytes << ' ' << (with_root ? "root" : "no-root") << ' ' << k << ' '
          << result.samples[k] << '\n';
  }
  // Watched-file changes: not Google Benchmark iterations (they do not edit the document).
  const int version = i + 1; // the document's version now
  for (int w = 0; with_root && w < g_config.watched; ++w) {
    std::ofstream(watched_file) << "changed = " << w << "\n";
    const auto start = Clock::now();
    c.send({{"method", "workspace/didChangeWatchedFiles"},
            {"params",
             {{"changes", json::array({{{"uri", "file://" + watched_file}, {"type", 2}}})}}}});
    c.wait_for(is_publish(version));
    result.watched_samples.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::filesystem::remove(watched_file);
  result.exit_code = c.finish();
  if (result.exit_code != 0) state.SkipWithError("the server did not exit with 0");

  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
  state.counters["p50_ms"] = percentile(result.samples, 0.5);
  state.counters["p99_ms"] = percentile(result.samples, 0.99);
  state.counters["diags"] = static_cast<double>(result.diagnostics);
}

void print_report() {
  std::printf("\nLSP LATENCY: didChange -> publishDiagnostics of that version, blockls lsp "
              "--debounce-ms 0,\none single-character edit per iteration (wall clock; server CPU "
              "from /proc)\n\n");
  std::printf("%-8s %-5s %8s %7s %9s %9s %9s %9s %11s %6s\n", "size", "root", "open ms", "edits",
              "p50 ms", "p90 ms", "p99 ms", "max ms", "cpu ms/edit", "diags");
  for (const std::string& name : g_order) {
    const auto it = g_results.find(name);
    if (it == g_results.end() || it->second.samples.empty()) continue;
    const Result& r = it->second;
    std::printf("%5.1f MB %-5s %8.1f %7zu %9.2f %9.2f %9.2f %9.2f %11.2f %6zu\n", r.megabytes,
                r.root ? "yes" : "no", r.open_ms, r.samples.size(), percentile(r.samples, 0.5),
                percentile(r.samples, 0.9), percentile(r.samples, 0.99),
                *std::max_element(r.samples.begin(), r.samples.end()), r.server_cpu_ms_per_edit,
                r.diagnostics);
  }
  // The targets: p99 < 5 ms at 1 MB, < 20 ms at 10 MB (that one with a root: the editor with a
  // folder open).
  for (const auto& [megabytes, target, root_only] :
       {std::tuple{kTargetMegabytes, kTargetP99Ms, false},
        std::tuple{kLargeTargetMegabytes, kLargeTargetP99Ms, true}}) {
    std::printf("\nTARGET p99 < %.0f ms at %.0f MB%s:\n", target, megabytes,
                root_only ? " with a root" : "");
    bool any = false;
    for (const std::string& name : g_order) {
      const auto it = g_results.find(name);
      if (it == g_results.end() || it->second.samples.empty() ||
          it->second.megabytes != megabytes || (root_only && !it->second.root))
        continue;
      const Result& r = it->second;
      const double p99 = percentile(r.samples, 0.99);
      std::printf("  %-16s p99 %.2f ms  %s", r.root ? "with a root" : "without a root", p99,
                  p99 < target ? "MET" : "NOT MET");
      if (r.samples.size() < kEditsForP99)
        std::printf(" (of %zu edits only: their largest; run --edits %zu or more for a p99)",
                    r.samples.size(), kEditsForP99);
      std::printf("\n");
      any = true;
    }
    if (!any) std::printf("  (no %.0f MB run)\n", megabytes);
  }
  for (const std::string& name : g_order) {
    const auto it = g_results.find(name);
    if (it == g_results.end() || it->second.watched_samples.empty()) continue;
    const Result& r = it->second;
    const double p99 = percentile(r.watched_samples, 0.99);
    std::printf(
        "\nWATCHED FILE (one file a block reads changed on disk, didChangeWatchedFiles type "
        "2 -> publishDiagnostics)\n  %.1f MB: %zu changes, p50 %.2f ms, p99 %.2f ms",
        r.megabytes, r.watched_samples.size(), percentile(r.watched_samples, 0.5), p99);
    if (r.megabytes == kTargetMegabytes)
      std::printf("  TARGET < %.0f ms: %s", kTargetWatchedMs,
                  p99 < kTargetWatchedMs ? "MET" : "NOT MET");
    std::printf("\n");
  }
}

} // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  // Our arguments first; the rest goes to Google Benchmark.
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--edits" && i + 1 < argc) {
      g_config.edits = std::atoi(argv[++i]);
    } else if (a.starts_with("--edits=")) {
      g_config.edits = std::atoi(a.c_str() + 8);
    } else if (a == "--watched" && i + 1 < argc) {
      g_config.watched = std::atoi(argv[++i]);
    } else if (a == "--no-root") {
      g_config.with_root = false;
      g_config.without_root = true;
    } else if (a == "--root") {
      g_config.with_root = true;
      g_config.without_root = false;
    } else if (a.starts_with("--")) {
      rest.push_back(argv[i]);
    } else if (g_config.binary.empty()) {
      g_config.binary = a;
    } else {
      g_config.sizes.push_back(std::atof(a.c_str()));
    }
  }
  if (g_config.binary.empty() || g_config.edits <= 0) {
    std::cerr << "usage: lsp_latency BLOCKLS_BINARY [MEGABYTES...] [--edits N] [--watched N] "
                 "[--no-root | --root] [benchmark flags]\n";
    return 2;
  }
  if (g_config.sizes.empty()) g_config.sizes = {1, 10};
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 2;

  for (double mb : g_config.sizes) {
    for (bool root : {false, true}) {
      if ((root && !g_config.with_root) || (!root && !g_config.without_root)) continue;
      char size[32];
      std::snprintf(size, sizeof size, "%gMB", mb);
      const std::string name =
          std::string("BM_DidChangeToPublish/") + size + (root ? "/root" : "/no_root");
      g_order.push_back(name);
      benchmark::RegisterBenchmark(name.c_str(), BM_DidChangeToPublish, name, mb, root)
          ->Iterations(g_config.edits)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_report();
  return 0;
}
