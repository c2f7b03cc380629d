// Simulating a plan against a view of the files: every action sees what earlier actions of
// the same document did (an overlay over the real files). The result per action is clada's
// result shape plus the file effects a backend performs (disk or LSP WorkspaceEdit) and the
// workspace diagnostics (PATH_OUTSIDE_ROOT, SEARCH_NOT_FOUND, ...). Nothing here writes.
#pragma once

#include "apply/config.h"
#include "apply/file_content.h"
#include "apply/file_source.h"
#include "apply/path_memo.h"
#include "apply/plan.h"
#include "apply/shared_value.h"
#include "grammar/router/incremental_parse.h"

#include <boost/container/small_vector.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

struct FileEffect {
  enum class Kind { write, remove, move, make_dir, remove_dir, exec };
  Kind kind = Kind::write;
  size_t seq = 0;       // the action that causes it
  std::string path;     // absolute, resolved (move: the source)
  std::string new_path; // move: the destination
  std::optional<FileContent>
      before; // write: old content (nullopt = new file); remove/move: the file
  std::optional<FileContent> dest_before;              // move: the destination that is overwritten
  FileContent after;                                   // write: new content
  uint32_t mode = 0;                                   // write: mode to keep (0 = new file)
  std::vector<std::pair<std::string, FileState>> tree; // remove_dir: what is removed, parents first
  std::string code, lang, cwd;                         // exec
};

struct ActionOutcome {
  const PlannedAction* action = nullptr;
  bool success = false;
  std::string error; // clada-style message when !success
  std::string code;  // error kind (a workspace code, NOT_RUN, ...) when !success
  // clada's data (null when none); shared by the analyses that take the block over.
  SharedValue<nlohmann::json> data;
  SharedValue<std::vector<FileEffect>> effects;
};

// What a block read at one observation key: the state of a path (its content shared with the
// simulation, compared only when a later apply asks) or the listing of a tree.
struct Observation {
  FileState state;                                 // "path" keys
  std::vector<std::string> tree;                   // "tree:path" keys
  bool operator==(const Observation& other) const; // same kind, same content (modes aside)
};

// A block's outcomes: most blocks hold one action, kept inline (no allocation per block, on
// every keystroke that takes the block over, nor when the analysis is freed).
using ActionOutcomes = boost::container::small_vector<ActionOutcome, 1>;

struct BlockSimulation {
  int block = -1;
  std::string block_id;
  bool ok = true;
  size_t failed_seq = 0; // the first failing action
  size_t first_seq = 0;  // the number of its first action (SimulationReuse reads it here, not
                         // in the plan it came from)
  ActionOutcomes actions;
  // What the block read of the state before it: key ("path" or "tree:path") -> what it saw.
  SharedValue<std::map<std::string, Observation>> observed;

  // What a later simulation of the edited document needs to reuse this one (simulate_plan
  // with a SimulationBase):
  SharedValue<FileStates> changes; // what the block left in the state (ok blocks)
  uint32_t diagnostics_begin = 0, diagnostics_end = 0; // its part of Simulation::diagnostics
  // False when the outcome depends on more than the block's actions and what it observed
  // (an EDIT_OVERLAP report reads the files before the whole plan and the earlier actions).
  bool reusable = true;
  // A summary of `observed`, so that a later simulation can often tell without reading the
  // map that the block observed none of the paths that changed: whether a key lists a tree,
  // and one bit (observed_path_bit) per path observed and per parent directory of one
  // (for_each_path_prefix). The defaults say nothing (every observation compared) until
  // simulate_block summarises.
  bool lists_tree = true;
  uint64_t observed_paths = ~uint64_t{0};
};

struct Simulation {
  std::vector<BlockSimulation> blocks; // planned blocks in order
  std::vector<Diagnostic> diagnostics; // workspace diagnostics, in plan order
  size_t reused_blocks = 0;            // blocks taken from the SimulationBase, not run again
};

