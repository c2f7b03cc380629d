// The incremental workspace oracle: after random edits of a transcript, and random changes of
// the files on disk, the simulation that reuses the previous one (simulate_plan with a
// SimulationBase, as the language server runs it on every keystroke) equals a full simulation,
// field by field: blocks, outcomes, effects, observations, changes and diagnostics.
#include "apply/simulate.h"
#include "apply/simulation_diff.h"
#include "apply_test_support.h"
#include "diagnostics/check.h"
#include "diagnostics/recheck.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <random>

namespace blockls {
namespace {

const char* const kPaths[] = {"a.txt", "b.txt", "d/c.txt", "d/e/f.txt", "g.txt"};
const char* const kWords[] = {"alpha", "beta", "gamma", "delta"};

// One NESL block of a random action over a few shared paths (so blocks depend on each other).
std::string random_block(std::mt19937& rng, size_t n) {
  auto pick = [&](auto& list) { return list[rng() % std::size(list)]; };
  const std::string id = fmt::format("b{:02}", n % 100);
  if (rng() % 4 == 0) {
    // An Aider edit: its path on the line before the fence, or none (the earlier edit's path
    // then): a value from outside the block, which must move with it to be reused.
    const std::string path = rng() % 2 ? std::string(pick(kPaths)) + "\n" : "";
    return fmt::format("Edit {}:\n\n{}```text\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n"
                       "```\n\n",
                       n, path, pick(kWords), pick(kWords));
  }
  std::string body;
  switch (rng() % 5) {
  case 0:
  case 1:
    body = fmt::format("action = \"write_file\"\npath = \"{}\"\ncontent = \"{} {}\"\n",
                       pick(kPaths), pick(kWords), pick(kWords));
    break;
  case 2:
    body = fmt::format("action = \"replace_text_in_file\"\npath = \"{}\"\nold_text = \"{}\"\n"
                       "new_text = \"{}\"\n",
                       pick(kPaths), pick(kWords), pick(kWords));
    break;
  case 3:
    body = fmt::format("action = \"delete_file\"\npath = \"{}\"\n", pick(kPaths));
    break;
  default:
    body = fmt::format("action = \"move_file\"\nold_path = \"{}\"\nnew_path = \"{}\"\n",
                       pick(kPaths), pick(kPaths));
  }
  return fmt::format(
      "Step {}:\n\n```sh nesl\n#!nesl [@three-char-SHA-256: {}]\n{}#!end_{}\n```\n\n", n, id, body,
      id);
}

// A random edit: insert or delete a few characters, or a whole block, anywhere.
std::string random_edit(std::mt19937& rng, std::string text, size_t* blocks) {
  const size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
  switch (rng() % 6) {
  case 0: { // a new block at a line start
    const size_t line = text.rfind('\n', at == 0 ? 0 : at - 1);
    const size_t start = line == std::string::npos ? 0 : line + 1;
    return text.insert(start, random_block(rng, (*blocks)++));
  }
  case 1:
  case 2: { // delete a few bytes
    const size_t n = std::min<size_t>(1 + rng() % 4, text.size() - std::min(at, text.size()));
    return text.erase(at, n);
  }
  default: { // type a character or a newline
    const char* const typed[] = {"x", "a", "\n", "\"", " ", "e"};
    return text.insert(at, typed[rng() % std::size(typed)]);
  }
  }
}

// A random change of the files: rewrite one, remove one, or turn a directory into a file.
void random_disk_change(std::mt19937& rng, const std::string& root) {
  const std::string path = root + "/" + kPaths[rng() % std::size(kPaths)];
  std::error_code ec;
  if (rng() % 3 == 0)
    std::filesystem::remove_all(path, ec);
  else
    test::put_file(path, kWords[rng() % std::size(kWords)]);
}

// One version of the transcript, checked, planned and simulated; kept whole because the plan
// and the simulation point into the text and the checked document.
struct Version {
  std::string text;
  CheckedDocument checked;
  apply::Plan plan;
  apply::Simulation simulation;
};

// `changed_files`: what changed on disk since `base` (null: unknown). `recheck`: the text is
// re-checked from the base's check, as the language server does, and the simulation is told
// the re-parsed window.
std::unique_ptr<Version> simulate(std::string text, const apply::ApplyConfig& config,
                                  apply::PathMemo* paths, const Version* base,
                                  const std::vector<std::string>* changed_files = nullptr,
                                  bool recheck = false,
                                  std::vector<apply::BlockSimulation>* spare = nullptr) {
  auto v = std::make_unique<Version>();
  v->text = std::move(text);
  CheckOptions options;
  options.keep_parser_diagnostics = recheck;
  std::optional<ReparseWindow> window;
  if (recheck && base) {
    Recheck r = recheck_document(base->text, base->checked, v->text, options);
    v->checked = std::move(r.checked);
    if (r.incremental) window = r.parse_window;
  } else {
    v->checked = check_document(v->text, options);
  }
  const ActionCatalog& catalog = ActionCatalog::builtin();
  v->plan = apply::build_plan(v->text, v->checked, catalog);
  const apply::SimulationInput input{v->text, &v->checked, &v->plan, &config};
  apply::SimulationOptions sim_options;
  sim_options.paths = paths;
  sim_options.spare = spare;
  apply::SimulationBase previous;
  if (base) {
    previous = {base->text,
                &base->checked,
                &base->plan,
                &base->simulation,
                changed_files,
                nullptr,
                window ? &*window : nullptr};
    sim_options.base = &previous;
  }
  v->simulation = apply::simulate_plan(input, apply::DiskSource(), sim_options);
  return v;
}

} // namespace

TEST_CASE("a simulation reusing the previous one equals a full simulation after every edit",
          "[apply][incremental]") {
  // Either every observation is read again, or only those the changed files (told exactly,
  // as the language server's file cache tells them) and the edited blocks may have changed.
  const bool told = GENERATE(false, true);
  INFO((told ? "changed files told" : "changed files unknown"));
  // Checked in full, or re-checked from the previous check with its re-parsed window told.
  const bool recheck = GENERATE(false, true);
  INFO((recheck ? "re-checked, window told" : "checked in full"));
  // Written over the blocks of the simulation before the previous one, as the language server
  // does (SimulationOptions::spare), or into new storage.
  const bool spare = GENERATE(false, true);
  INFO((spare ? "over spare blocks" : "into new storage"));
  test::TempRoot root;
  const std::string real_root = std::filesystem::canonical(root.dir).string();
  size_t reused = 0, steps = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(seed);
    test::empty_dir(root.dir);
    test::put_file(root.dir + "/a.txt", "alpha beta");
    test::put_file(root.dir + "/d/c.txt", "gamma");
    size_t blocks = 0;
    std::string text;
    for (int i = 0; i < 12; ++i)
      text += random_block(rng, blocks++);
    apply::PathMemo paths;
    std::unique_ptr<Version> previous =
        simulate(text, root.config, &paths, nullptr, nullptr, recheck);
    std::unique_ptr<Version> older; // previous's base, read no more
    for (int step = 0; step < 40; ++step) {
      text = random_edit(rng, text, &blocks);
      // Now and then the files change on disk: contents are seen through the observations;
      // a change of the tree's shape clears the path memo and the base with it (as the
      // language server does on a watched-file event).
      bool base_valid = true;
      std::vector<std::string> changed;
      if (rng() % 8 == 0) {
        random_disk_change(rng, root.dir);
        paths.clear();
        base_valid = false;
      } else if (rng() % 8 == 0) {
        test::put_file(root.dir + "/a.txt", kWords[rng() % std::size(kWords)]);
        changed.push_back(real_root + "/a.txt");
      }
      INFO("seed " << seed << " step " << step << "\n" << text);
      apply::PathMemo fresh_paths;
      const std::unique_ptr<Version> full = simulate(text, root.config, &fresh_paths, nullptr);
      std::vector<apply::BlockSimulation> spare_blocks;
      if (spare && older) spare_blocks = std::move(older->simulation.blocks);
      std::unique_ptr<Version> now =
          simulate(text, root.config, &paths, base_valid ? previous.get() : nullptr,
                   told ? &changed : nullptr, recheck, &spare_blocks);
      CHECK(spare_blocks.empty());
      CHECK(apply::simulation_difference(full->simulation, now->simulation) == "");
      reused += now->simulation.reused_blocks;
      ++steps;
      older = std::exchange(previous, std::move(now));
    }
  }
  // The oracle means something only if blocks were in fact reused (most edits touch one block).
  INFO("steps " << steps << ", blocks reused " << reused);
  CHECK(reused > steps * 3);
}

} // namespace blockls

