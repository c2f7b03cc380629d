// `blockls stream --apply --root DIR` through real pipes to the real binary: each valid block
// is applied as soon as its block_end is written (the test holds the rest of the input back
// and looks at the disk), in order, a later block seeing the earlier ones; the files end as
// `blockls apply` leaves them on the same transcript; invalid blocks, blocks that fail in the
// workspace and paths outside the root are skipped with their reason; usage errors; and
// SIGKILL at random moments leaves every file old or new, never partial, nothing outside the
// root touched, each block all or nothing after recovery.
#include "apply/apply_test_support.h"
#include "apply/journal.h"
#include "support/piped_blockls.h"
#include "support/process.h"
#include "support/progress_watch.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace blockls::test;

namespace {

// The blocks of the transcript, sent one at a time; each is followed by the event it must get.
struct Step {
  std::string text;
  std::string event;  // applied / skipped
  std::string reason; // skipped: invalid / failed
  std::string code;   // skipped: the code
};

const std::vector<Step>& steps() {
  static const std::vector<Step> s = {
      {"First the notes:\n\n```bash\ncat > notes/a.txt << 'EOF'\nalpha\nbeta\nEOF\n```\n",
       "applied", "", ""},
      {"Then an edit of them:\n\nnotes/a.txt\n```\n<<<<<<< SEARCH\nbeta\n=======\ngamma\n"
       ">>>>>>> REPLACE\n```\n",
       "applied", "", ""},
      {"A TELT write whose end line has the wrong hash:\n\n#!telt [3-char SHA: t5q]\n"
       "=== FILE_WRITE ===\n--FILE t5q--\nnotes/a.txt\n--CONTENT t5q--\nclobbered\n"
       "--END t5x--\n",
       "skipped", "invalid", "HASH_MISMATCH"},
      {"A file outside the root:\n\n```bash\ncat > ../escape.txt << 'EOF'\nout\nEOF\n```\n",
       "skipped", "failed", "PATH_OUTSIDE_ROOT"},
      {"An edit whose old text is not there:\n\nnotes/a.txt\n```\n<<<<<<< SEARCH\nnothere\n"
       "=======\nx\n>>>>>>> REPLACE\n```\n",
       "skipped", "failed", "SEARCH_NOT_FOUND"},
      {"And a NESL write:\n\n#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n"
       "path = \"b.txt\"\ncontent = \"hi\"\n#!end_k1w\nDone.\n",
       "applied", "", ""},
  };
  return s;
}

std::string whole_transcript() {
  std::string t;
  for (const Step& s : steps())
    t += s.text;
  return t;
}

} // namespace