// Context shared by the simulation of one document.
struct SimulationInput {
  std::string_view text; // the transcript
  const CheckedDocument* checked = nullptr;
  const Plan* plan = nullptr;
  const ApplyConfig* config = nullptr;
  // The files before the whole plan (simulate_plan sets it): an edit whose old text is there
  // but gone after earlier edits overlaps one of them (EDIT_OVERLAP). May be null.
  const FileSource* original = nullptr;
};

// An earlier simulation of the same document, before an edit, with the same configuration and
// path resolutions (the language server's previous analysis).
struct SimulationBase {
  std::string_view text;
  const CheckedDocument* checked = nullptr;
  const Plan* plan = nullptr;
  const Simulation* simulation = nullptr;
  // The paths (absolute, as observed) whose files may have changed on disk since the base was
  // simulated, when the caller knows them (the language server's file cache tracks them). A
  // block is then taken over without reading again what it observed, unless an observed path
  // (or a parent of it) is among these or was changed differently by the blocks before it,
  // or it listed a directory (entries created there are in no list of changed files).
  // Null: unknown, every observation of every block is read and compared.
  const std::vector<std::string>* changed_files = nullptr;
  // find_change(text, the new text) when the caller has it (null: computed).
  const TextChange* change = nullptr;
  // When the new document's check re-parsed only a window of the base's (recheck): every
  // block outside it is the base's block (moved by the window's deltas when after it), so its
  // planned actions are the base's with their positions moved, and their parameters need not
  // be compared (both plans are build_plan's of the whole documents: such a block's actions
  // are found by their place in them). Null: unknown, every action is compared.
  const ReparseWindow* window = nullptr;
};

struct SimulationOptions {
  // Resolutions shared with other simulations (null: a memo of this call only). A base is
  // only valid with the same memo, not cleared since the base was simulated.
  PathMemo* paths = nullptr;
  // Blocks outside the edit whose actions are the same and who observe the same files are
  // taken from it (shifted) instead of being run again; the result is the same as without it.
  const SimulationBase* base = nullptr;
  // Blocks of a simulation nobody reads any more (the language server's superseded analysis,
  // two keystrokes old), moved out and cleared here: the result's blocks are written over
  // them, in order, instead of into new storage. A block taken over from `base` whose spare
  // at its place holds the same shared values (most blocks, when both came from the same
  // earlier block) is then assigned without touching a reference count, and the spare block
  // is not destroyed. Whatever they hold, the result is the same as without them.
  std::vector<BlockSimulation>* spare = nullptr;
};

// Simulates every planned block over `source`; a failing block leaves the files as they were.
Simulation simulate_plan(const SimulationInput& input, const FileSource& source,
                         const SimulationOptions& options = {});

// How the messages of a block's actions name it: "block a1b", or "its block" for a block
// without an id (edit blocks, XML, replacer, patches). No number: a simulation reused for a
// block that moved keeps its messages.
std::string block_of_actions(const std::string& block_id);

// Simulates the actions of one block over `before` (the state just before the block).
BlockSimulation simulate_block(const SimulationInput& input, int block, const FileSource& before,
                               std::vector<Diagnostic>* diagnostics, Overlay* after);

// The bit of BlockSimulation::observed_paths that stands for `path` (absolute).
uint64_t observed_path_bit(std::string_view path);

// Calls `f` with `path` and each of its parents ("/a/b/c", "/a/b", "/a"): the paths whose
// state decides what reading `path` gives (a parent that is not a directory hides it).
template <typename F> void for_each_path_prefix(std::string_view path, F&& f) {
  for (size_t end = path.size(); end != 0 && end != std::string_view::npos;
       end = path.rfind('/', end - 1))
    f(path.substr(0, end));
}

// What `source` holds under an observation key ("path" or "tree:path"), as recorded in
// BlockSimulation::observed.
Observation observe(const FileSource& source, const std::string& key);

// Parameters of a planned action as clada shows them (integers as numbers).
nlohmann::json params_json(const PlannedAction& action);

// One action's result object: {seq, blockId, action, params, success, error?, code?, data?}.
nlohmann::json result_json(const ActionOutcome& outcome);

} // namespace blockls::apply
