// The whole-process benchmark of `blockls check` (issue #20): a generated NESL transcript
// (40 MB by default), checked by the real Release binary as a user runs it (text, then
// `--format json`, output to /dev/null) and parsed by nesl-js under node (bench/nesl_js_parse.js)
// in the same run, interleaved, several times. Each child is timed from fork to wait4, which
// also gives its CPU time and peak RSS. One command: scripts/bench-process.sh.
//
// Two transcripts: "nesl", scripts/bench.sh's (5% of the blocks broken), and "nesl-clean", the
// same generator with no broken block. nesl-js splits the whole input again for the context
// of every error it reports (getContextWindow), so on "nesl" it is quadratic and takes minutes:
// it runs once there, cut off after a time limit. "nesl-clean" is where it runs at its linear
// speed, so that is the comparison the speedup target is judged on.
// Usage: blockls_bench_process BLOCKLS NESL_PACKAGE_DIR NESL_JS_SCRIPT [MB (40)] [REPS (5)]
//        [NESL_JS_LIMIT_SECONDS (60)]
#include "bench/transcript_generator.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using blockls::bench::Mix;
using blockls::bench::TranscriptOptions;

namespace {

constexpr double kSpeedupTarget = 20.0;  // whole `check` vs whole nesl-js process
constexpr double kRssTarget = 1.5;       // peak RSS of `check` / input size
constexpr double kJsonMbPerSecond = 150; // whole `check --format json`, MB of input per second

struct Run {
  double wall = -1; // seconds; < 0: failed
  double cpu = 0;   // user + system seconds
  double rss = 0;   // peak resident set, bytes
  double anon = 0;  // the largest anonymous part of it (heap, stacks) seen while polling
  bool cut_off = false;
};

double seconds(const timeval& t) {
  return t.tv_sec + t.tv_usec / 1e6;
}

// RssAnon of a running process, in bytes (0 when it is gone): the resident memory that is not
// file pages (a mapped input, the binary), i.e. what only swap could take back.
double anon_rss(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("RssAnon:", 0) == 0) return std::strtod(line.c_str() + 8, nullptr) * 1024;
  return 0;
}

