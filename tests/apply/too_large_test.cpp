// Files larger than blockls reads (FILE_TOO_LARGE): a file's text is held whole while a block
// is checked and applied, so a block naming a huge file is refused with the file's size and
// the limit (--max-file-size, 64 MiB by default) instead of exhausting the memory. The tests
// use small limits; the default one is checked on a sparse file, which costs no disk.
#include "apply/apply_test_support.h"
#include "apply/beneath_source.h"
#include "apply/disk_backend.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace blockls;
using namespace blockls::test;
using nlohmann::json;

namespace {

const std::string kBig = std::string(195, 'x') + "tail\n"; // 200 bytes

// A root with big.txt (200 bytes) and small.txt (6 bytes).
struct BigRoot {
  std::string root = make_temp_dir();
  BigRoot() {
    put_file(root + "/big.txt", kBig);
    put_file(root + "/small.txt", "small\n");
  }
  ~BigRoot() { std::filesystem::remove_all(root); }
  BigRoot(const BigRoot&) = delete;
  BigRoot& operator=(const BigRoot&) = delete;
};

// A NESL block creating new.txt, then one of `action` with `params`.
std::string nesl_blocks(const std::string& action,
                        const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out = "#!nesl [@three-char-SHA-256: n01]\naction = \"file_write\"\npath = "
                    "\"new.txt\"\ncontent = \"fresh\"\n#!end_n01\n"
                    "#!nesl [@three-char-SHA-256: n02]\naction = \"" +
                    action + "\"\n";
  for (const auto& [name, value] : params)
    out += name + " = \"" + value + "\"\n";
  return out + "#!end_n02\n";
}

// The FILE_TOO_LARGE messages of an `apply --format json` report.
std::vector<std::string> too_large_messages(const json& report) {
  std::vector<std::string> out;
  for (const json& f : report["files"])
    for (const json& d : f["diagnostics"])
      if (d["code"] == "FILE_TOO_LARGE") out.push_back(d["message"].get<std::string>());
  return out;
}

} // namespace

TEST_CASE("an action on a file past --max-file-size is refused and changes nothing",
          "[apply][too-large][cli]") {
  const std::vector<std::pair<std::string, std::string>> kMoveTo = {{"old_path", "small.txt"},
                                                                    {"new_path", "big.txt"}};
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
      cases = {
          {"file_replace_text", {{"path", "big.txt"}, {"old_text", "xx"}, {"new_text", "y"}}},
          {"file_write", {{"path", "big.txt"}, {"content", "y"}}},
          {"file_append", {{"path", "big.txt"}, {"content", "y"}}},
          {"file_delete", {{"path", "big.txt"}}},
          {"file_move", {{"old_path", "big.txt"}, {"new_path", "moved.txt"}}},
          {"file_move", kMoveTo}, // onto the big file
          {"file_read", {{"path", "big.txt"}}},
      };
  for (const auto& [action, params] : cases) {
    BigRoot r;
    const std::string text = nesl_blocks(action, params);
    INFO(text);
    const TreeSnapshot before = snapshot_tree(r.root);
    for (const bool dry_run : {true, false}) {
      std::vector<std::string> args{"apply", "--root",          r.root, "--format",
                                    "json",  "--max-file-size", "199"};
      if (dry_run) args.push_back("--dry-run");
      args.push_back("-");
      const ProcessResult p = run_blockls(args, text);
      INFO(p.out << p.err);
      CHECK(p.exit_code == 1);
      REQUIRE(!p.out.empty());
      const std::vector<std::string> messages = too_large_messages(json::parse(p.out));
      CHECK(messages.size() == 1);
      if (!messages.empty())
        CHECK(messages[0].find("is 200 bytes, more than the 199 bytes blockls reads of a file") !=
              std::string::npos);
      // Every file as it was; the first block (new.txt) is applied by the real run.
      auto after = snapshot_tree(r.root);
      for (auto it = after.begin(); it != after.end();)
        it = it->first.starts_with(".blockls") || it->first == "new.txt" ? after.erase(it)
                                                                         : std::next(it);
      CHECK(after == before);
      CHECK(get_file(r.root + "/new.txt") == (dry_run ? "<missing>" : "fresh"));
    }
  }
}

TEST_CASE("a file at --max-file-size is read and edited", "[apply][too-large][cli]") {
  BigRoot r;
  const ProcessResult p =
      run_blockls({"apply", "--root", r.root, "--max-file-size", "200", "-"},
                  nesl_blocks("file_replace_text",
                              {{"path", "big.txt"}, {"old_text", "tail"}, {"new_text", "TAIL"}}));
  INFO(p.out << p.err);
  CHECK(p.exit_code == 0);
  CHECK(get_file(r.root + "/big.txt") == std::string(195, 'x') + "TAIL\n");
  CHECK(get_file(r.root + "/new.txt") == "fresh");
}