TEST_CASE("stream --apply: each valid block applied as it closes, in order, as apply does",
          "[cli][stream][apply]") {
  const std::string base = make_temp_dir();
  const std::string root = base + "/root", other = base + "/other";
  std::filesystem::create_directories(root);
  std::filesystem::create_directories(other);
  put_file(base + "/outside-before.txt", "untouched\n");
  const TreeSnapshot before = snapshot_tree(base);

  PipedBlockls p({"stream", "--apply", "--root", root});
  nlohmann::json results = nlohmann::json::array(); // of every action, in order
  size_t number = 0;
  for (const Step& step : steps()) {
    ++number;
    INFO("block " << number);
    p.send(step.text);
    // block_start, block_end, then this block's applied/skipped — with the input still open.
    std::vector<nlohmann::json> events = p.events_until("block_end");
    REQUIRE(events.back().is_object());
    const nlohmann::json end = events.back();
    const nlohmann::json e = p.next_event();
    REQUIRE(e.is_object());
    CHECK(e["event"] == step.event);
    CHECK(e["block_number"] == number);
    CHECK(e["line"] == end["block"]["metadata"]["start_line"]);
    CHECK(e["dialect"] == end["block"]["metadata"]["dialect"]);
    for (const nlohmann::json& r : e.value("results", nlohmann::json::array()))
      results.push_back(r);
    if (step.event == "applied") {
      CHECK(!e.contains("feedback"));
      CHECK(end["block"]["metadata"]["valid"] == true);
      CHECK(!e["results"].empty());
    } else {
      CHECK(e["reason"] == step.reason);
      CHECK(!e["message"].get<std::string>().empty());
      if (!step.code.empty()) CHECK(e["code"] == step.code);
      if (step.reason == "invalid") {
        CHECK(end["block"]["metadata"]["valid"] == false);
        CHECK(e["code"] == end["errors"][0]["code"]);
        CHECK(!e.contains("feedback")); // its block_end has it
      }
      if (step.reason == "failed") { // a valid block: the model hears of it here only
        CHECK(!end.contains("feedback"));
        const std::string feedback = e.value("feedback", "");
        CHECK(feedback.starts_with("block " + std::to_string(number) + " ("));
        CHECK(feedback.find("nothing was changed for it") != std::string::npos);
        CHECK(feedback.find("[" + step.code + "]") != std::string::npos);
      }
    }
    // The disk already shows it, before the rest of the input is sent.
    if (number == 1) {
      CHECK(e["files"] == nlohmann::json::array({"notes/a.txt"}));
      CHECK(get_file(root + "/notes/a.txt") == "alpha\nbeta\n");
    }
    if (number == 2) CHECK(get_file(root + "/notes/a.txt") == "alpha\ngamma\n");
  }
  p.close_input();
  const nlohmann::json done = p.next_event();
  REQUIRE(done.is_object());
  CHECK(done["event"] == "done");
  CHECK(p.next_event().is_null());
  CHECK(p.wait_exit() == 1); // an invalid block, and two that failed

  CHECK(get_file(root + "/notes/a.txt") == "alpha\ngamma\n");
  CHECK(get_file(root + "/b.txt") == "hi");
  CHECK(get_file(base + "/escape.txt") == "<missing>");

  // `blockls apply` on the whole transcript leaves the same files, with the same result for
  // every action (numbered alike).
  write_text(base + "/t.md", whole_transcript());
  const ProcessResult applied =
      run_blockls({"apply", "--format", "json", "--root", other, base + "/t.md"});
  CHECK(applied.exit_code == 1);
  CHECK(snapshot_tree(other) == snapshot_tree(root));
  nlohmann::json apply_results = nlohmann::json::parse(applied.out)["files"][0]["results"];
  for (nlohmann::json& r : apply_results) // the one difference: the root in the messages
    if (r.contains("error"))
      r["error"] = std::regex_replace(r["error"].get<std::string>(), std::regex("/other"), "/root");
  CHECK(results == apply_results);
  CHECK(results.size() == 5);
  // Nothing outside the roots changed.
  TreeSnapshot after = snapshot_tree(base);
  for (auto it = after.begin(); it != after.end();)
    it = it->first.starts_with("root") || it->first.starts_with("other") || it->first == "t.md"
             ? after.erase(it)
             : std::next(it);
  TreeSnapshot expected = before;
  for (auto it = expected.begin(); it != expected.end();)
    it = it->first.starts_with("root") || it->first.starts_with("other") ? expected.erase(it)
                                                                         : std::next(it);
  CHECK(after == expected);
  std::filesystem::remove_all(base);
}

TEST_CASE("stream --apply: a read of several blocks applies each before the next one starts",
          "[cli][stream][apply]") {
  // The whole transcript in one write (under PIPE_BUF: one read gets it all): the events must
  // still be block_start, block_end, applied/skipped for each block in turn.
  const std::string whole = whole_transcript();
  REQUIRE(whole.size() < 4096);
  const std::string root = make_temp_dir();
  PipedBlockls p({"stream", "--apply", "--root", root});
  p.send(whole);
  p.close_input();
  std::vector<std::string> types;
  for (nlohmann::json e = p.next_event(); e.is_object(); e = p.next_event())
    if (e["event"] != "value_chunk") types.push_back(e["event"]);
  std::vector<std::string> want;
  for (const Step& step : steps())
    want.insert(want.end(), {"block_start", "block_end", step.event});
  want.push_back("done");
  CHECK(types == want);
  CHECK(p.wait_exit() == 1);
  std::filesystem::remove_all(root);
}