namespace blockls {

// The case the tracking of differing paths exists for: a block that is no longer planned (or
// now writes elsewhere) no longer leaves its file in the state, so a later block reading that
// file cannot be taken over even though nothing it observed changed on disk.
TEST_CASE("a block that stops writing a file makes the later readers of that file run again",
          "[apply][incremental]") {
  test::TempRoot root;
  const std::string writer = "```sh nesl\n#!nesl [@three-char-SHA-256: w01]\n"
                             "action = \"write_file\"\npath = \"a.txt\"\ncontent = \"alpha\"\n"
                             "#!end_w01\n```\n\n";
  const std::string reader = "```sh nesl\n#!nesl [@three-char-SHA-256: r01]\n"
                             "action = \"replace_text_in_file\"\npath = \"a.txt\"\n"
                             "old_text = \"alpha\"\nnew_text = \"beta\"\n#!end_r01\n```\n";
  std::string broken = writer;
  const std::string edit = GENERATE(std::string("write_filx"), std::string("b.txt"));
  broken.replace(broken.find(edit == "b.txt" ? "a.txt" : "write_file"), edit.size(), edit);
  apply::PathMemo paths;
  const std::unique_ptr<Version> before = simulate(writer + reader, root.config, &paths, nullptr);
  REQUIRE(before->simulation.blocks.size() == 2);
  REQUIRE(before->simulation.blocks[1].ok);
  const std::vector<std::string> nothing_on_disk;
  const std::unique_ptr<Version> now =
      simulate(broken + reader, root.config, &paths, before.get(), &nothing_on_disk);
  apply::PathMemo fresh;
  const std::unique_ptr<Version> full = simulate(broken + reader, root.config, &fresh, nullptr);
  CHECK_FALSE(full->simulation.blocks.back().ok); // a.txt does not exist any more
  CHECK(apply::simulation_difference(full->simulation, now->simulation) == "");
}

} // namespace blockls

