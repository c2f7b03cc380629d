// Latency of `blockls lsp` as an editor sees it: spawns the real binary over pipes with
// --debounce-ms 0, opens a generated transcript of the given size (prose, valid TELT and NESL
// blocks, one error every ~100 KB), sends single-character edits and measures the time from
// each didChange to the publishDiagnostics of that version. Prints p50/p90/p99/max.
// Usage: lsp_latency BLOCKLS_BINARY [MEGABYTES...] (default 1 10) [--edits N] [--no-root]
#include "lsp/transport.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

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

class Client {
public:
  Client(const std::string& binary) {
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
      if (poll(&p, 1, 120000) <= 0) {
        std::cerr << "timeout\n";
        std::exit(4);
      }
      char buf[1 << 16];
      const ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) {
        std::cerr << "server closed\n";
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
    int status = 0;
    waitpid(pid_, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  blockls::lsp::FrameParser parser_{SIZE_MAX};
};

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

void run(const std::string& binary, double megabytes, int edits, bool with_root) {
  const std::string text = transcript(static_cast<size_t>(megabytes * 1024 * 1024));
  const std::string root = std::filesystem::temp_directory_path() / "blockls-lsp-bench";
  std::filesystem::create_directories(root);
  Client c(binary);
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
  const auto open_start = Clock::now();
  c.send({{"method", "textDocument/didOpen"},
          {"params",
           {{"textDocument",
             {{"uri", uri}, {"languageId", "markdown"}, {"version", 1}, {"text", text}}}}}});
  const json first = c.wait_for(is_publish(1));
  const double open_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - open_start).count();
  std::vector<double> samples;
  for (int i = 0; i < edits; ++i) {
    const int version = i + 2;
    // Alternately insert and delete one character at the start of the first prose line.
    json range = {{"start", {{"line", 0}, {"character", 15}}},
                  {"end", {{"line", 0}, {"character", i % 2 == 0 ? 15 : 16}}}};
    const auto start = Clock::now();
    c.send({{"method", "textDocument/didChange"},
            {"params",
             {{"textDocument", {{"uri", uri}, {"version", version}}},
              {"contentChanges",
               json::array({{{"range", range}, {"text", i % 2 == 0 ? "x" : ""}}})}}}});
    c.wait_for(is_publish(version));
    samples.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  const int rc = c.finish();
  std::printf("%5.1f MB (%zu bytes, %zu diagnostics%s): open %.1f ms; %d edits "
              "didChange->publishDiagnostics "
              "p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms  (exit %d)\n",
              megabytes, text.size(), first["params"]["diagnostics"].size(),
              with_root ? ", workspace checks" : "", open_ms, edits, percentile(samples, 0.5),
              percentile(samples, 0.9), percentile(samples, 0.99),
              *std::max_element(samples.begin(), samples.end()), rc);
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: lsp_latency BLOCKLS_BINARY [MEGABYTES...] [--edits N] [--no-root]\n";
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  std::vector<double> sizes;
  int edits = 200;
  bool with_root = true;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--edits" && i + 1 < argc)
      edits = std::atoi(argv[++i]);
    else if (a == "--no-root")
      with_root = false;
    else
      sizes.push_back(std::atof(a.c_str()));
  }
  if (sizes.empty()) sizes = {1, 10};
  for (double mb : sizes)
    run(argv[1], mb, edits, with_root);
  return 0;
}