TEST_CASE("stream --apply: a valid block the files refuse gets check --root's feedback",
          "[cli][stream][apply]") {
  // The old text is near what the file holds: the skipped event's feedback gives check's
  // errors and corrected block (the old text as the file has it), under its own header.
  const std::string base = make_temp_dir();
  const std::string root = base + "/root";
  std::filesystem::create_directories(root);
  put_file(root + "/a.txt", "line1\nline 2\nline3\n");
  const std::string text = "Here:\n\n#!nesl [@three-char-SHA-256: a1b]\n"
                           "action = \"file_replace_text\"\npath = \"a.txt\"\n"
                           "old_text = <<'EOT_a1b'\nline2\nline3\nEOT_a1b\n"
                           "new_text = <<'EOT_a1b'\nLINE2\nLINE3\nEOT_a1b\n#!end_a1b\n";
  write_text(base + "/t.md", text);
  const ProcessResult check =
      run_blockls({"check", "--format", "feedback", "--root", root, base + "/t.md"});
  const std::string check_block = check.out.substr(check.out.find("\n- line") + 1);
  REQUIRE(check_block.find("line 2\nline3\nEOT_a1b") != std::string::npos);

  const ProcessResult r = run_blockls({"stream", "--apply", "--root", root}, text);
  CHECK(r.exit_code == 1);
  nlohmann::json skipped;
  for (size_t pos = 0; pos < r.out.size();) {
    const size_t nl = r.out.find('\n', pos);
    nlohmann::json e = nlohmann::json::parse(r.out.substr(pos, nl - pos));
    if (e["event"] == "skipped") skipped = std::move(e);
    pos = nl + 1;
  }
  REQUIRE(skipped.is_object());
  CHECK(skipped["reason"] == "failed");
  const std::string feedback = skipped.value("feedback", "");
  INFO(feedback);
  CHECK(feedback.starts_with("block 1 (nesl, a.txt, lines 3-14) is valid but could not be applied "
                             "to the files (1 error); nothing was changed for it:\n"));
  CHECK(feedback.substr(feedback.find('\n') + 1) == check_block);
  CHECK(get_file(root + "/a.txt") == "line1\nline 2\nline3\n");

  // Exec fails at run time, after its simulation: the failure itself is the feedback, and
  // says that the command ran.
  const ProcessResult ex =
      run_blockls({"stream", "--apply", "--allow-exec", "--root", root},
                  "#!nesl [@three-char-SHA-256: x1z]\naction = \"exec\"\nlang = \"bash\"\n"
                  "code = \"exit 3\"\n#!end_x1z\n");
  const size_t at = ex.out.find("\"event\":\"skipped\"");
  REQUIRE(at != std::string::npos);
  const size_t line = ex.out.rfind('\n', at) + 1;
  const nlohmann::json e = nlohmann::json::parse(ex.out.substr(line, ex.out.find('\n', at) - line));
  INFO(e.dump());
  const std::string exec_feedback = e.value("feedback", "");
  CHECK(exec_feedback.starts_with("block 1 (nesl, lines 1-5) is valid but could not be applied"));
  CHECK(exec_feedback.find("[" + e["code"].get<std::string>() + "]") != std::string::npos);
  std::filesystem::remove_all(base);
}

TEST_CASE("stream --apply --dry-run: writes nothing, later blocks see earlier ones",
          "[cli][stream][apply]") {
  const std::string base = make_temp_dir();
  const std::string root = base + "/root";
  std::filesystem::create_directories(root);
  const ProcessResult r =
      run_blockls({"stream", "--apply", "--dry-run", "--root", root}, whole_transcript());
  CHECK(r.exit_code == 1);
  std::vector<nlohmann::json> outcomes;
  size_t pos = 0;
  while (pos < r.out.size()) {
    const size_t nl = r.out.find('\n', pos);
    const nlohmann::json e = nlohmann::json::parse(r.out.substr(pos, nl - pos));
    if (e["event"] == "applied" || e["event"] == "skipped") outcomes.push_back(e);
    pos = nl + 1;
  }
  REQUIRE(outcomes.size() == steps().size());
  for (size_t i = 0; i < outcomes.size(); ++i) {
    INFO("block " << i + 1);
    CHECK(outcomes[i]["event"] == steps()[i].event);
    CHECK(outcomes[i]["dry_run"] == true);
  }
  // The edit of block 2 found the text block 1 would have written.
  CHECK(outcomes[1]["diff"].get<std::string>().find("+gamma") != std::string::npos);
  CHECK(snapshot_tree(root).empty());
  std::filesystem::remove_all(base);
}

