// Runs one golden protocol transcript (tests/lsp/*.test) against the real `blockls lsp`, the way
// clangd's lit tests do. The format (see tests/lsp/README.md): steps separated by lines `---`;
// a step is a JSON message to send, `<-- JSON` (wait for a message that contains it: expected
// keys present with equal values, "*" matches any value, "abc*" any
// string starting with abc, arrays match element-wise), `!-- JSON`
// (no message received so far matches), or `%` directives (args, files and their modes, raw bytes,
// exit code, the server's memory limit, a large generated document). Waits on the pipe with poll();
// never sleeps.
#include "lsp/transport.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// BLOCKLS_TEST_TIMEOUT_MS overrides how long an expectation waits for the server.
int timeout_ms() {
  const char* env = std::getenv("BLOCKLS_TEST_TIMEOUT_MS");
  return env ? std::atoi(env) : 20000;
}

struct Step {
  enum Kind { send, expect, absent, directives } kind = send;
  int line = 0;
  std::string body; // JSON text, or the directive lines
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

bool matches(const json& expected, const json& actual) {
  if (expected.is_string() && expected == "*") return true;
  if (expected.is_string() && actual.is_string()) { // "prefix*" matches any string with that prefix
    const std::string& e = expected.get_ref<const std::string&>();
    if (e.size() > 1 && e.back() == '*')
      return actual.get_ref<const std::string&>().rfind(e.substr(0, e.size() - 1), 0) == 0;
  }
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      auto found = actual.find(it.key());
      if (found == actual.end() || !matches(it.value(), *found)) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) return false;
    for (size_t i = 0; i < expected.size(); ++i)
      if (!matches(expected[i], actual[i])) return false;
    return true;
  }
  return expected == actual;
}

// "\r\n" and "\xNN" escapes of %raw.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    if (c == 'r')
      out += '\r';
    else if (c == 'n')
      out += '\n';
    else if (c == 't')
      out += '\t';
    else if (c == 'x' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else
      out += c;
  }
  return out;
}

class Runner {
public:
  Runner(const std::string& binary, std::string test)
      : binary_(fs::absolute(binary).string()), test_(std::move(test)) {}

  int run() {
    std::vector<Step> steps;
    if (!parse(&steps)) return 2;
    char tmpl[] = "/tmp/blockls-lsp-test-XXXXXX";
    if (!mkdtemp(tmpl)) return fail(0, "cannot create a temporary directory");
    root_ = fs::canonical(tmpl).string();
    for (const Step& step : steps) {
      if (!run_step(step)) {
        std::cerr << "FAILED at " << test_ << ":" << step.line << "\n";
        dump_unconsumed();
        if (pid_ > 0) kill(pid_, SIGKILL);
        if (child_ > 0) kill(child_, SIGKILL);
        std::cerr << "(workspace kept at " << root_ << ")\n";
        return 1;
      }
    }
    if (pid_ > 0 && !exited_) {
      std::cerr << test_ << ": the transcript must end with %exit N\n";
      kill(pid_, SIGKILL);
      return 1;
    }
    if (child_ > 0) kill(child_, SIGKILL);
    fs::remove_all(root_);
    std::cout << "PASS " << test_ << " (" << steps.size() << " steps, " << received_.size()
              << " messages)\n";
    return 0;
  }

private:
  int fail(int line, const std::string& why) {
    std::cerr << test_ << ":" << line << ": " << why << "\n";
    return 1;
  }

  bool parse(std::vector<Step>* steps) {
    std::ifstream in(test_);
    if (!in) return fail(0, "cannot read") == 0;
    std::string line;
    int number = 0;
    Step current;
    bool has_content = false;
    auto flush = [&] {
      if (has_content) steps->push_back(current);
      current = Step();
      has_content = false;
    };
    while (std::getline(in, line)) {
      ++number;
      if (line == "---") {
        flush();
        continue;
      }
      if (line.empty() || line[0] == '#') continue;
      if (!has_content) {
        current.line = number;
        has_content = true;
        if (line.rfind("<--", 0) == 0) {
          current.kind = Step::expect;
          line = line.substr(3);
        } else if (line.rfind("!--", 0) == 0) {
          current.kind = Step::absent;
          line = line.substr(3);
        } else if (line[0] == '%') {
          current.kind = Step::directives;
        }
      }
      current.body += line + "\n";
    }
    flush();
    return true;
  }

  // ${RUNNER_PID} (alive for the whole test) and ${CHILD_PID} (see %spawn-child) name processes
  // for --clientProcessId and initialize.processId.
  std::string substitute(const std::string& s) const {
    std::string out =
        replace_all(replace_all(s, "${ROOT_URI}", "file://" + root_), "${ROOT}", root_);
    out = replace_all(out, "${RUNNER_PID}", std::to_string(getpid()));
    return replace_all(out, "${CHILD_PID}", std::to_string(child_));
  }

