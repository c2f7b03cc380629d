// Workspace notifications: the settings changed, watched files changed, folders added or
// removed. Each makes the open documents be analysed again.
#include "lsp/handlers.h"
#include "lsp/uri.h"

namespace blockls::lsp {

void did_change_configuration(Session& s, const json& params) {
  const DidChangeConfigurationParams p = params.get<DidChangeConfigurationParams>();
  std::vector<std::string> problems;
  read_settings(p.settings, &s.settings, &problems);
  s.rebuild_context(problems);
  s.reschedule_all();
}

void did_change_watched_files(Session& s, const json&) {
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
