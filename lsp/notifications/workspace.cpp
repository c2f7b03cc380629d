// Workspace notifications: the settings changed, watched files changed, folders added or
// removed. Each makes the open documents be analysed again.
#include "lsp/handlers.h"
#include "lsp/uri.h"

#include <algorithm>

namespace blockls::lsp {

void did_change_configuration(Session& s, const json& params) {
  const DidChangeConfigurationParams p = params.get<DidChangeConfigurationParams>();
  std::vector<std::string> problems;
  read_settings(p.settings, &s.settings, &problems);
  s.rebuild_context(problems);
  s.reschedule_all();
}

// Files whose contents changed (type 2) need no more than a new analysis: the file cache
// checks every file's (size, mtime, ctime, inode) and the analysis re-runs only the blocks
// that observed a changed file. A created or deleted file (or an event that cannot be read)
// may change where paths resolve: the path memo and the cache are dropped.
void did_change_watched_files(Session& s, const json& params) {
  bool contents_only = false;
  try {
    const DidChangeWatchedFilesParams p = params.get<DidChangeWatchedFilesParams>();
    contents_only =
        !p.changes.empty() && std::all_of(p.changes.begin(), p.changes.end(),
                                          [](const FileEvent& e) { return e.type == 2; });
  } catch (const std::exception&) {
    contents_only = false; // malformed: assume the worst
  }
  if (contents_only) {
    s.log(LogLevel::info, "watched files changed (contents): workspace checks run again");
    return s.reschedule_all();
  }
  s.files_changed("watched files changed");
}

void did_change_workspace_folders(Session& s, const json& params) {
  const DidChangeWorkspaceFoldersParams p = params.get<DidChangeWorkspaceFoldersParams>();
  for (const std::string& uri : p.removed)
    std::erase(s.workspace_roots, path_from_uri(uri));
  for (const std::string& uri : p.added)
    s.workspace_roots.push_back(path_from_uri(uri));
  s.rebuild_context({});
  s.reschedule_all();
}

} // namespace blockls::lsp