  bool ensure_started(int line) {
    if (pid_ > 0) return true;
    int in_pipe[2], out_pipe[2];
    if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) return fail(line, "pipe failed") == 0;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in_pipe[0], 0);
      dup2(out_pipe[1], 1);
      close(in_pipe[1]);
      close(out_pipe[0]);
      if (chdir(root_.c_str()) != 0) _exit(126);
      if (memory_limit_ > 0) {
        const rlimit limit{memory_limit_, memory_limit_};
        if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(126);
      }
      std::vector<std::string> args = {binary_, "lsp"};
      args.insert(args.end(), args_.begin(), args_.end());
      std::vector<char*> argv;
      for (std::string& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary_.c_str(), argv.data());
      _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    to_server_ = in_pipe[1];
    from_server_ = out_pipe[0];
    signal(SIGPIPE, SIG_IGN);
    return true;
  }

  bool write_all(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(to_server_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }

  bool send_json(json message) {
    if (!message.contains("jsonrpc")) message["jsonrpc"] = "2.0";
    return write_all(blockls::lsp::frame_message(message.dump()));
  }

  // Reads whatever arrives within the timeout; false on timeout or EOF.
  bool read_more(int line) {
    if (eof_) return false;
    pollfd p{from_server_, POLLIN, 0};
    const int r = poll(&p, 1, timeout_ms());
    if (r == 0) {
      fail(line, "timed out waiting for the server");
      return false;
    }
    char buf[65536];
    const ssize_t n = read(from_server_, buf, sizeof buf);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    parser_.feed(std::string_view(buf, static_cast<size_t>(n)));
    blockls::lsp::Frame frame;
    while (parser_.next(&frame)) {
      if (frame.kind == blockls::lsp::Frame::Kind::error) {
        fail(line, "bad frame from the server: " + frame.error);
        continue;
      }
      json message = json::parse(frame.body, nullptr, false);
      if (message.is_discarded()) {
        fail(line, "server sent invalid JSON: " + frame.body);
        continue;
      }
      if (message.contains("method") && message.contains("id")) auto_reply(message);
      received_.push_back(message);
      consumed_.push_back(false);
    }
    return true;
  }

  void auto_reply(const json& request) {
    const std::string method = request["method"].get<std::string>();
    json result = nullptr;
    if (auto it = replies_.find(method); it != replies_.end())
      result = it->second;
    else if (method == "workspace/applyEdit")
      result = {{"applied", true}};
    send_json({{"id", request["id"]}, {"result", result}});
  }

  void dump_unconsumed() {
    for (size_t i = 0; i < received_.size(); ++i)
      if (!consumed_[i])
        std::cerr << "  unconsumed: " << received_[i].dump().substr(0, 2000) << "\n";
  }

  bool run_step(const Step& step) {
    const std::string body = substitute(step.body);
    switch (step.kind) {
    case Step::send: {
      if (!ensure_started(step.line)) return false;
      json message = json::parse(body, nullptr, false);
      if (message.is_discarded()) return fail(step.line, "the step is not valid JSON") == 0;
      return send_json(message) || fail(step.line, "cannot write to the server") == 0;
    }
    case Step::expect: {
      if (!ensure_started(step.line)) return false;
      const json expected = json::parse(body, nullptr, false);
      if (expected.is_discarded()) return fail(step.line, "the expectation is not valid JSON") == 0;
      for (size_t seen = 0;;) {
        for (; seen < received_.size(); ++seen) {
          if (!consumed_[seen] && matches(expected, received_[seen])) {
            consumed_[seen] = true;
            return true;
          }
        }
        if (!read_more(step.line)) {
          std::cerr << "expected: " << expected.dump() << "\n";
          return false;
        }
        seen = 0;
      }
    }
    case Step::absent: {
      const json pattern = json::parse(body, nullptr, false);
      if (pattern.is_discarded()) return fail(step.line, "the pattern is not valid JSON") == 0;
      for (const json& m : received_)
        if (matches(pattern, m))
          return fail(step.line, "unexpected message: " + m.dump().substr(0, 2000)) == 0;
      return true;
    }
    case Step::directives: {
      std::istringstream lines(body);
      std::string line;
      while (std::getline(lines, line))
        if (!directive(step.line, line)) return false;
      return true;
    }
    }
    return false;
  }

  bool directive(int at, const std::string& line) {
    std::istringstream in(line);
    std::string name;
    in >> name;
    std::string rest;
    std::getline(in, rest);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    if (name == "%args") {
      std::istringstream words(rest);
      std::string w;
      while (words >> w)
        args_.push_back(w);
      return true;
    }
    if (name == "%memory-limit") { // %memory-limit MB: the server's address space (setrlimit)
      if (pid_ > 0) return fail(at, "%memory-limit after the server started") == 0;
      memory_limit_ = static_cast<rlim_t>(std::stoull(rest)) << 20;
      return true;
    }
    if (name == "%open-repeated") { // %open-repeated URI COUNT "json string": a didOpen (version
      // 1) of the string repeated COUNT times: a document too large to write out here
      std::istringstream words(rest);
      std::string uri;
      size_t count = 0;
      words >> uri >> count;
      std::string piece;
      std::getline(words, piece);
      const std::string unit = json::parse(piece).get<std::string>();
      std::string text;
      text.reserve(unit.size() * count);
      for (size_t i = 0; i < count; ++i)
        text += unit;
      if (!ensure_started(at)) return false;
      return send_json({{"method", "textDocument/didOpen"},
                        {"params",
                         {{"textDocument",
                           {{"uri", substitute(uri)},
                            {"languageId", "plaintext"},
                            {"version", 1},
                            {"text", std::move(text)}}}}}}) ||
             fail(at, "cannot write to the server") == 0;
    }
    if (name ==
        "%reply") { // %reply METHOD JSON: the result the runner answers server requests with
      const size_t space = rest.find(' ');
      replies_[rest.substr(0, space)] = json::parse(rest.substr(space + 1));
      return true;
    }
    if (name == "%file" || name == "%expect-file") { // %file PATH "json string"
      const size_t space = rest.find(' ');
      const fs::path path = fs::path(root_) / rest.substr(0, space);
      const std::string content = json::parse(rest.substr(space + 1)).get<std::string>();
      if (name == "%file") {
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << content;
        return true;
      }
      std::ifstream f(path, std::ios::binary);
      if (!f) return fail(at, "expected file " + path.string() + " is missing") == 0;
      std::string actual((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      if (actual != content)
        return fail(at, "file " + path.string() + " is " + json(actual).dump() + ", expected " +
                            json(content).dump()) == 0;
      return true;
    }
    if (name == "%chmod") { // %chmod PATH OCTAL: a file made read-only (or writable again)
      const size_t space = rest.find(' ');
      const fs::path path = fs::path(root_) / rest.substr(0, space);
      const auto mode = static_cast<mode_t>(std::stoul(rest.substr(space + 1), nullptr, 8));
      if (::chmod(path.c_str(), mode) != 0)
        return fail(at, "cannot chmod " + path.string() + ": " + std::strerror(errno)) == 0;
      return true;
    }
    if (name == "%expect-missing") {
      if (fs::exists(fs::path(root_) / rest)) return fail(at, "file " + rest + " exists") == 0;
      return true;
    }
    if (name == "%raw") { // %raw BYTES with \r \n \xNN escapes
      if (!ensure_started(at)) return false;
      return write_all(unescape(rest)) || fail(at, "cannot write") == 0;
    }
    if (name == "%close") {
      if (!ensure_started(at)) return false;
      close(to_server_);
      return true;
    }
    if (name == "%spawn-child") { // a process that lives until %kill-child: ${CHILD_PID}
      child_ = fork();
      if (child_ == 0) {
        // Not a holder of the server's pipes: the server must still see its input end.
        if (to_server_ >= 0) close(to_server_);
        if (from_server_ >= 0) close(from_server_);
        for (;;)
          pause();
      }
      return child_ > 0 || fail(at, "fork failed") == 0;
    }
    if (name == "%kill-child") { // ends and reaps it: from now on its pid names no process
      if (child_ <= 0) return fail(at, "%kill-child without %spawn-child") == 0;
      kill(child_, SIGKILL);
      waitpid(child_, nullptr, 0);
      child_ = -1;
      return true;
    }
    if (name == "%exit") { // waits for the end of output and the exit code
      if (!ensure_started(at)) return false;
      while (read_more(at)) {
      }
      if (!eof_) return false;
      int status = 0;
      waitpid(pid_, &status, 0);
      exited_ = true;
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      if (code != std::stoi(rest))
        return fail(at, "exit code " + std::to_string(code) + ", expected " + rest) == 0;
      return true;
    }
    return fail(at, "unknown directive " + name) == 0;
  }

  std::string binary_, test_, root_;
  std::vector<std::string> args_;
  std::map<std::string, json> replies_;
  pid_t pid_ = -1, child_ = -1;
  rlim_t memory_limit_ = 0; // 0: none
  int to_server_ = -1, from_server_ = -1;
  bool eof_ = false, exited_ = false;
  blockls::lsp::FrameParser parser_{SIZE_MAX};
  std::vector<json> received_;
  std::vector<bool> consumed_;
};

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: transcript_runner BLOCKLS_BINARY FILE.test\n";
    return 2;
  }
  return Runner(argv[1], argv[2]).run();
}
