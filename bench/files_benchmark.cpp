// The many-files benchmark of `check -j`: 400 generated transcripts of 100 KB each (40 MB,
// the mixed dialects), checked by the real binary as a user runs it, with -j 1 and -j 2 (the
// whole process, best of 3 runs each). Prints both wall times, the ratio and the target
// (-j 2 <= 0.6x -j 1 on a 2-core machine). One command: scripts/bench-files.sh.
// Usage: blockls_bench_files BLOCKLS_BINARY [FILES (400)] [KB_PER_FILE (100)]
#include "bench/timed_process.h"
#include "bench/transcript_generator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using blockls::bench::Mix;
using blockls::bench::TranscriptOptions;

namespace {

// `binary check -j JOBS --format text FILES…`, its wall time (see time_process).
double time_check(const std::string& binary, const std::vector<std::string>& files, int jobs) {
  std::vector<std::string> args = {"check", "--color", "never", "-j", std::to_string(jobs)};
  args.insert(args.end(), files.begin(), files.end());
  return blockls::bench::time_process(binary, args);
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s BLOCKLS_BINARY [FILES] [KB_PER_FILE]\n", argv[0]);
    return 2;
  }
  const std::string binary = argv[1];
  const size_t count = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 400;
  const size_t kb = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 100;
  char dir_template[] = "/tmp/blockls-bench-files-XXXXXX";
  if (!::mkdtemp(dir_template)) return 2;
  const fs::path dir = dir_template;
  std::vector<std::string> files;
  size_t bytes = 0;
  for (size_t i = 0; i < count; ++i) {
    TranscriptOptions options;
    options.target_bytes = kb * 1024;
    options.seed += i;
    options.mix = Mix::every;
    const std::string text = blockls::bench::generate_transcript(options, nullptr);
    bytes += text.size();
    files.push_back((dir / ("transcript-" + std::to_string(i) + ".md")).string());
    std::ofstream(files.back(), std::ios::binary) << text;
  }
  std::printf("%zu transcripts, %.1f MB in all (every dialect), %u cores\n", count, bytes / 1e6,
              std::thread::hardware_concurrency());
  double best[3] = {0, 1e9, 1e9};
  for (int run = 0; run < 3; ++run)
    for (int jobs : {1, 2}) {
      const double t = time_check(binary, files, jobs);
      if (t < 0) {
        std::fprintf(stderr, "blockls_bench_files: %s check failed\n", binary.c_str());
        fs::remove_all(dir);
        return 1;
      }
      best[jobs] = std::min(best[jobs], t);
    }
  fs::remove_all(dir);
  const double ratio = best[2] / best[1];
  std::printf("check -j 1: %.3f s (%.0f MB/s)\n", best[1], bytes / 1e6 / best[1]);
  std::printf("check -j 2: %.3f s (%.0f MB/s)\n", best[2], bytes / 1e6 / best[2]);
  std::printf("RATIO -j 2 / -j 1: %.3fx (target <= 0.60x) %s\n", ratio,
              ratio <= 0.6 ? "MET" : "NOT MET");
  return 0;
}
