// The undo journal of `blockls apply`: before a block changes anything, the original of every
// path it will touch (content, mode, or absence) is saved and fsynced. A block that fails
// midway, or a run that was killed, is rolled back from it.
//
// Journals are the tool's own, never the workspace's: they live in this user's state
// directory (state_home() below, 0700, owned by the user), one subdirectory per root keyed
// by a hash of the root's canonical path. A `.blockls/journal-*` found inside a root (shipped by a
// repository or a tarball) is never read, only reported. Even the user's own journals are
// validated before anything is restored: every path must lie below the roots recorded in the
// journal (and the root being recovered), saved copies are named only by their index inside
// the journal's own directory, and modes never gain setuid/setgid/sticky bits.
#pragma once

#include "apply/beneath.h"
#include "apply/config.h"

#include <optional>
#include <string>
#include <vector>

namespace blockls::apply {

// The directory under which this user's blockls keeps its state:
// $BLOCKLS_STATE_DIR, else $XDG_STATE_HOME/blockls, else $HOME/.local/state/blockls.
// Empty (and `error`) when none can be determined.
std::string state_home(std::string* error);
// The directory inside state_home() that holds the journals of `root` (which need not be
// canonical); nullopt (and `error`) when the root or the state home cannot be resolved.
std::optional<std::string> state_dir_of(const std::string& root, std::string* error);

// Owns the state directory of one root while a run is in progress (an exclusive flock).
class StateDir {
public:
  StateDir() = default;
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;
  ~StateDir();
  // Creates the root's state directory when missing (0700), refuses one that is not a
  // directory owned by this user and closed to others, opens the roots of `config` for
  // descriptor-relative writes, and takes the lock; false when another run holds it.
  bool open(const ApplyConfig& config, std::string* error);
  const std::string& path() const { return dir_; }
  const std::string& root() const { return root_; }
  const std::vector<std::string>& roots() const { return roots_; }
  const Beneath& files() const { return files_; }
  // Rolls back every journal left by an interrupted run; one message per journal. A journal
  // that is malformed, or names a path outside its roots, is reported in `error` and left
  // alone (nothing of it is restored), as is every journal after it. A path that changed since
  // the interrupted block (it holds neither its original nor what the block wrote there, or is
  // a file the block did not write in a directory it created) is never overwritten or
  // deleted: everything else is restored, and the journal is kept and reported in `error`
  // with those paths (false), so the user decides.
  bool recover(std::vector<std::string>* messages, std::string* error);
  std::string next_journal_name();

private:
  std::string root_, dir_;
  std::vector<std::string> roots_;
  Beneath files_;
  int lock_fd_ = -1;
  unsigned counter_ = 0;
};

// Journals of interrupted runs waiting in the root's state directory (read-only look, no
// lock): their paths, for `check --root` and `apply --dry-run` to mention.
std::vector<std::string> pending_journals(const std::string& root);
// Journal-like files inside the root itself (ROOT/.blockls/journal-*): never trusted.
std::vector<std::string> planted_journals(const std::string& root);

// What a block may leave at a path once its effects ran (some of them, after a crash): a file
// with this content, a directory, or nothing. The journal records it (a SHA-256 of the content)
// before anything is written, so that a rollback can tell the block's own writes from changes
// made since by someone else, and leave those alone.
struct BlockChange {
  std::string path;                    // absolute, inside the roots
  EntryKind kind = EntryKind::missing; // missing, file or directory
  std::string_view content;            // file: what the block writes there
};

class Journal {
public:
  // Records the current state of every path of `changes` and of every parent that is not a
  // directory yet (the block's mkdir -p makes them), with what the block may leave there;
  // nothing is changed on disk but the journal itself. On failure nothing of the journal is
  // left behind.
  bool begin(StateDir& state, const std::string& label, const std::vector<BlockChange>& changes,
             std::string* error);
  // The block is done: the journal is deleted.
  bool commit(std::string* error);
  // Restores every recorded path that still holds its original or what the block left there,
  // then deletes the journal. A path changed meanwhile, not by the block's writes (by an exec
  // of the block, another process), is left as it is and described in `kept` (empty when
  // none): as an exec's own changes, it is not undone.
  bool rollback(std::string* kept, std::string* error);
  // The tag the atomic writes of this journal use for temporary files (cleaned up on rollback).
  const std::string& temp_tag() const { return name_; }

private:
  const StateDir* state_ = nullptr;
  std::string dir_, name_;
};

} // namespace blockls::apply