TEST_CASE("check --root reports FILE_TOO_LARGE with the limit and how to raise it",
          "[apply][too-large][cli]") {
  BigRoot r;
  const std::string text = nesl_blocks(
      "file_replace_text", {{"path", "big.txt"}, {"old_text", "xx"}, {"new_text", "y"}});
  const ProcessResult p = run_blockls(
      {"check", "--root", r.root, "--max-file-size", "100", "--format", "json", "-"}, text);
  INFO(p.out << p.err);
  CHECK(p.exit_code == 1);
  bool found = false;
  const json report = json::parse(p.out); // (a temporary's element would dangle in the loop)
  for (const json& f : report["files"])
    for (const json& d : f["errors"])
      if (d["code"] == "FILE_TOO_LARGE") {
        found = true;
        CHECK(d["message"].get<std::string>().find("'big.txt' is 200 bytes, more than the 100") !=
              std::string::npos);
        CHECK(d["fix_hint"].get<std::string>().find("--max-file-size") != std::string::npos);
        CHECK(d.value("fixes", json::array()).empty());
      }
  CHECK(found);
  // The default limit (64 MiB) reads it; without --root the option is a usage error.
  const ProcessResult ok = run_blockls({"check", "--root", r.root, "-"}, text);
  CHECK(ok.out.find("FILE_TOO_LARGE") == std::string::npos);
  const ProcessResult usage = run_blockls({"check", "--max-file-size", "100", "-"}, text);
  CHECK(usage.exit_code == 2);
  CHECK(usage.err.find("--max-file-size needs --root") != std::string::npos);
}

TEST_CASE("stream --apply skips a block that names a file past --max-file-size",
          "[apply][too-large][cli]") {
  BigRoot r;
  const ProcessResult p =
      run_blockls({"stream", "--apply", "--root", r.root, "--max-file-size", "150"},
                  nesl_blocks("file_replace_text",
                              {{"path", "big.txt"}, {"old_text", "xx"}, {"new_text", "y"}}));
  INFO(p.out << p.err);
  CHECK(p.exit_code == 1);
  CHECK(p.out.find("\"code\":\"FILE_TOO_LARGE\"") != std::string::npos);
  CHECK(get_file(r.root + "/big.txt") == kBig);
  CHECK(get_file(r.root + "/new.txt") == "fresh"); // the first block was valid: applied
}

TEST_CASE("the file sources do not read a file past their limit", "[apply][too-large]") {
  BigRoot r;
  // The default: 64 MiB. A sparse file one byte larger takes no disk.
  const std::string huge = r.root + "/huge.log";
  put_file(huge, "");
  REQUIRE(::truncate(huge.c_str(), static_cast<off_t>(apply::kDefaultMaxFileBytes + 1)) == 0);
  const apply::FileState h = apply::DiskSource().read(huge);
  CHECK(h.kind == apply::FileState::Kind::other);
  CHECK(h.too_large == apply::kDefaultMaxFileBytes + 1);
  CHECK(h.content.empty());

  for (const uint64_t limit : {uint64_t{199}, uint64_t{200}}) {
    INFO(limit);
    apply::ApplyConfig config;
    std::string error;
    REQUIRE(apply::make_config(r.root, &config, &error));
    config.max_file_bytes = limit;
    apply::Beneath roots;
    REQUIRE(apply::open_roots(config, &roots, &error));
    const apply::DiskSource disk(limit);
    const apply::BeneathSource beneath(roots, limit);
    for (const apply::FileSource* source : {static_cast<const apply::FileSource*>(&disk),
                                            static_cast<const apply::FileSource*>(&beneath)}) {
      const apply::FileState s = source->read(config.root + "/big.txt");
      if (limit == 200) {
        CHECK(s.kind == apply::FileState::Kind::file);
        CHECK(s.content.str() == kBig);
      } else {
        CHECK(s.kind == apply::FileState::Kind::other);
        CHECK(s.too_large == 200);
      }
      CHECK(source->read(config.root + "/small.txt").kind == apply::FileState::Kind::file);
    }
  }
}

TEST_CASE("a file grown past the limit after the check is refused by the re-check before the write",
          "[apply][too-large][disk]") {
  TempRoot root;
  root.config.max_file_bytes = 100;
  put_file(root.dir + "/a.txt", "hello\n");
  const std::string text =
      "#!telt [3-char SHA: gr1]\n=== FILE_WRITE ===\n--FILE gr1--\nb.txt\n--CONTENT gr1--\nB\n"
      "=== REPLACE_TEXT ===\n--FILE gr1--\na.txt\n--OLD_TEXT gr1--\nhello\n--NEW_TEXT gr1--\nbye\n"
      "--END gr1--\n";
  auto c = check_with_workspace(text, root.config);
  REQUIRE(c->ws.simulation.blocks.size() == 1);
  REQUIRE(c->ws.simulation.blocks[0].ok);
  const std::string grown = "hello\n" + std::string(200, 'z');
  put_file(root.dir + "/a.txt", grown);
  std::vector<Diagnostic> diags;
  const apply::BlockRun run = run_checked_block_on_disk(*c, root.config, &diags);
  INFO(run.code << ": " << run.error);
  CHECK(!run.applied);
  CHECK(run.code == "FILE_CHANGED"); // it changed since the check: that is said first
  CHECK(get_file(root.dir + "/a.txt") == grown);
  CHECK(get_file(root.dir + "/b.txt") == "<missing>");
}
