// The stream benchmark: a generated transcript (every dialect) fed to `blockls stream`'s engine
// (cli::StreamSession) in 64-byte and 4 KiB chunks, beside the one-shot verified check of the
// same text, and the time from feeding a block's closing line to its block_end event.
// Prints throughput, two ratios, each with the target >= 0.8x: to the one-shot check, and to the
// one-shot check plus the JSON text `check --format json` writes from it (the like-for-like
// reference: the stream writes the same blocks and errors as JSON, and value_chunk events
// besides), and the latency p50/p99 (target p99 < 1 ms). Every time is the best of 5 runs.
// In-process: the pipe is not in these figures; each event's JSON text is, appended to a buffer as
// the command gathers a read's events (cleared after each feed, where the command writes them).
// With the binary: the whole processes as well — `blockls stream` fed 64-byte and 4 KiB reads
// through a pipe beside `blockls check --format json FILE`, by CPU time, and `cat` fed the same
// way (the cost of the reads alone, which no reader avoids) — and the latency through a pipe.
// One command: scripts/bench-stream.sh [MB (2)].
#include "bench/transcript_generator.h"
#include "cli/stream_session.h"
#include "diagnostics/json_report.h"
#include "fixits/verify_fixes.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct StreamRun {
  double seconds = 0;
  std::vector<double> latencies; // per block_end: feed() start to the event, in seconds
};

// `clock_feeds`: read the clock before each feed for the latencies. Off for the throughput:
// at 64-byte chunks that is 33,000 clock reads per 2 MB, ~5% of the session's time, which
// the command itself does not spend.
StreamRun stream(const std::string& text, size_t chunk, bool clock_feeds) {
  StreamRun run;
  Clock::time_point fed;
  // What `blockls stream` writes, gathered as the command gathers it: a read's events, each and
  // its line break, are appended to one buffer, written (here: cleared) once the read is parsed.
  std::string sink;
  blockls::cli::StreamSession session({}, [&](const blockls::cli::StreamEvent& e) {
    sink.append(e.json);
    sink.push_back('\n');
    if (clock_feeds && e.type == "block_end") run.latencies.push_back(seconds_since(fed));
  });
  const Clock::time_point start = Clock::now();
  for (size_t at = 0; at < text.size(); at += chunk) {
    if (clock_feeds) fed = Clock::now();
    session.feed(std::string_view(text).substr(at, chunk));
    sink.clear();
  }
  session.finish();
  run.seconds = seconds_since(start);
  return run;
}

// The like-for-like reference: the one-shot check plus the JSON text `check --format json`
// writes from it (the stream writes the same objects, one event at a time). Written as the
// command writes it: a megabyte at a time (spilled, here to nowhere, as the stream's sink is
// cleared), not into one string grown to the whole report, whose page faults and copies the
// command does not pay (they made the reference ~1.8x slower than the command's own way).
[[gnu::noinline]] void one_shot_json(const std::string& text) {
  std::string out;
  blockls::JsonWriter w(&out);
  w.spill_every(1 << 20, [](std::string_view) {});
  blockls::write_document(w, text, blockls::check_with_verified_fixes(text),
                          blockls::ActionCatalog::builtin(), std::nullopt);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// Where the closing line of each block ends: fed a line at a time in-process, the offset of
// the text fed when each block_end came out (the spec: before the next byte is read).
std::vector<size_t> block_end_offsets(const std::string& text) {
  std::vector<size_t> offsets;
  size_t fed = 0;
  bool finishing = false; // blocks the end of input closes are not timed
  blockls::cli::StreamSession session({}, [&](const blockls::cli::StreamEvent& e) {
    if (e.type == "block_end" && !finishing) offsets.push_back(fed);
  });
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    const size_t end = nl == std::string::npos ? text.size() : nl + 1;
    fed = end;
    session.feed(std::string_view(text).substr(at, end - at));
    at = end;
  }
  finishing = true;
  session.finish();
  return offsets;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// The real `blockls stream` through pipes, as an agent runs it: the text is written up to the
// end of a block's closing line, then the clock runs until that block's block_end line has been
// read from the process's output. Returns the latencies in seconds (empty on failure).
std::vector<double> pipe_latencies(const std::string& binary, const std::string& text) {
  const std::vector<size_t> ends = block_end_offsets(text);
  int in[2], out[2];
  if (::pipe(in) != 0 || ::pipe(out) != 0) return {};
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::close(in[1]);
    ::close(out[0]);
    const char* args[] = {binary.c_str(), "stream", nullptr};
    ::execv(binary.c_str(), const_cast<char* const*>(args));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  std::vector<double> latencies;
  std::string pending; // output read but not yet split into lines
  char buffer[1 << 16];
  size_t written = 0, seen = 0; // bytes written; block_end lines read
  bool ok = pid > 0;
  for (size_t b = 0; ok && b < ends.size(); ++b) {
    ok = write_all(in[1], std::string_view(text).substr(written, ends[b] - written));
    written = ends[b];
    const Clock::time_point sent = Clock::now();
    while (ok && seen <= b) {
      const ssize_t n = ::read(out[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ok = false;
        break;
      }
      pending.append(buffer, static_cast<size_t>(n));
      for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
        if (pending.starts_with("{\"block\":")) { // block_end's first key (block_start: block_id)
          if (seen == b) latencies.push_back(seconds_since(sent));
          ++seen;
        }
    }
  }
  ::close(in[1]);
  while (::read(out[0], buffer, sizeof buffer) > 0) {
  }
  ::close(out[0]);
  int status = 0;
  if (pid > 0) ::waitpid(pid, &status, 0);
  if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) >= 2) return {};
  return latencies;
}

