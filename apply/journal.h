// The undo journal of `blockls apply`: before a block changes anything, the original of every
// path it will touch (content, mode, or absence) is saved under ROOT/.blockls/journal-*/ and
// fsynced. A block that fails midway, or a run that was killed, is rolled back from it.
#pragma once

#include <string>
#include <vector>

namespace blockls::apply {

// Writes `text` to `path` through a temporary file in the same directory (fsync + rename +
// directory fsync). `mode` 0 = default permissions for a new file.
bool write_atomically(const std::string& path, const std::string& text, unsigned mode,
                      const std::string& temp_tag, std::string* error);
// fsync of a directory (errors ignored: some filesystems refuse it).
void sync_dir(const std::string& dir);
// mkdir -p; false and `error` when a component cannot be created.
bool make_dirs(const std::string& dir, std::string* error);

// Owns ROOT/.blockls/ while a run is in progress (an exclusive flock on .blockls/lock).
class StateDir {
public:
  StateDir() = default;
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;
  ~StateDir();
  // Creates .blockls/ when missing and takes the lock; false when another run holds it.
  bool open(const std::string& root, std::string* error);
  const std::string& path() const { return dir_; }
  const std::string& root() const { return root_; }
  // Rolls back every journal left by an interrupted run; one message per journal.
  bool recover(std::vector<std::string>* messages, std::string* error);
  std::string next_journal_name();

private:
  std::string root_, dir_;
  int lock_fd_ = -1;
  unsigned counter_ = 0;
};

class Journal {
public:
  // Records the current state of `paths` (absolute, inside the root) and every missing
  // parent of them; nothing is changed on disk but the journal itself.
  bool begin(StateDir& state, const std::string& label, std::vector<std::string> paths,
             std::string* error);
  // The block is done: the journal is deleted.
  bool commit(std::string* error);
  // Restores every recorded path, then deletes the journal.
  bool rollback(std::string* error);
  // The tag the atomic writes of this journal use for temporary files (cleaned up on rollback).
  const std::string& temp_tag() const { return name_; }

  // Rolls back the journal in `dir` (a journal-* directory).
  static bool rollback_dir(const std::string& dir, std::string* error);

private:
  std::string dir_, name_;
};

} // namespace blockls::apply
