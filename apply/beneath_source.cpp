// BeneathSource (see beneath_source.h).
#include "apply/beneath_source.h"

#include <algorithm>

namespace blockls::apply {

FileState BeneathSource::read(const std::string& path) const {
  FileState s;
  const EntryInfo info = files_.stat(path);
  s.mode = info.mode;
  std::string text, error;
  switch (info.kind) {
  case EntryKind::missing:
    return s;
  case EntryKind::directory:
    s.kind = FileState::Kind::directory;
    return s;
  case EntryKind::link:
    s.kind = FileState::Kind::other; // the target kept, so that a journal can restore the link
    if (files_.read_link(path, &text, &error) && !text.empty()) s.content = FileContent(text);
    return s;
  case EntryKind::other:
    s.kind = FileState::Kind::other;
    return s;
  case EntryKind::file:
    if (not_read(info.mode, info.size, max_file_bytes_, &s)) return s;
    if (!files_.read_file(path, &text, &error)) {
      s.kind = FileState::Kind::other; // unreadable, or no longer a file
      return s;
    }
    s.kind = FileState::Kind::file;
    s.content = FileContent(text);
    return s;
  }
  return s;
}

std::vector<std::string> BeneathSource::list_tree(const std::string& dir) const {
  std::vector<std::string> out;
  std::vector<std::string> todo{dir};
  std::vector<std::string> names;
  std::string error;
  while (!todo.empty()) {
    const std::string d = todo.back();
    todo.pop_back();
    if (!files_.list_dir(d, &names, &error)) continue;
    for (const std::string& name : names) {
      std::string p = d + "/" + name;
      if (files_.stat(p).kind == EntryKind::directory) todo.push_back(p);
      out.push_back(std::move(p));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool open_roots(const ApplyConfig& config, Beneath* roots, std::string* error) {
  return roots->open(config.allowed_roots.empty() ? std::vector<std::string>{config.root}
                                                  : config.allowed_roots,
                     error);
}

} // namespace blockls::apply