namespace blockls {

// A directory's listing is not a file the language server's cache records: a file created in
// a directory a block deletes is in no list of changed files, so the listing is always read
// again.
TEST_CASE("a block that lists a directory sees a file created in it, changed files or not",
          "[apply][incremental]") {
  test::TempRoot root;
  test::put_file(root.dir + "/d/c.txt", "gamma");
  const std::string text = "```sh nesl\n#!nesl [@three-char-SHA-256: d01]\n"
                           "action = \"delete_dir\"\npath = \"d\"\n#!end_d01\n```\n";
  apply::PathMemo paths;
  const std::unique_ptr<Version> before = simulate(text, root.config, &paths, nullptr);
  REQUIRE(before->simulation.blocks.size() == 1);
  REQUIRE(before->simulation.blocks[0].ok);
  test::put_file(root.dir + "/d/new.txt", "delta");
  const std::vector<std::string> nothing_recorded_changed;
  const std::unique_ptr<Version> now =
      simulate(text, root.config, &paths, before.get(), &nothing_recorded_changed);
  apply::PathMemo fresh;
  const std::unique_ptr<Version> full = simulate(text, root.config, &fresh, nullptr);
  CHECK(apply::simulation_difference(full->simulation, now->simulation) == "");
}

} // namespace blockls

