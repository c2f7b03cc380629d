// The language server's incremental workspace check end to end: analyses chained from one
// another with one shared file cache (as a session runs them), while files are created,
// rewritten and deleted behind the server's back with no watched-file event, equal a fresh
// analysis of the same text, field by field. Half the steps age every directory an hour back,
// so missing paths are vouched for by their ancestors (the fast path); the others leave them
// inside the racy window (every path looked at). The rules of the ancestors themselves are
// pinned by cached_disk_source_test.cpp: here a block that reads a stale path is usually run
// again for another reason, so a broken ancestor rule rarely shows.
#include "../apply/apply_test_support.h"
#include "apply/simulation_diff.h"
#include "lsp/analysis.h"
#include "lsp/rehearsal.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <random>

namespace blockls {
namespace {

const char* const kPaths[] = {"a.txt", "d/c.txt", "d/e/f.txt", "n/x/y.txt", "g.txt"};
// Files no block writes: what blocks see of them always comes from the disk.
const char* const kDiskOnly[] = {"d/only.txt", "n/x/only.txt", "m/only.txt"};
const char* const kWords[] = {"alpha", "beta", "gamma"};

std::string random_block(std::mt19937& rng, size_t n) {
  auto pick = [&](auto& list) { return list[rng() % std::size(list)]; };
  const std::string id = fmt::format("b{:02}", n % 100);
  std::string body;
  switch (rng() % 5) {
  case 4:
    body = fmt::format("action = \"replace_text_in_file\"\npath = \"{}\"\nold_text = \"{}\"\n"
                       "new_text = \"x\"\n",
                       pick(kDiskOnly), pick(kWords));
    break;
  case 0:
    body = fmt::format("action = \"write_file\"\npath = \"{}\"\ncontent = \"{}\"\n", pick(kPaths),
                       pick(kWords));
    break;
  case 1:
  case 2:
    body = fmt::format("action = \"replace_text_in_file\"\npath = \"{}\"\nold_text = \"{}\"\n"
                       "new_text = \"{}\"\n",
                       pick(kPaths), pick(kWords), pick(kWords));
    break;
  default:
    body = fmt::format("action = \"delete_file\"\npath = \"{}\"\n", pick(kPaths));
  }
  return fmt::format(
      "Step {}:\n\n```sh nesl\n#!nesl [@three-char-SHA-256: {}]\n{}#!end_{}\n```\n\n", n, id, body,
      id);
}

// Every directory under `root` (and the root) an hour older: out of the racy window.
void age_directories(const std::string& root) {
  test::age(root);
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_directory()) test::age(e.path().string());
}

// A file created (maybe with its directories), rewritten or deleted.
void random_disk_change(std::mt19937& rng, const std::string& root) {
  const std::string path =
      root + "/" +
      (rng() % 2 ? kPaths[rng() % std::size(kPaths)] : kDiskOnly[rng() % std::size(kDiskOnly)]);
  std::error_code ec;
  if (rng() % 3 == 0)
    std::filesystem::remove(path, ec);
  else
    test::put_file(path, kWords[rng() % std::size(kWords)]);
}

// Every diagnostic an analysis publishes, one line each (engine and workspace).
std::string dump(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics)
    out += fmt::format("{} {} b{} l{} [{},{}) {} | {} | {} fixes\n", d.code,
                       static_cast<int>(d.severity), d.block, d.line, d.range.begin, d.range.end,
                       d.message, d.fix_hint, d.fixes.size());
  return out;
}

} // namespace

