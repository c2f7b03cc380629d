// The files an action sees: the disk, or an overlay of the changes earlier actions made over
// it. Reading only; the backends (apply/disk_backend.h, the LSP's WorkspaceEdit) write.
#pragma once

#include "apply/config.h"
#include "apply/file_content.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace blockls::apply {

struct FileState {
  enum class Kind { missing, file, directory, other };
  Kind kind = Kind::missing;
  FileContent content; // files only (shared: a copy of the state copies no text)
  uint32_t mode = 0;   // permission bits (0 = default for new files)
  // `other` because it is a regular file of this many bytes, more than the source reads
  // (ApplyConfig::max_file_bytes): FILE_TOO_LARGE. 0 otherwise.
  uint64_t too_large = 0;
};

// The rule of is_read_only below on a regular file's permission bits, shared with
// `fix --in-place` (cli/check_command.cpp), which reads them with stat(2).
inline bool owner_may_not_write(uint32_t mode) {
  return (mode & 0200) == 0;
}

// Whether blockls refuses to change, replace, move or remove the file (FILE_READ_ONLY): a
// regular file whose owner may not write it by its mode bits (chmod u-w, chmod a-w, 0444).
// The bits, not access(2), so that root in CI and the owner at a desk get the same answer;
// the owner's bit, because the kernel denies the owner on it alone (group and other bits do
// not help the owner). Mode 0 is a file an earlier action creates (it has no mode yet).
inline bool is_read_only(const FileState& s) {
  return s.kind == FileState::Kind::file && s.mode != 0 && owner_may_not_write(s.mode);
}

// A regular file of permission bits `mode` and `size` bytes that a disk source does not read:
// sets `*s` to `other` (FILE_TOO_LARGE past `max_file_bytes`) and returns true. A file of mode
// 0000 is one (see DiskSource). Shared by the disk sources, so that the check and the re-check
// before a write judge a file alike.
inline bool not_read(uint32_t mode, uint64_t size, uint64_t max_file_bytes, FileState* s) {
  if (mode != 0 && size <= max_file_bytes) return false;
  s->kind = FileState::Kind::other;
  if (mode != 0) s->too_large = size;
  return true;
}

// Read access to a tree of files (the disk, or an overlay over it).
class FileSource {
public:
  virtual ~FileSource() = default;
  virtual FileState read(const std::string& path) const = 0;
  // Every entry strictly below `dir`, recursively, symlinks not followed, sorted.
  virtual std::vector<std::string> list_tree(const std::string& dir) const = 0;
};

// A regular file of mode 0000 reads as `other` (a file blockls may not open), whoever runs it:
// an ordinary user cannot open it, and root, who can, must get the same answer; a FileState's
// mode 0 also means "a new file, the default mode", so such a file would otherwise be
// replaced as writable and come back 0644.
class DiskSource final : public FileSource {
public:
  // Files larger than `max_file_bytes` are not read (FileState::too_large).
  explicit DiskSource(uint64_t max_file_bytes = kDefaultMaxFileBytes)
      : max_file_bytes_(max_file_bytes) {}
  FileState read(const std::string& path) const override;
  std::vector<std::string> list_tree(const std::string& dir) const override;

private:
  uint64_t max_file_bytes_;
};

// Paths -> states, looked up by string_view (Overlay::read walks up a path's parents without
// allocating each one).
using FileStates = std::map<std::string, FileState, std::less<>>;

// Changes over a base source, as earlier actions left them.
class Overlay final : public FileSource {
public:
  explicit Overlay(const FileSource& base) : base_(&base) {}
  FileState read(const std::string& path) const override;
  std::vector<std::string> list_tree(const std::string& dir) const override;
  void set(const std::string& path, FileState state);
  void merge(const FileStates& changes); // `changes` win
  const FileStates& entries() const { return entries_; }
  // The changes, moved out (the overlay is empty after).
  FileStates take_entries() { return std::exchange(entries_, {}); }

private:
  const FileSource* base_;
  FileStates entries_;
};

// The directory that holds `path` ("/" for a top-level entry and for a path without a slash).
std::string parent_of(const std::string& path);

} // namespace blockls::apply
