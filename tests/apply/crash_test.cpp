// SIGKILL at random moments while the real binary applies one large block: every target is
// always its old or its new content, never partial, and the next `blockls apply --recover`
// rolls an interrupted block back so the block is all or nothing across a crash too.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace blockls::test;

namespace {

constexpr int kFiles = 40;

std::string old_content(int i) {
  std::string s;
  for (int k = 0; k < 150; ++k)
    s += "old " + std::to_string(i) + " line " + std::to_string(k) + "\n";
  return s;
}
std::string new_content(int i) {
  std::string s;
  for (int k = 0; k < 170; ++k)
    s += "NEW " + std::to_string(i) + " row " + std::to_string(k) + "\n";
  s.pop_back(); // a TELT value has no final newline
  return s;
}
std::string name(int i) {
  return (i % 3 == 0 ? "d" + std::to_string(i % 7) + "/" : "") + "f" + std::to_string(i) + ".txt";
}

// One block: rewrite every existing file, and create a few new ones in a new directory.
std::string transcript() {
  std::string t = "#!telt [3-char SHA: crs]\n";
  for (int i = 0; i < kFiles; ++i) {
    t += "=== FILE_WRITE ===\n--FILE crs--\n" + name(i) + "\n--CONTENT crs--\n" + new_content(i) +
         "\n";
  }
  for (int i = 0; i < 10; ++i)
    t += "=== FILE_WRITE ===\n--FILE crs--\nfresh/n" + std::to_string(i) +
         ".txt\n--CONTENT crs--\nnew file\n";
  return t + "--END crs--\n";
}

void reset(const std::string& root) {
  std::filesystem::remove_all(root);
  for (int i = 0; i < kFiles; ++i)
    put_file(root + "/" + name(i), old_content(i));
}

pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 1);
    ::dup2(null, 2);
    std::vector<char*> argv{const_cast<char*>(BLOCKLS_BINARY)};
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(BLOCKLS_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

enum class State { all_old, all_new, mixed };

State check_files(const std::string& root) {
  int olds = 0, news = 0;
  for (int i = 0; i < kFiles; ++i) {
    const std::string c = get_file(root + "/" + name(i));
    if (c == old_content(i))
      ++olds;
    else if (c == new_content(i))
      ++news;
    else
      FAIL("partial or foreign content in " << name(i) << ": " << c.substr(0, 40));
  }
  for (int i = 0; i < 10; ++i) {
    const std::string c = get_file(root + "/fresh/n" + std::to_string(i) + ".txt");
    if (c == "<missing>")
      ++olds;
    else if (c == "new file")
      ++news;
    else
      FAIL("partial content in fresh/n" << i);
  }
  if (news == 0) return State::all_old;
  if (olds == 0) return State::all_new;
  return State::mixed;
}

bool has_temp_files(const std::string& root) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().filename().string().find(".blockls-tmp-") != std::string::npos) return true;
  return false;
}

} // namespace

TEST_CASE("SIGKILL during apply: files are old or new, and recovery makes the block all or nothing",
          "[apply][crash]") {
  const std::string base = make_temp_dir();
  const std::string root = base + "/root", doc = base + "/t.md";
  write_text(doc, transcript());

  // An uninterrupted run, to know how long one takes.
  reset(root);
  const auto t0 = std::chrono::steady_clock::now();
  const ProcessResult full = run_blockls({"apply", "--root", root, doc});
  const auto full_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  REQUIRE(full.exit_code == 0);
  REQUIRE(check_files(root) == State::all_new);

  std::mt19937 rng(20240601);
  std::uniform_int_distribution<long> delay(0, std::max<long>(full_us * 12 / 10, 2000));
  int interrupted = 0, completed = 0, untouched = 0;
  const auto start = std::chrono::steady_clock::now();
  const int kRuns = 52;
  for (int run = 0; run < kRuns; ++run) {
    reset(root);
    const pid_t pid = spawn({"apply", "--root", root, doc});
    // The wait only picks the random moment of the kill (the issue's "SIGKILL at random
    // moments"); nothing is asserted about time, and every outcome is checked for validity.
    std::this_thread::sleep_for(std::chrono::microseconds(delay(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    INFO("run " << run);
    // Right after the kill: every file is old or new (atomic renames), never partial.
    const State killed = check_files(root);
    const bool journal_left = std::filesystem::exists(root + "/.blockls") && [&] {
      for (const auto& e : std::filesystem::directory_iterator(root + "/.blockls"))
        if (e.path().extension() == ".json") return true;
      return false;
    }();
    const ProcessResult rec = run_blockls({"apply", "--recover", "--root", root});
    REQUIRE(rec.exit_code == 0);
    const State after = check_files(root);
    CHECK(after != State::mixed);
    CHECK(!has_temp_files(root));
    if (journal_left) {
      CHECK(after == State::all_old);
      CHECK(rec.out.find("rolled back") != std::string::npos);
      ++interrupted;
    } else if (after == State::all_new) {
      ++completed;
    } else {
      ++untouched;
    }
    if (killed == State::mixed) CHECK(journal_left);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("crash test: " << kRuns << " kills in " << seconds << " s (one full run " << full_us / 1000
                      << " ms): " << interrupted << " rolled back, " << completed << " completed, "
                      << untouched << " before the journal");
  CHECK(interrupted > 0);
  // The next apply (not only --recover) rolls back too, then applies the block again.
  reset(root);
  const pid_t pid = spawn({"apply", "--root", root, doc});
  std::this_thread::sleep_for(std::chrono::microseconds(full_us / 2));
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  const ProcessResult again = run_blockls({"apply", "--root", root, doc});
  CHECK(again.exit_code == 0);
  CHECK(check_files(root) == State::all_new);
  std::filesystem::remove_all(base);
}