TEST_CASE("chained analyses with a shared file cache equal fresh ones while files change unseen",
          "[lsp][incremental]") {
  test::TempRoot root;
  lsp::Settings settings;
  const auto context = lsp::make_context(settings, {root.dir});
  REQUIRE(context->apply_config);
  size_t reused = 0, steps = 0, vouched = 0, shared = 0, spared_blocks = 0, spared_actions = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    test::empty_dir(root.dir);
    test::put_file(root.dir + "/a.txt", "alpha beta");
    test::put_file(root.dir + "/d/c.txt", "gamma");
    auto files = std::make_shared<lsp::CachedDiskSource>();
    size_t blocks = 0;
    std::string text;
    for (int i = 0; i < 10; ++i)
      text += random_block(rng, blocks++);
    std::shared_ptr<const lsp::Analysis> previous =
        lsp::analyze(std::make_shared<const std::string>(text), 0, 1, context, files, nullptr);
    // The analysis before the previous one, read no more: its blocks are the next analysis's
    // spare storage (lsp::spare_storage), as the scheduler keeps it.
    std::shared_ptr<const lsp::Analysis> older;
    // Half the steps say what the edit changed, as an editor's didChange does (a span wider
    // than the change, sometimes), the others leave the analysis to find it.
    lsp::TextOrigin origin{lsp::TextOrigin::next_id(), 0, {}};
    for (int step = 0; step < 30; ++step) {
      TextChange edit{text.size(), text.size(), text.size()};
      if (rng() % 3 == 0) { // an edit: a block added, or a character typed in prose
        if (rng() % 2) {
          text += random_block(rng, blocks++);
          edit.new_end = text.size();
        } else {
          const size_t at = rng() % (text.size() + 1);
          text.insert(at, "x");
          const size_t before = std::min<size_t>(at, rng() % 3);
          const size_t after = std::min<size_t>(text.size() - at - 1, rng() % 3);
          edit = {at - before, at + after, at + 1 + after};
        }
      }
      origin = rng() % 2 ? lsp::TextOrigin{lsp::TextOrigin::next_id(), origin.id, edit}
                         : lsp::TextOrigin{lsp::TextOrigin::next_id(), 0, {}};
      if (rng() % 2) random_disk_change(rng, root.dir);
      if (rng() % 2) age_directories(root.dir);
      INFO("seed " << seed << " step " << step << "\n" << text);
      auto shared_text = std::make_shared<const std::string>(text);
      lsp::SpareStorage spare = lsp::spare_storage(std::move(older));
      spared_blocks += !spare.blocks.empty();
      spared_actions += !spare.actions.empty(); // (not a plan the next analysis shared)
      const auto now =
          lsp::analyze(shared_text, step + 1, step + 2, context, files, previous, origin, &spare);
      const auto full = lsp::analyze(shared_text, step + 1, step + 2, context,
                                     std::make_shared<lsp::CachedDiskSource>(), nullptr);
      REQUIRE(now->simulation);
      REQUIRE(full->simulation);
      CHECK(apply::simulation_difference(*full->simulation, *now->simulation) == "");
      CHECK(dump(now->diagnostics) == dump(full->diagnostics));
      CHECK(test::plan_difference(full->plan(), now->plan()) == "");
      // The same text: the check and plan are the previous analysis's, not computed again.
      if (*previous->text == text) {
        CHECK(&now->checked() == &previous->checked());
        CHECK(&now->plan() == &previous->plan());
        ++shared;
      }
      reused += now->simulation->reused_blocks;
      vouched += files->stats().paths - files->stats().looked;
      ++steps;
      origin.id = now->text_id; // the next edit is of the text the analysis kept
      older = std::exchange(previous, now);
    }
  }
  // Meaningful only if blocks were in fact taken over.
  INFO("steps " << steps << ", blocks reused " << reused << ", paths vouched for " << vouched
                << ", checks shared " << shared);
  CHECK(reused > steps * 3);
  CHECK(shared > steps / 3);        // re-checks of the same text happened, and shared
  CHECK(vouched > steps);           // the ancestors did answer for missing paths
  CHECK(spared_blocks > steps / 2); // analyses were written over spare storage
  CHECK(spared_actions > steps / 10);
}

// Only the last reference to an analysis gives its storage away: one that is still published
// (or parked for a request) keeps it, and a plan shared with another analysis stays.
TEST_CASE("an analysis gives its storage away only from its last reference", "[lsp][incremental]") {
  test::TempRoot root;
  const auto context = lsp::make_context(lsp::Settings{}, {root.dir});
  std::mt19937 rng(1);
  std::string text;
  for (size_t n = 0; n < 4; ++n)
    text += random_block(rng, n);
  const auto shared_text = std::make_shared<const std::string>(text);
  auto a = lsp::analyze(shared_text, 0, 1, context);
  REQUIRE(a->simulation);
  REQUIRE(a->simulation->blocks.size() == 4);
  REQUIRE(a->plan().actions.size() == 4);
  auto published = a;
  const lsp::SpareStorage none = lsp::spare_storage(std::move(a));
  CHECK(none.blocks.empty());
  CHECK(none.actions.empty());
  CHECK(published->simulation->blocks.size() == 4);
  // The same text analysed again (a watched file changed) shares the plan.
  const auto again = lsp::analyze(shared_text, 0, 2, context, nullptr, published);
  REQUIRE(&again->plan() == &published->plan());
  const lsp::SpareStorage blocks_only = lsp::spare_storage(std::move(published));
  CHECK(blocks_only.blocks.size() == 4);
  CHECK(blocks_only.actions.empty());
  CHECK(again->plan().actions.size() == 4);
}

} // namespace blockls

