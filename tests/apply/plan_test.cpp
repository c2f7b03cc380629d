// The plan built from a checked document: a skipped block names its first error, values are
// views that survive the plan's moves (a joined multi-line path list included), and a value
// taken as it is from the transcript is a view of the transcript, not a copy.
#include "apply/plan.h"
#include "apply_test_support.h"
#include "diagnostics/check.h"

#include <catch2/catch.hpp>

namespace blockls {
namespace {

bool inside(std::string_view value, std::string_view text) {
  const auto v = reinterpret_cast<uintptr_t>(value.data());
  const auto t = reinterpret_cast<uintptr_t>(text.data());
  return v >= t && v + value.size() <= t + text.size();
}

} // namespace

TEST_CASE("a skipped block reports the first of its errors", "[apply][plan]") {
  const std::string text = "```sh nesl\n#!nesl [@three-char-SHA-256: k1k]\n"
                           "action = \"write_file\"\n#!end_k1k\n```\n\n"
                           "```sh nesl\n#!nesl [@three-char-SHA-256: q2q]\n"
                           "action = \"replace_text_in_file\"\n#!end_q2q\n```\n";
  const CheckedDocument checked = check_document(text);
  const apply::Plan plan = apply::build_plan(text, checked, ActionCatalog::builtin());
  REQUIRE(plan.skipped.size() == 2);
  for (const apply::SkippedBlock& s : plan.skipped) {
    std::vector<const Diagnostic*> errors;
    for (const Diagnostic& d : checked.diagnostics)
      if (d.block == s.block && is_error(d.severity)) errors.push_back(&d);
    // Meaningful only when the block has several different errors.
    REQUIRE(errors.size() >= 2);
    REQUIRE(errors.front()->message != errors.back()->message);
    CHECK(s.code == errors.front()->code);
    CHECK(s.message == errors.front()->message);
  }
}

TEST_CASE("plan values are views that survive the plan's moves", "[apply][plan]") {
  const std::string text =
      "#!telt [3-char SHA: abc]\n=== READ_FILES ===\n--PATHS abc--\nfirst.txt\n"
      "--PATHS abc--\nsecond.txt\n--END abc--\n\n"
      "```sh nesl\n#!nesl [@three-char-SHA-256: k1k]\n"
      "action = \"write_file\"\npath = \"out/a.txt\"\n"
      "content = <<'EOT_k1k'\nhello\nEOT_k1k\n#!end_k1k\n```\n";
  CheckedDocument checked = check_document(text);
  // A repeated PATHS is DUPLICATE_PARAM for the built-in catalog; the plan still joins the
  // lists of a block taken as valid (a catalog that allows the repeat), which is what this
  // looks at.
  REQUIRE(checked.verdicts.size() == 2);
  CHECK_FALSE(checked.verdicts[0].valid);
  checked.verdicts[0].valid = true;
  apply::Plan built = apply::build_plan(text, checked, ActionCatalog::builtin());
  // Moved twice: the joined list lives in the plan's deque, whose elements do not move.
  apply::Plan moved(std::move(built));
  apply::Plan plan;
  plan = std::move(moved);
  REQUIRE(plan.actions.size() == 2);
  const apply::PlannedAction& read = plan.actions[0];
  REQUIRE(read.params.size() == 1);
  const std::string_view paths = read.params.begin()->second.text;
  CHECK(paths == "first.txt\nsecond.txt");
  CHECK_FALSE(inside(paths, text)); // joined: no slice of the transcript holds it
  const apply::PlannedAction& write = plan.actions[1];
  REQUIRE(write.param("path") != nullptr);
  CHECK(*write.param("path") == "out/a.txt");
  CHECK(inside(*write.param("path"), text)); // taken as it is: a view, not a copy
  REQUIRE(write.param("content") != nullptr);
  CHECK(write.param("content")->starts_with("hello"));
}

} // namespace blockls

namespace blockls {

// build_plan's `spare`: the actions are written over the spare ones, in their storage, and the
// plan is the one built into new storage, whatever the spare actions held (more of them, or
// fewer, than the plan has; parameters of their own, spilled out of line or not).
TEST_CASE("a plan written over spare actions takes their storage and equals a fresh one",
          "[apply][plan]") {
  std::string text;
  for (int n = 0; n < 5; ++n)
    text += "```sh nesl\n#!nesl [@three-char-SHA-256: w0" + std::to_string(n) +
            "]\naction = \"replace_text_in_file\"\npath = \"a.txt\"\nold_text = \"x\"\n"
            "new_text = \"y\"\n#!end_w0" +
            std::to_string(n) + "\n```\n\n";
  const std::string shorter = text.substr(0, text.find("```sh", text.find("#!end_w01")));
  const CheckedDocument checked = check_document(text), short_checked = check_document(shorter);
  const ActionCatalog& catalog = ActionCatalog::builtin();
  const std::string* const texts[] = {&text, &shorter};
  for (const std::string* spare_of : texts) {
    const CheckedDocument& spare_checked = spare_of == &text ? checked : short_checked;
    for (const std::string* plan_of : texts) {
      const CheckedDocument& plan_checked = plan_of == &text ? checked : short_checked;
      INFO("spare of " << spare_checked.parsed.blocks.size() << " blocks, plan of "
                       << plan_checked.parsed.blocks.size());
      apply::Plan old = apply::build_plan(*spare_of, spare_checked, catalog);
      // A parameter map spilled out of its inline storage (more than three parameters).
      REQUIRE(!old.actions.empty());
      old.actions.front().params["extra"] = {};
      std::vector<apply::PlannedAction> spare = std::move(old.actions);
      const apply::PlannedAction* storage = spare.data();
      const apply::Plan plan = apply::build_plan(*plan_of, plan_checked, catalog, {}, &spare);
      CHECK(spare.empty());
      if (plan_checked.parsed.blocks.size() <= spare_checked.parsed.blocks.size())
        CHECK(plan.actions.data() == storage); // (more actions than spare ones: it grew)
      CHECK(test::plan_difference(apply::build_plan(*plan_of, plan_checked, catalog), plan) == "");
    }
  }
}

} // namespace blockls