TEST_CASE("stream --apply: apply's path options hold (--deny, .git), exec only with --allow-exec",
          "[cli][stream][apply]") {
  const std::string root = make_temp_dir();
  const std::string text = "```bash\ncat > secrets/key.txt << 'EOF'\nk\nEOF\n```\n"
                           "```bash\ncat > .git/config << 'EOF'\nx\nEOF\n```\n"
                           "#!nesl [@three-char-SHA-256: x1z]\naction = \"exec\"\nlang = \"bash\"\n"
                           "code = \"echo ran > ran.txt\"\n#!end_x1z\n";
  auto outcomes = [](const std::string& out) {
    std::vector<nlohmann::json> events;
    size_t pos = 0;
    while (pos < out.size()) {
      const size_t nl = out.find('\n', pos);
      nlohmann::json e = nlohmann::json::parse(out.substr(pos, nl - pos));
      if (e["event"] == "applied" || e["event"] == "skipped") events.push_back(std::move(e));
      pos = nl + 1;
    }
    return events;
  };
  ProcessResult r =
      run_blockls({"stream", "--apply", "--root", root, "--deny", "**/secrets/**"}, text);
  std::vector<nlohmann::json> e = outcomes(r.out);
  REQUIRE(e.size() == 3);
  CHECK(e[0]["code"] == "PATH_DENIED");
  CHECK(e[1]["code"] == "PATH_DENIED");
  CHECK(e[2]["event"] == "skipped");
  CHECK(e[2]["code"] == "EXEC_DISABLED");
  CHECK(r.exit_code == 1);
  CHECK(snapshot_tree(root).empty());
  r = run_blockls({"stream", "--apply", "--allow-exec", "--root", root}, text);
  e = outcomes(r.out);
  REQUIRE(e.size() == 3);
  CHECK(e[0]["event"] == "applied");
  CHECK(e[1]["code"] == "PATH_DENIED");
  CHECK(e[2]["event"] == "applied");
  CHECK(get_file(root + "/ran.txt") == "ran\n");
  CHECK(get_file(root + "/secrets/key.txt") == "k\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("stream --apply: usage errors and --help", "[cli][stream][apply]") {
  ProcessResult r = run_blockls({"stream", "--apply"}, "");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--apply needs --root DIR") != std::string::npos);
  CHECK(r.out.empty());
  r = run_blockls({"stream", "--root", "/tmp"}, "");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("only used with --apply") != std::string::npos);
  r = run_blockls({"stream", "--apply", "--root", "/nonexistent/blockls-root"}, "");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("blockls stream:") != std::string::npos);
  r = run_blockls({"stream", "--help"});
  CHECK(r.exit_code == 0);
  for (const char* opt : {"--apply", "--root", "--dry-run", "--allow-exec", "--exec-timeout",
                          "--deny", "--allow-root"})
    CHECK(r.out.find(opt) != std::string::npos);
}