namespace blockls {

// The first keystroke after the open: a full simulation records the paths it found missing,
// and the analysis then has the cache find the ancestors that vouch for them, so the next
// refresh (the keystroke's) examines only the paths that exist, not every missing one.
TEST_CASE("after a full simulation the missing paths it read have their ancestors",
          "[lsp][incremental]") {
  test::TempRoot root;
  test::put_file(root.dir + "/src/m0.py", "alpha");
  std::string text;
  for (int i = 0; i < 20; ++i)
    text += fmt::format("```sh nesl\n#!nesl [@three-char-SHA-256: b{:02}]\naction = "
                        "\"write_file\"\npath = \"src/m{}.py\"\ncontent = \"x\"\n#!end_b{:02}\n"
                        "```\n\n",
                        i, i, i);
  age_directories(root.dir);
  lsp::Settings settings;
  const auto context = lsp::make_context(settings, {root.dir});
  auto files = std::make_shared<lsp::CachedDiskSource>();
  const auto opened =
      lsp::analyze(std::make_shared<const std::string>(text), 0, 1, context, files, nullptr);
  REQUIRE(opened->simulation);
  REQUIRE(opened->simulation->blocks.size() == 20);
  REQUIRE(files->stats().paths >= 20);
  files->refresh();
  // src/m0.py exists and is looked at; src/m1.py ... src/m19.py are vouched for by src.
  CHECK(files->stats().looked < 5);
}

} // namespace blockls

namespace blockls {

// The rehearsal after an open: an incremental analysis of the text with a byte inserted at its
// start, equal to a fresh one of that text; the next real keystroke, analysed from the open's
// analysis with the same file cache the rehearsal used, still equals a fresh analysis; a small
// document is not rehearsed.
TEST_CASE("the keystroke rehearsal after an open is a real incremental analysis and changes "
          "nothing after it",
          "[lsp][incremental]") {
  test::TempRoot root;
  test::put_file(root.dir + "/a.txt", "alpha beta");
  test::put_file(root.dir + "/d/c.txt", "gamma");
  const auto context = lsp::make_context(lsp::Settings{}, {root.dir});
  REQUIRE(context->apply_config);
  std::mt19937 rng(11);
  std::string text = "Some prose first.\n";
  for (size_t i = 0; i < 40; ++i)
    text += random_block(rng, i);
  auto files = std::make_shared<lsp::CachedDiskSource>();
  const lsp::DocumentText doc = lsp::DocumentText::from(text);
  const auto opened = lsp::analyze(doc.text, 1, 1, context, files, nullptr, doc.origin);
  REQUIRE(opened->simulation);
  REQUIRE(opened->simulation->blocks.size() > 10);

  CHECK(lsp::rehearse_keystroke(doc, opened, files) == nullptr); // under kRehearsalMinBytes
  const auto rehearsal = lsp::rehearse_keystroke(doc, opened, files, 0);
  REQUIRE(rehearsal);
  CHECK(*rehearsal->text == " " + text);
  CHECK(rehearsal->incremental);
  CHECK(rehearsal->simulation->reused_blocks > 10);
  const auto fresh_rehearsal = lsp::analyze(std::make_shared<const std::string>(" " + text), 1, 1,
                                            context, std::make_shared<lsp::CachedDiskSource>());
  CHECK(apply::simulation_difference(*fresh_rehearsal->simulation, *rehearsal->simulation) == "");
  CHECK(dump(rehearsal->diagnostics) == dump(fresh_rehearsal->diagnostics));

  // A file changes on disk, then a keystroke in the middle of the document.
  test::put_file(root.dir + "/a.txt", "changed");
  const size_t middle = text.find("#!end_", text.size() / 2);
  REQUIRE(middle != std::string::npos);
  const lsp::DocumentText edited = doc.with_edit({middle, middle}, "x");
  const auto now = lsp::analyze(edited.text, 2, 2, context, files, opened, edited.origin);
  const auto fresh =
      lsp::analyze(edited.text, 2, 2, context, std::make_shared<lsp::CachedDiskSource>(), nullptr);
  CHECK(apply::simulation_difference(*fresh->simulation, *now->simulation) == "");
  CHECK(dump(now->diagnostics) == dump(fresh->diagnostics));
}

} // namespace blockls