// One whole process fed through pipes as an agent feeds it: `binary args...` with its standard
// input a pipe the text is written into `chunk` bytes per write(2), its standard output a pipe
// read (and thrown away) as it comes. The stream reads whatever the pipe holds when it asks, so
// its reads are as small as the writes only while it keeps up: `reads` says how many it made.
struct ProcessRun {
  double cpu = -1; // user + system seconds of the child; < 0: it failed
  double wall = 0; // fork to exit
  long reads = 0;  // read(2) calls the child made (/proc/PID/io syscr), 0 if unknown
};

ProcessRun fed_process(const std::string& binary, const std::vector<std::string>& args,
                       const std::string& text, size_t chunk, bool paced) {
  ProcessRun run;
  int in[2], out[2];
  if (::pipe(in) != 0) return run;
  if (::pipe(out) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return run;
  }
  std::vector<const char*> argv{binary.c_str()};
  for (const std::string& a : args)
    argv.push_back(a.c_str());
  argv.push_back(nullptr);
  std::fflush(stdout);
  const Clock::time_point start = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::close(in[0]);
    ::close(in[1]);
    ::close(out[0]);
    ::close(out[1]);
    ::execv(binary.c_str(), const_cast<char* const*>(argv.data()));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  std::thread drain([fd = out[0]] {
    char buffer[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
    }
  });
  bool ok = pid > 0;
  for (size_t at = 0; ok && at < text.size(); at += chunk) {
    // Paced: the next chunk once the child has read the last one (the pipe is empty), so that
    // each of its reads gets one chunk, as when the model's tokens arrive slower than it reads.
    for (int queued = 1; paced && ::ioctl(in[1], FIONREAD, &queued) == 0 && queued > 0;)
      ;
    ok = write_all(in[1], std::string_view(text).substr(at, chunk));
  }
  ::close(in[1]);
  drain.join();
  ::close(out[0]);
  if (pid <= 0) return run;
  // Its read count, while it is a zombie (still readable): then reaped with its CPU time.
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) == 0) {
    std::ifstream io("/proc/" + std::to_string(pid) + "/io");
    for (std::string line; std::getline(io, line);)
      if (line.rfind("syscr:", 0) == 0) run.reads = std::atol(line.c_str() + 6);
  }
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid) return run;
  run.wall = seconds_since(start);
  if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) >= 2) return run;
  run.cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  return run;
}

