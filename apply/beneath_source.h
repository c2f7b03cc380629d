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
  explicit BeneathSource(const Beneath& files) : files_(files) {}
  // As DiskSource::read: a link or special file is `other` (a link with its target), a file
  // that cannot be read too; a path outside every root is `missing`.
  FileState read(const std::string& path) const override;
  std::vector<std::string> list_tree(const std::string& dir) const override;

private:
  const Beneath& files_;
};

// The roots `config` allows (its root when it names no others), open for a BeneathSource;
// false with `error` when one cannot be opened.
bool open_roots(const ApplyConfig& config, Beneath* roots, std::string* error);

} // namespace blockls::apply