namespace {

// The crash transcript: kBlocks blocks, block j rewriting files j*kPerBlock ... (j+1)*kPerBlock-1.
constexpr int kBlocks = 6, kPerBlock = 8;

std::string crash_name(int i) {
  return "f" + std::to_string(i) + ".txt";
}
std::string crash_old(int i) {
  std::string s;
  for (int k = 0; k < 120; ++k)
    s += "old " + std::to_string(i) + " line " + std::to_string(k) + "\n";
  return s;
}
std::string crash_new(int i) {
  std::string s;
  for (int k = 0; k < 140; ++k)
    s += "NEW " + std::to_string(i) + " row " + std::to_string(k) + "\n";
  s.pop_back(); // a TELT value has no final newline
  return s;
}
std::string crash_transcript() {
  std::string t;
  for (int j = 0; j < kBlocks; ++j) {
    const std::string id = "c" + std::to_string(j) + "x";
    t += "Block " + std::to_string(j) + ":\n#!telt [3-char SHA: " + id + "]\n";
    for (int i = j * kPerBlock; i < (j + 1) * kPerBlock; ++i)
      t += "=== FILE_WRITE ===\n--FILE " + id + "--\n" + crash_name(i) + "\n--CONTENT " + id +
           "--\n" + crash_new(i) + "\n";
    t += "--END " + id + "--\n\n";
  }
  return t;
}
void crash_reset(const std::string& root) {
  std::filesystem::remove_all(root);
  for (int i = 0; i < kBlocks * kPerBlock; ++i)
    put_file(root + "/" + crash_name(i), crash_old(i));
}
// Per block: 0 all old, 1 all new, 2 mixed; a partial file fails the test.
std::vector<int> crash_state(const std::string& root) {
  std::vector<int> blocks;
  for (int j = 0; j < kBlocks; ++j) {
    int olds = 0, news = 0;
    for (int i = j * kPerBlock; i < (j + 1) * kPerBlock; ++i) {
      const std::string c = get_file(root + "/" + crash_name(i));
      if (c == crash_old(i))
        ++olds;
      else if (c == crash_new(i))
        ++news;
      else
        FAIL("partial or foreign content in " << crash_name(i) << ": " << c.substr(0, 40));
    }
    blocks.push_back(news == 0 ? 0 : olds == 0 ? 1 : 2);
  }
  return blocks;
}

// Whether `blocks` (crash_state) is some blocks new, then (when `allow_mixed`) at most one
// mixed, then the rest old: what applying them in order, one at a time, can leave.
bool applied_in_order(const std::vector<int>& blocks, bool allow_mixed) {
  size_t j = 0;
  while (j < blocks.size() && blocks[j] == 1)
    ++j;
  if (allow_mixed && j < blocks.size() && blocks[j] == 2) ++j;
  while (j < blocks.size() && blocks[j] == 0)
    ++j;
  return j == blocks.size();
}

// `blockls stream --apply --root ROOT` reading `transcript` from a file (all of it at once).
pid_t spawn_stream(const std::string& root, const std::string& transcript) {
  return spawn_blockls({"stream", "--apply", "--root", root}, transcript);
}

} // namespace

TEST_CASE("stream --apply: SIGKILL mid-stream leaves files old or new, blocks all or nothing",
          "[cli][stream][apply][crash]") {
  const std::string base = make_temp_dir();
  const std::string root = base + "/root", doc = base + "/t.md";
  write_text(doc, crash_transcript());
  put_file(base + "/outside.txt", "outside\n");
  auto outside = [&] {
    TreeSnapshot t = snapshot_tree(base);
    for (auto it = t.begin(); it != t.end();)
      it = it->first.starts_with("root") ? t.erase(it) : std::next(it);
    return t;
  };
  const TreeSnapshot outside_before = outside();

  // An uninterrupted run, to count the filesystem events one stream causes.
  crash_reset(root);
  size_t full_events = 0;
  {
    ProgressWatch watch(root);
    const pid_t pid = spawn_stream(root, doc);
    full_events = watch.wait_for(SIZE_MAX, pid);
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
  }
  REQUIRE(crash_state(root) == std::vector<int>(kBlocks, 1));
  REQUIRE(full_events > 20);

  std::mt19937 rng(20261126);
  int interrupted = 0;
  const int kRuns = 30;
  for (int run = 0; run < kRuns; ++run) {
    crash_reset(root);
    ProgressWatch watch(root);
    const pid_t pid = spawn_stream(root, doc);
    // Stratified over [0, 1.1 x events], as the apply crash test does.
    const size_t span = full_events * 11 / 10 + 1;
    const size_t k = span * run / kRuns + rng() % std::max<size_t>(1, span / kRuns);
    watch.wait_for(k, pid);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    INFO("run " << run << ", killed after " << k << " of " << full_events << " events");
    // Right after the kill: every file old or new (never partial); blocks applied in order, so
    // at most one block is mixed and every block before it is new, every block after it old.
    const std::vector<int> killed = crash_state(root);
    const bool journal_left = !blockls::apply::pending_journals(root).empty();
    CHECK(applied_in_order(killed, true));
    if (std::count(killed.begin(), killed.end(), 2) > 0) CHECK(journal_left);
    CHECK(!std::filesystem::exists(root + "/.blockls"));
    CHECK(outside() == outside_before);
    // Recovery rolls the interrupted block back: then every block is all or nothing.
    const ProcessResult rec = run_blockls({"apply", "--recover", "--root", root});
    REQUIRE(rec.exit_code == 0);
    const std::vector<int> after = crash_state(root);
    CHECK(applied_in_order(after, false));
    if (journal_left) ++interrupted;
  }
  CHECK(interrupted > 0);
  std::filesystem::remove_all(base);
}
