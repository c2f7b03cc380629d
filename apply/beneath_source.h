// The files below the allowed roots as a FileSource, read through Beneath: every read walks
// its path from the root's descriptor without following a link, as the writes do. What apply
// reads just before it writes (the block's re-check, the comparison with what the check saw)
// comes from here, so that a directory swapped for a link to somewhere else by another process
// reads as changed, never as the content of a file outside the roots.
#pragma once

#include "apply/beneath.h"
#include "apply/config.h"
#include "apply/file_source.h"

namespace blockls::apply {

class BeneathSource final : public FileSource {
public:
  // Files larger than `max_file_bytes` are not read (FileState::too_large).
  explicit BeneathSource(const Beneath& files, uint64_t max_file_bytes = kDefaultMaxFileBytes)
      : files_(files), max_file_bytes_(max_file_bytes) {}
  // As DiskSource::read: a link or special file is `other` (a link with its target), a file
  // that cannot be read too; a path outside every root is `missing`.
  FileState read(const std::string& path) const override;
  // For an owner that knows the limit only after the source is made (stream --apply).
  void set_max_file_bytes(uint64_t bytes) { max_file_bytes_ = bytes; }
  std::vector<std::string> list_tree(const std::string& dir) const override;

private:
  const Beneath& files_;
  uint64_t max_file_bytes_;
};

// The roots `config` allows (its root when it names no others), open for a BeneathSource;
// false with `error` when one cannot be opened.
bool open_roots(const ApplyConfig& config, Beneath* roots, std::string* error);

} // namespace blockls::apply