// The whole processes side by side, interleaved, `runs` each: `blockls stream` fed `chunk` bytes
// a read (paced, see fed_process) against the one-shot `blockls check --format json FILE` of
// the same text (`path`), by CPU time (the writer's pace sets the stream's wall time). Prints
// the medians and the stream's throughput (input per CPU second) as a multiple of the check's.
// False when a process failed.
bool compare_processes(const std::string& binary, const std::string& text, const std::string& path,
                       size_t chunk, int runs) {
  std::vector<double> stream_cpu, check_cpu, cat_cpu;
  std::vector<long> reads;
  for (int i = 0; i < runs; ++i) {
    const ProcessRun s = fed_process(binary, {"stream"}, text, chunk, true);
    const ProcessRun c = fed_process(binary, {"check", "--format", "json", path}, "", chunk, false);
    // The floor: a process that only reads the chunks as they come and writes them out.
    const ProcessRun floor = fed_process("/bin/cat", {}, text, chunk, true);
    if (s.cpu < 0 || c.cpu < 0 || floor.cpu < 0) return false;
    stream_cpu.push_back(s.cpu);
    check_cpu.push_back(c.cpu);
    cat_cpu.push_back(floor.cpu);
    reads.push_back(s.reads);
  }
  std::sort(reads.begin(), reads.end());
  const double s = percentile(stream_cpu, 0.5), c = percentile(check_cpu, 0.5);
  const long r = reads[reads.size() / 2];
  std::printf("whole process, %5zu-byte reads (%ld reads of %zu bytes): stream cpu %.4f s, "
              "check --format json FILE cpu %.4f s (medians of %d, interleaved): RATIO %.2fx "
              "(target >= 0.80x) %s\n"
              "  the floor, cat fed the same way (it only reads and writes): cpu %.4f s, so at "
              "most %.2fx for any reader\n",
              chunk, r, text.size(), s, c, runs, c / s, c / s >= 0.8 ? "MET" : "NOT MET",
              percentile(cat_cpu, 0.5), c / percentile(cat_cpu, 0.5));
  return true;
}

} // namespace