// Runs argv with standard output to `out_path` and returns its wall time, CPU time and peak
// RSS (wait4's rusage: this child only). Killed after `limit` seconds (then cut_off is set).
// wall < 0 when it could not run or exited with a status above `max_status`.
Run run_child(const std::vector<std::string>& args, const std::string& out_path, int max_status,
              double limit) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (std::string& a : copy)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout); // or the child's freopen writes our buffered lines a second time
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen(out_path.c_str(), "w", stdout)) ::_exit(126);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  Run r;
  if (pid < 0) return r;
  int status = 0;
  struct rusage usage {};
  // Polled every millisecond: a blocking wait could not be cut off (one more ms is noise at
  // the sizes this runs at).
  for (;;) {
    const pid_t got = ::wait4(pid, &status, WNOHANG, &usage);
    if (got == pid) break;
    if (got < 0) return r;
    r.anon = std::max(r.anon, anon_rss(pid));
    if (elapsed() > limit && !r.cut_off) {
      ::kill(pid, SIGKILL);
      r.cut_off = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  r.wall = elapsed();
  r.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  r.rss = usage.ru_maxrss * 1024.0; // Linux: kilobytes
  if (!r.cut_off && (!WIFEXITED(status) || WEXITSTATUS(status) > max_status)) r.wall = -1;
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Series {
  std::string name;
  std::vector<std::string> args;
  std::string out_path;
  int max_status = 1;
  int reps = 1;
  double limit = 1e9;
  std::vector<Run> runs;

  bool cut_off() const { return !runs.empty() && runs.front().cut_off; }
  double wall() const { return median(pick(&Run::wall)); }
  double cpu() const { return median(pick(&Run::cpu)); }
  double rss() const { // the largest: the figure a memory limit would meet
    double m = 0;
    for (const Run& r : runs)
      m = std::max(m, r.rss);
    return m;
  }
  double anon() const {
    double m = 0;
    for (const Run& r : runs)
      m = std::max(m, r.anon);
    return m;
  }
  std::vector<double> pick(double Run::*field) const {
    std::vector<double> v;
    for (const Run& r : runs)
      v.push_back(r.*field);
    return v;
  }
};

const char* verdict(bool met) {
  return met ? "MET" : "NOT MET";
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

struct Transcript {
  std::string name, path;
  size_t bytes = 0;
  Series text, json, node;
};

// Runs every series of `t` interleaved: one untimed round first (the file in the page cache,
// the binaries loaded), then up to each series' repetitions. False when a child failed.
bool measure(Transcript& t) {
  std::vector<Series*> all = {&t.text, &t.json, &t.node};
  int rounds = 0;
  for (const Series* s : all)
    rounds = std::max(rounds, s->reps);
  for (int rep = -1; rep < rounds; ++rep)
    for (Series* s : all) {
      if (rep >= s->reps || (rep < 0 && s->limit < 1e9)) continue; // no warm-up when cut off
      const Run r = run_child(s->args, s->out_path, s->max_status, s->limit);
      if (r.wall < 0) {
        std::fprintf(stderr, "blockls_bench_process: `%s` on %s failed\n", s->name.c_str(),
                     t.name.c_str());
        return false;
      }
      if (rep >= 0) s->runs.push_back(r);
    }
  return true;
}

void print(const Transcript& t) {
  std::printf("\n%s: %.1f MB\n%-30s %9s %9s %9s %10s %9s %10s\n", t.name.c_str(), t.bytes / 1e6,
              "(median wall; largest RSS)", "wall s", "MB/s", "cpu s", "peak RSS", "RSS/input",
              "anon RSS");
  for (const Series* s : {&t.text, &t.json, &t.node}) {
    if (s->cut_off()) {
      std::printf("%-30s > %7.1f (cut off after %.0f s, %zu run)\n", s->name.c_str(), s->wall(),
                  s->limit, s->runs.size());
      continue;
    }
    std::printf("%-30s %9.3f %9.0f %9.3f %7.1f MB %8.2fx %7.1f MB  (%zu runs)\n", s->name.c_str(),
                s->wall(), t.bytes / 1e6 / s->wall(), s->cpu(), s->rss() / 1e6, s->rss() / t.bytes,
                s->anon() / 1e6, s->runs.size());
  }
  std::printf("nesl-js said: %s\n",
              t.node.cut_off() ? "(nothing: cut off)" : first_line(t.node.out_path).c_str());
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s BLOCKLS NESL_PACKAGE_DIR NESL_JS_SCRIPT [MB] [REPS] [LIMIT]\n",
                 argv[0]);
    return 2;
  }
  const std::string blockls = argv[1], nesl_dir = argv[2], script = argv[3];
  const double mb = argc > 4 ? std::strtod(argv[4], nullptr) : 40;
  const int reps = argc > 5 ? std::max(1, std::atoi(argv[5])) : 5;
  const double limit = argc > 6 ? std::strtod(argv[6], nullptr) : 60;

  char dir_template[] = "/tmp/blockls-bench-process-XXXXXX";
  if (!::mkdtemp(dir_template)) return 2;
  const fs::path dir = dir_template;
  std::vector<Transcript> transcripts(2);
  for (size_t i = 0; i < transcripts.size(); ++i) {
    Transcript& t = transcripts[i];
    TranscriptOptions options; // the seed and mix of scripts/bench.sh's "nesl" transcript
    options.target_bytes = static_cast<size_t>(mb * 1e6);
    options.mix = Mix::nesl_only;
    if (i == 1) options.broken_rate = 0;
    t.name = i == 0 ? "nesl" : "nesl-clean";
    t.path = (dir / ("transcript-" + t.name + ".md")).string();
    {
      const std::string text = blockls::bench::generate_transcript(options, nullptr);
      t.bytes = text.size();
      std::ofstream(t.path, std::ios::binary) << text;
    } // freed before any child runs: nothing of ours competes for memory
    t.text = {"blockls check",
              {blockls, "check", "--color", "never", t.path},
              "/dev/null",
              1,
              reps,
              1e9,
              {}};
    t.json = {"blockls check --format json",
              {blockls, "check", "--format", "json", t.path},
              "/dev/null",
              1,
              reps,
              1e9,
              {}};
    t.node = {"nesl-js (node)",
              {"node", script, nesl_dir, t.path},
              (dir / (t.name + ".out")).string(),
              0,
              i == 0 ? 1 : reps,
              1e9,
              {}};
    if (i == 0) t.node.limit = limit;
  }
  std::printf("whole processes, interleaved, %d runs each (nesl-js on nesl: one, cut off after "
              "%.0f s)\n",
              reps, limit);
  for (Transcript& t : transcripts)
    if (!measure(t)) {
      fs::remove_all(dir);
      return 1;
    }
  for (const Transcript& t : transcripts)
    print(t);
  fs::remove_all(dir);

  std::printf("\n");
  for (const Transcript& t : transcripts) {
    const double speedup = t.node.wall() / t.text.wall();
    const double rss = t.text.rss() / t.bytes;
    const double json_rate = t.bytes / 1e6 / t.json.wall();
    std::printf("%s: SPEEDUP check vs nesl-js, whole process: %s%.1fx wall (%.1fx cpu) (target "
                ">= %.0fx) %s%s\n",
                t.name.c_str(), t.node.cut_off() ? ">= " : "", speedup, t.node.cpu() / t.text.cpu(),
                kSpeedupTarget, verdict(speedup >= kSpeedupTarget),
                t.node.cut_off()
                    ? " (a lower bound: nesl-js was cut off, quadratic in its errors here)"
                    : "");
    std::printf("%s: PEAK RSS check: %.2fx the input (target <= %.1fx) %s (anonymous part: "
                "%.2fx)\n",
                t.name.c_str(), rss, kRssTarget, verdict(rss <= kRssTarget),
                t.text.anon() / t.bytes);
    std::printf("%s: JSON check --format json: %.0f MB/s (target >= %.0f MB/s) %s\n",
                t.name.c_str(), json_rate, kJsonMbPerSecond,
                verdict(json_rate >= kJsonMbPerSecond));
  }
  return 0;
}
