// The stream benchmark: a generated transcript (every dialect) fed to `blockls stream`'s engine
// (cli::StreamSession) in 64-byte and 4 KiB chunks, beside the one-shot verified check of the
// same text, and the time from feeding a block's closing line to its block_end event.
// Prints throughput, the ratio (target >= 0.8x the one-shot check) and the latency p50/p99
// (target p99 < 1 ms). In-process: the pipe is not in these figures; each event's JSON text is,
// appended to a buffer as the command writes it. One command: scripts/bench-stream.sh [MB (2)].
#include "bench/transcript_generator.h"
#include "cli/stream_session.h"
#include "diagnostics/json_report.h"
#include "fixits/verify_fixes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
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

StreamRun stream(const std::string& text, size_t chunk) {
  StreamRun run;
  Clock::time_point fed;
  std::string sink; // what `blockls stream` would write (kept short: cleared as it grows)
  blockls::cli::StreamSession session({}, [&](const blockls::cli::StreamEvent& e) {
    sink.append(e.json);
    sink.push_back('\n');
    if (sink.size() > (1u << 20)) sink.clear();
    if (e.type == "block_end") run.latencies.push_back(seconds_since(fed));
  });
  const Clock::time_point start = Clock::now();
  for (size_t at = 0; at < text.size(); at += chunk) {
    fed = Clock::now();
    session.feed(std::string_view(text).substr(at, chunk));
  }
  session.finish();
  run.seconds = seconds_since(start);
  return run;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

} // namespace

int main(int argc, char** argv) {
  const double mb = argc > 1 ? std::atof(argv[1]) : 2.0;
  blockls::bench::TranscriptOptions options;
  options.target_bytes = static_cast<size_t>(mb * 1024 * 1024);
  options.mix = blockls::bench::Mix::every;
  blockls::bench::TranscriptStats stats;
  const std::string text = blockls::bench::generate_transcript(options, &stats);
  std::printf("transcript: %.1f MB, %zu blocks (every dialect)\n", text.size() / 1e6,
              stats.total_blocks());
  double one_shot = 1e9;
  for (int i = 0; i < 3; ++i) {
    const Clock::time_point start = Clock::now();
    const blockls::CheckedDocument c = blockls::check_with_verified_fixes(text);
    one_shot = std::min(one_shot, seconds_since(start));
  }
  std::printf("one-shot check: %.3f s (%.1f MB/s)\n", one_shot, text.size() / 1e6 / one_shot);
  // A reference, not the target: the one-shot check plus the JSON text `check --format json`
  // writes from it (the stream writes the same objects, one event at a time).
  double one_shot_json = 1e9;
  for (int i = 0; i < 3; ++i) {
    const Clock::time_point start = Clock::now();
    std::string out;
    blockls::JsonWriter w(&out);
    blockls::write_document(w, text, blockls::check_with_verified_fixes(text),
                            blockls::ActionCatalog::builtin(), std::nullopt);
    one_shot_json = std::min(one_shot_json, seconds_since(start));
  }
  std::printf("one-shot check + its JSON text (reference): %.3f s (%.1f MB/s)\n", one_shot_json,
              text.size() / 1e6 / one_shot_json);
  for (size_t chunk : {size_t{64}, size_t{4096}}) {
    const StreamRun run = stream(text, chunk);
    const double ratio = one_shot / run.seconds;
    const double p50 = percentile(run.latencies, 0.5) * 1e3,
                 p99 = percentile(run.latencies, 0.99) * 1e3;
    std::printf("stream, %5zu-byte chunks: %.3f s (%.1f MB/s), RATIO %.2fx one-shot (target >= "
                "0.80x) %s; block_end latency p50 %.3f ms, p99 %.3f ms (target p99 < 1 ms) %s\n",
                chunk, run.seconds, text.size() / 1e6 / run.seconds, ratio,
                ratio >= 0.8 ? "MET" : "NOT MET", p50, p99, p99 < 1.0 ? "MET" : "NOT MET");
    std::printf("  (%.2fx the one-shot check + its JSON text)\n", one_shot_json / run.seconds);
  }
  return 0;
}
