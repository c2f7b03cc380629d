// Hostile inputs: transcripts that are all mistakes, the shapes that once made a command
// quadratic (a performance QA pass, session 17). Each shape is generated at 256 KB and 1 MB and
// given to the real binary as a user runs it (`check`, `check --format feedback`, `stream` reading
// standard input), the whole process timed (best of 3). Printed per shape and command: seconds per
// MB at 1 MB, the growth from 256 KB to 1 MB (4x is linear; a quadratic step shows as ~16x) and
// the peak RSS at 4 MB as a multiple of the input, against the aim: growth <= 6x, <= 1 s per MB,
// RSS <= 150x. One command: scripts/bench-hostile.sh.
// Usage: blockls_bench_hostile BLOCKLS_BINARY
#include "bench/timed_process.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Shape {
  const char* name;
  // Appends one unit of the shape (a line, or a block) to the text.
  std::function<void(std::string&, size_t unit)> append;
};

std::string three(size_t unit) {
  static const char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  return {kDigits[unit % 36], kDigits[unit / 36 % 36], kDigits[unit / 1296 % 36]};
}

// The shapes, each once superlinear (bench/README.md, "Hostile inputs").
std::vector<Shape> shapes() {
  return {
      {"telt-stray-end-lines", // loose diagnostics, each with its own fix window
       [](std::string& t, size_t) { t += "--END abc--\n"; }},
      {"telt-stray-text-blocks", // a diagnostic on every line of a block, verified per window
       [](std::string& t, size_t u) {
         t += "#!telt [3-char SHA: " + three(u) + "]\n=== CREATE_FILE ===\n";
         for (int i = 0; i < 280; ++i)
           t += "  stray text line " + std::to_string(i) + " here\n";
         t += "--FILE " + three(u) + "--\na.txt\n--END " + three(u) + "--\n\n";
       }},
      {"telt-start-every-line", // thousands of unclosed blocks: feedback per block
       [](std::string& t, size_t) { t += "#!telt [3-char SHA: abc]\n"; }},
      {"xml-unclosed-tool-lines", [](std::string& t, size_t) { t += "<write_to_file>\n"; }},
      {"sections-delimiter-collisions", // one heredoc, names repeated: collisions and fixes
       [](std::string& t, size_t u) {
         if (u == 0) t += "chatroom task-started j1 << 'PARAMS_END'\n";
         const size_t n = u % 400; // a name of upper-case letters, as delimiters need
         t += std::string("---P") + static_cast<char>('A' + n % 26) +
              static_cast<char>('A' + n / 26 % 26) + "---\nvalue " + std::to_string(u) + "\n";
       }},
      {"nesl-unclosed-chain", // every block ended by the next header: no end marker at all
       [](std::string& t, size_t u) {
         t += "#!nesl [@three-char-SHA-256: " + three(u) +
              "]\naction = \"write_file\"\npath = "
              "\"f" +
              std::to_string(u) + ".txt\"\ncontent = \"x\"\n";
       }},
      {"xml-malformed-diff", // thousands of unfinished SEARCH markers in one diff
       [](std::string& t, size_t u) {
         if (u == 0) t += "<replace_in_file>\n<path>a.txt</path>\n<diff>\n";
         t += "------- SEARCH\nold line " + std::to_string(u) + "\n";
       }},
  };
}

std::string generate(const Shape& shape, size_t bytes) {
  std::string text;
  for (size_t unit = 0; text.size() < bytes; ++unit)
    shape.append(text, unit);
  return text;
}

// The best wall time of 3 runs; `peak_rss_kb` gets the largest peak RSS of the three.
double best_of_3(const std::string& binary, const std::vector<std::string>& args,
                 const std::string& input, long* peak_rss_kb) {
  double best = 1e9;
  *peak_rss_kb = 0;
  for (int i = 0; i < 3; ++i) {
    long rss = 0;
    const double t = blockls::bench::time_process(binary, args, input, &rss);
    if (t < 0) return -1;
    best = std::min(best, t);
    *peak_rss_kb = std::max(*peak_rss_kb, rss);
  }
  return best;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s BLOCKLS_BINARY\n", argv[0]);
    return 2;
  }
  const std::string binary = argv[1];
  const fs::path dir =
      fs::temp_directory_path() / ("blockls-hostile-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  constexpr size_t kSmall = 256 * 1024, kLarge = 1024 * 1024, kMemory = 4 * 1024 * 1024;
  std::printf("HOSTILE INPUTS: the whole process, best of 3; growth 256 KB -> 1 MB (4x linear)\n");
  std::printf("%-32s %-9s %10s %8s %9s  %s\n", "shape", "command", "s per MB", "growth", "RSS 4 MB",
              "aim: growth <= 6x, <= 1 s per MB, RSS <= 150x the input");
  bool all_met = true;
  for (const Shape& shape : shapes()) {
    std::string paths[3];
    const size_t sizes[3] = {kSmall, kLarge, kMemory};
    for (int i = 0; i < 3; ++i) {
      const std::string text = generate(shape, sizes[i]);
      paths[i] = (dir / (std::string(shape.name) + "-" + std::to_string(i) + ".md")).string();
      std::ofstream(paths[i], std::ios::binary) << text;
    }
    struct Command {
      const char* name;
      std::vector<std::string> args;
      bool from_stdin;
    };
    for (const Command& c : {Command{"check", {"check", "--color", "never"}, false},
                             Command{"feedback", {"check", "--format", "feedback"}, false},
                             Command{"stream", {"stream"}, true}}) {
      // Times at 256 KB and 1 MB; the peak RSS at 4 MB, where the input outweighs the
      // process's own few megabytes (a hostile shape once took 75 times its input).
      double t[3];
      long rss[3] = {};
      for (int i = 0; i < 3; ++i) {
        std::vector<std::string> args = c.args;
        if (!c.from_stdin) args.push_back(paths[i]);
        t[i] = best_of_3(binary, args, c.from_stdin ? paths[i] : std::string(), &rss[i]);
      }
      if (t[0] < 0 || t[1] < 0 || t[2] < 0) {
        std::printf("%-32s %-9s FAILED (could not run %s)\n", shape.name, c.name, binary.c_str());
        all_met = false;
        continue;
      }
      const double per_mb = t[1] / (static_cast<double>(kLarge) / 1e6);
      const double growth = t[1] / std::max(t[0], 1e-4);
      const double rss_ratio = static_cast<double>(rss[2]) * 1024 / static_cast<double>(kMemory);
      const bool met = growth <= 6 && per_mb <= 1 && rss_ratio <= 150;
      all_met = all_met && met;
      std::printf("%-32s %-9s %10.3f %7.1fx %8.1fx  %s\n", shape.name, c.name, per_mb, growth,
                  rss_ratio, met ? "MET" : "NOT MET");
    }
  }
  fs::remove_all(dir);
  std::printf("HOSTILE INPUTS: %s\n", all_met ? "every aim MET" : "some aim NOT MET");
  return 0;
}