namespace {

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// `cpu SESSIONS [MB (2)] [CHUNK (64)]`: the measuring mode for comparing builds on the shared
// machine. Prints the thread CPU time of each session (ms, one per line) and their median: the
// CPU time leaves out what other jobs on the machine take, which the wall clock of the best of
// 5 does not. Run builds in interleaved rounds and compare the medians of all their sessions.
int cpu_mode(int argc, char** argv) {
  const int sessions = argc > 2 ? std::atoi(argv[2]) : 21;
  blockls::bench::TranscriptOptions options;
  options.target_bytes = static_cast<size_t>((argc > 3 ? std::atof(argv[3]) : 2.0) * 1024 * 1024);
  options.mix = blockls::bench::Mix::every;
  const size_t chunk = argc > 4 ? static_cast<size_t>(std::atol(argv[4])) : 64;
  const std::string text = blockls::bench::generate_transcript(options, nullptr);
  if (chunk == 0) { // (for profiling) the reference instead: the one-shot check + its JSON text
    for (int i = 0; i < sessions; ++i) {
      const double start = thread_cpu_seconds();
      one_shot_json(text);
      std::printf("%.3f\n", (thread_cpu_seconds() - start) * 1e3);
    }
    return 0;
  }
  stream(text, chunk, false); // warm-up (heap, caches)
  std::vector<double> ms;
  for (int i = 0; i < sessions; ++i) {
    const double start = thread_cpu_seconds();
    stream(text, chunk, false);
    ms.push_back((thread_cpu_seconds() - start) * 1e3);
    std::printf("%.3f\n", ms.back());
  }
  std::printf("median %.3f ms\n", percentile(ms, 0.5));
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "cpu") return cpu_mode(argc, argv);
  // [MB] [BLOCKLS_BINARY]: with the binary, the latency is also measured through a real pipe.
  // (Or `cpu ...`: see cpu_mode.)
  const double mb = argc > 1 ? std::atof(argv[1]) : 2.0;
  const std::string binary = argc > 2 ? argv[2] : "";
  blockls::bench::TranscriptOptions options;
  options.target_bytes = static_cast<size_t>(mb * 1024 * 1024);
  options.mix = blockls::bench::Mix::every;
  blockls::bench::TranscriptStats stats;
  const std::string text = blockls::bench::generate_transcript(options, &stats);
  std::printf("transcript: %.1f MB, %zu blocks (every dialect)\n", text.size() / 1e6,
              stats.total_blocks());
  double one_shot = 1e9;
  // Each time is the best of kRuns: the runs take milliseconds, and the machine is shared.
  constexpr int kRuns = 5;
  for (int i = 0; i < kRuns; ++i) {
    const Clock::time_point start = Clock::now();
    const blockls::CheckedDocument c = blockls::check_with_verified_fixes(text);
    one_shot = std::min(one_shot, seconds_since(start));
  }
  std::printf("one-shot check: %.4f s (%.1f MB/s)\n", one_shot, text.size() / 1e6 / one_shot);
  double one_shot_json_seconds = 1e9;
  for (int i = 0; i < kRuns; ++i) {
    const Clock::time_point start = Clock::now();
    one_shot_json(text);
    one_shot_json_seconds = std::min(one_shot_json_seconds, seconds_since(start));
  }
  std::printf("one-shot check + its JSON text: %.4f s (%.1f MB/s)\n", one_shot_json_seconds,
              text.size() / 1e6 / one_shot_json_seconds);
  for (size_t chunk : {size_t{64}, size_t{4096}}) {
    // The best of kRuns sessions, as the one-shot figures are the best of kRuns; then the
    // latencies of 3 more sessions, whose feeds read the clock.
    StreamRun run;
    run.seconds = 1e9;
    for (int i = 0; i < kRuns; ++i)
      run.seconds = std::min(run.seconds, stream(text, chunk, false).seconds);
    for (int i = 0; i < 3; ++i) {
      StreamRun r = stream(text, chunk, true);
      run.latencies.insert(run.latencies.end(), r.latencies.begin(), r.latencies.end());
    }
    const double ratio = one_shot / run.seconds, json_ratio = one_shot_json_seconds / run.seconds;
    const double p50 = percentile(run.latencies, 0.5) * 1e3,
                 p99 = percentile(run.latencies, 0.99) * 1e3;
    std::printf("stream, %5zu-byte chunks: %.4f s (%.1f MB/s), RATIO %.2fx one-shot (target >= "
                "0.80x) %s; block_end latency p50 %.3f ms, p99 %.3f ms (target p99 < 1 ms) %s\n",
                chunk, run.seconds, text.size() / 1e6 / run.seconds, ratio,
                ratio >= 0.8 ? "MET" : "NOT MET", p50, p99, p99 < 1.0 ? "MET" : "NOT MET");
    std::printf("  RATIO %.2fx the one-shot check + its JSON text (target >= 0.80x) %s\n",
                json_ratio, json_ratio >= 0.8 ? "MET" : "NOT MET");
  }
  if (!binary.empty()) {
    char path[] = "/tmp/blockls-bench-stream-XXXXXX";
    const int fd = ::mkstemp(path);
    const bool written = fd >= 0 && write_all(fd, text);
    if (fd >= 0) ::close(fd);
    bool compared = written;
    for (size_t chunk : {size_t{64}, size_t{4096}})
      compared = compared && compare_processes(binary, text, path, chunk, 7);
    if (fd >= 0) ::unlink(path);
    if (!compared) {
      std::printf("whole process: FAILED (could not run %s)\n", binary.c_str());
      return 1;
    }
    const std::vector<double> latencies = pipe_latencies(binary, text);
    if (latencies.empty()) {
      std::printf("through a pipe: FAILED (could not run %s stream)\n", binary.c_str());
      return 1;
    }
    const double p50 = percentile(latencies, 0.5) * 1e3, p99 = percentile(latencies, 0.99) * 1e3;
    std::printf("through a pipe (%s stream, %zu blocks, each written up to its closing line): "
                "block_end latency p50 %.3f ms, p99 %.3f ms, max %.3f ms (target p99 < 1 ms) %s\n",
                binary.c_str(), latencies.size(), p50, p99,
                *std::max_element(latencies.begin(), latencies.end()) * 1e3,
                p99 < 1.0 ? "MET" : "NOT MET");
  }
  return 0;
}
