// SIGKILL at random moments while the real binary applies one large block: every target is
// always its old or its new content, never partial, and the next `blockls apply --recover`
// rolls an interrupted block back so the block is all or nothing across a crash too.
#include "apply/apply_test_support.h"
#include "apply/journal.h"
#include "support/process.h"
#include "support/progress_watch.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <random>
#include <sys/inotify.h>
#include <sys/wait.h>
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

  // An uninterrupted run, to count the filesystem events one apply causes.
  reset(root);
  size_t full_events = 0;
  {
    ProgressWatch watch(root);
    const pid_t pid = spawn_blockls({"apply", "--root", root, doc});
    full_events = watch.wait_for(SIZE_MAX, pid);
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
  }
  REQUIRE(check_files(root) == State::all_new);
  REQUIRE(full_events > 20);

  std::mt19937 rng(20240601);
  int interrupted = 0, completed = 0, untouched = 0;
  const auto start = std::chrono::steady_clock::now();
  const int kRuns = 52;
  for (int run = 0; run < kRuns; ++run) {
    reset(root);
    ProgressWatch watch(root);
    const pid_t pid = spawn_blockls({"apply", "--root", root, doc});
    // Stratified: run r kills at a random event within the r-th slice of [0, 1.1 x events],
    // so the kills cover the start, every stage of the block and a completed run.
    const size_t span = full_events * 11 / 10 + 1;
    const size_t k = span * run / kRuns + rng() % std::max<size_t>(1, span / kRuns);
    watch.wait_for(k, pid);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    INFO("run " << run);
    // Right after the kill: every file is old or new (atomic renames), never partial.
    const State killed = check_files(root);
    // Journals live in the user's state directory (BLOCKLS_STATE_DIR, set by the test main
    // and inherited by the child), never inside the root.
    const bool journal_left = !blockls::apply::pending_journals(root).empty();
    CHECK(!std::filesystem::exists(root + "/.blockls"));
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
  WARN("crash test: " << kRuns << " kills in " << seconds << " s (one full run: " << full_events
                      << " filesystem events): " << interrupted << " rolled back, " << completed
                      << " completed, " << untouched << " before the journal");
  CHECK(interrupted > 0);
  // The next apply (not only --recover) rolls back too, then applies the block again.
  reset(root);
  ProgressWatch watch(root);
  const pid_t pid = spawn_blockls({"apply", "--root", root, doc});
  watch.wait_for(full_events / 2, pid);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  const ProcessResult again = run_blockls({"apply", "--root", root, doc});
  CHECK(again.exit_code == 0);
  CHECK(check_files(root) == State::all_new);
  std::filesystem::remove_all(base);
}