namespace blockls {

// A transcript of six fenced NESL blocks, each writing one of kPaths, with prose between them.
std::string six_steps() {
  std::string text;
  for (size_t n = 0; n < 6; ++n)
    text += fmt::format("Step {}:\n\n```sh nesl\n#!nesl [@three-char-SHA-256: w{:02}]\n"
                        "action = \"write_file\"\npath = \"{}\"\ncontent = \"{}\"\n"
                        "#!end_w{:02}\n```\n\n",
                        n, n, kPaths[n % std::size(kPaths)], kWords[n % std::size(kWords)], n);
  return text;
}

// After an incremental re-check, a block outside the re-parsed window is the base's block
// moved by the window's shift: the simulation takes it over by its place, reading neither
// document's blocks (here the base's check is given without them: only the window's blocks,
// looked up by position, find nothing to take over).
TEST_CASE("blocks outside the re-parsed window are taken over by their place",
          "[apply][incremental]") {
  test::TempRoot root;
  const std::string text = six_steps();
  apply::PathMemo paths;
  const std::unique_ptr<Version> before =
      simulate(text, root.config, &paths, nullptr, nullptr, /*recheck=*/true);
  REQUIRE(before->simulation.blocks.size() == 6);
  // One character typed in the prose before the third block.
  std::string edited = text;
  const size_t third = edited.find("Step 2:");
  REQUIRE(third != std::string::npos);
  edited.insert(third, "x");
  CheckOptions options;
  options.keep_parser_diagnostics = true;
  Recheck r = recheck_document(before->text, before->checked, edited, options);
  REQUIRE(r.incremental);
  const ReparseWindow window = r.parse_window;
  const CheckedDocument checked = std::move(r.checked);
  const apply::Plan plan = apply::build_plan(edited, checked, ActionCatalog::builtin());
  const CheckedDocument no_blocks; // the base's check, without its blocks
  const std::vector<std::string> nothing_changed;
  const apply::SimulationBase base{before->text,     &no_blocks, &before->plan, &before->simulation,
                                   &nothing_changed, nullptr,    &window};
  apply::SimulationOptions sim_options;
  sim_options.paths = &paths;
  sim_options.base = &base;
  const apply::SimulationInput input{edited, &checked, &plan, &root.config};
  const apply::Simulation now = apply::simulate_plan(input, apply::DiskSource(), sim_options);
  apply::PathMemo fresh;
  const std::unique_ptr<Version> full = simulate(edited, root.config, &fresh, nullptr);
  CHECK(apply::simulation_difference(full->simulation, now) == "");
  const size_t outside = window.first_block + (checked.parsed.blocks.size() - window.new_block_end);
  INFO("window: blocks " << window.first_block << " to " << window.new_block_end);
  CHECK(outside >= 4);
  CHECK(now.reused_blocks == outside);
}

} // namespace blockls

namespace blockls {

// SimulationOptions::spare: the result is written over the spare blocks, in their storage, and
// a block taken over twice shares its values with its spare (the same block's, two versions
// ago) instead of counting a new reference to them; spare blocks of other documents, or more
// of them than the result has, leave the result as a simulation into new storage makes it.
TEST_CASE("a simulation written over spare blocks takes their storage and equals a fresh one",
          "[apply][incremental]") {
  test::TempRoot root;
  const std::string text = six_steps();
  apply::PathMemo paths;
  const std::vector<std::string> nothing_changed;
  std::unique_ptr<Version> v0 = simulate(text, root.config, &paths, nullptr, nullptr, true);
  REQUIRE(v0->simulation.blocks.size() == 6);
  const std::unique_ptr<Version> v1 =
      simulate("x" + text, root.config, &paths, v0.get(), &nothing_changed, true);
  REQUIRE(v1->simulation.reused_blocks == 6);
  std::vector<apply::BlockSimulation> spare = std::move(v0->simulation.blocks);
  const apply::BlockSimulation* storage = spare.data();
  const std::unique_ptr<Version> v2 =
      simulate("xy" + text, root.config, &paths, v1.get(), &nothing_changed, true, &spare);
  CHECK(spare.empty());
  CHECK(v2->simulation.blocks.data() == storage);
  REQUIRE(v2->simulation.blocks.size() == 6);
  CHECK(v2->simulation.blocks[3].observed.shares_with(v1->simulation.blocks[3].observed));
  apply::PathMemo fresh;
  CHECK(apply::simulation_difference(
            simulate("xy" + text, root.config, &fresh, nullptr)->simulation, v2->simulation) == "");
  // More spare blocks than the result has, of another document: the extra ones are dropped.
  const std::string two_blocks = text.substr(0, text.find("Step 2:"));
  std::vector<apply::BlockSimulation> others = std::move(v1->simulation.blocks);
  const std::unique_ptr<Version> small =
      simulate(two_blocks, root.config, &paths, nullptr, nullptr, false, &others);
  CHECK(others.empty());
  CHECK(small->simulation.blocks.size() == 2);
  CHECK(apply::simulation_difference(simulate(two_blocks, root.config, &fresh, nullptr)->simulation,
                                     small->simulation) == "");
}

} // namespace blockls
