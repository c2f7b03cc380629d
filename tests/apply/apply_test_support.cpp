// Tree snapshots with lstat/readlink so that symlinks are recorded, never followed.
#include "apply/apply_test_support.h"

#include "apply/simulate.h"
#include "apply/workspace_check.h"
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace blockls::test {

TreeSnapshot snapshot_tree(const std::string& dir) {
  namespace fs = std::filesystem;
  TreeSnapshot snap;
  if (!fs::exists(dir)) return snap;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string path = it->path().string();
    const std::string rel = path.substr(dir.size() + 1);
    struct stat st {};
    ::lstat(path.c_str(), &st);
    if (S_ISLNK(st.st_mode)) {
      snap[rel] = "link:" + fs::read_symlink(it->path()).string();
    } else if (S_ISDIR(st.st_mode)) {
      snap[rel] = "dir:" + std::to_string(st.st_mode & 07777);
    } else {
      snap[rel] = "file:" + std::to_string(st.st_mode & 07777) + ":" + read_file(path);
    }
  }
  return snap;
}

std::string rewrite_tmp_paths(const std::string& text, const std::string& root) {
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t at = text.find("/tmp/", pos);
    if (at == std::string::npos) break;
    const size_t slash = text.find('/', at + 5);
    const size_t stop = text.find_first_of(" \t\n\"'", at + 5);
    if (slash == std::string::npos || (stop != std::string::npos && stop < slash)) {
      out.append(text, pos, at + 5 - pos);
      pos = at + 5;
      continue;
    }
    out.append(text, pos, at - pos);
    out += root + "/";
    pos = slash + 1;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

void put_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream f(path, std::ios::binary);
  f << text;
}

void empty_dir(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    std::filesystem::remove_all(entry.path(), ec);
}

void age(const std::string& path) {
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= 3600;
  times[1] = times[0];
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

std::string get_file(const std::string& path) {
  if (!std::filesystem::exists(std::filesystem::symlink_status(path))) return "<missing>";
  return read_file(path);
}

TempRoot::TempRoot() {
  std::string error;
  REQUIRE(apply::make_config(make_temp_dir(), &config, &error));
  dir = config.root;
}

TempRoot::~TempRoot() {
  std::filesystem::remove_all(dir);
}

std::vector<Diagnostic> check_in(const std::string& text, const TempRoot& root) {
  CheckedDocument checked = check_document(text);
  apply::DiskSource disk(root.config.max_file_bytes);
  apply::check_workspace(text, &checked, root.config, ActionCatalog::builtin(), disk);
  return checked.diagnostics;
}

apply::BlockRun run_checked_block_on_disk(const WorkspaceChecked& c,
                                          const apply::ApplyConfig& config,
                                          std::vector<Diagnostic>* diags, size_t block) {
  apply::StateDir state;
  std::string error;
  REQUIRE(state.open(config, &error));
  const apply::SimulationInput in{c.text, &c.checked, &c.ws.plan, &config};
  return run_block_on_disk(in, c.ws.simulation.blocks.at(block), state, diags);
}

const Diagnostic* find_code(const std::vector<Diagnostic>& ds, std::string_view code) {
  for (const Diagnostic& d : ds)
    if (d.code == code) return &d;
  return nullptr;
}

std::unique_ptr<WorkspaceChecked> check_with_workspace(const std::string& text,
                                                       const apply::ApplyConfig& config) {
  auto c = std::make_unique<WorkspaceChecked>();
  c->text = text;
  c->checked = check_document(c->text);
  apply::DiskSource disk(config.max_file_bytes);
  c->ws = apply::check_workspace(c->text, &c->checked, config, ActionCatalog::builtin(), disk);
  return c;
}

std::string plan_difference(const apply::Plan& a, const apply::Plan& b) {
  if (a.actions.size() != b.actions.size()) return "action count";
  for (size_t i = 0; i < a.actions.size(); ++i) {
    const apply::PlannedAction& x = a.actions[i];
    const apply::PlannedAction& y = b.actions[i];
    const std::string at = "action " + std::to_string(i) + ": ";
    if (x.seq != y.seq || x.block != y.block || x.block_id != y.block_id ||
        x.command != y.command || x.dialect != y.dialect || x.spec != y.spec ||
        x.action != y.action || x.line != y.line || x.name_range.begin != y.name_range.begin ||
        x.name_range.end != y.name_range.end)
      return at + "fields";
    if (x.params.size() != y.params.size()) return at + "parameter count";
    for (auto p = x.params.begin(), q = y.params.begin(); p != x.params.end(); ++p, ++q)
      if (p->first != q->first || p->second.text != q->second.text ||
          p->second.value_range().begin != q->second.value_range().begin ||
          p->second.value_range().end != q->second.value_range().end ||
          p->second.line() != q->second.line())
        return at + "parameter " + std::string(p->first);
  }
  const auto same_blocks = [](const std::vector<apply::SkippedBlock>& x,
                              const std::vector<apply::SkippedBlock>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].block != y[i].block || x[i].block_id != y[i].block_id || x[i].line != y[i].line ||
          x[i].code != y[i].code || x[i].message != y[i].message)
        return false;
    return true;
  };
  if (!same_blocks(a.skipped, b.skipped)) return "skipped blocks";
  if (!same_blocks(a.not_run, b.not_run)) return "not-run blocks";
  if (a.planned_blocks != b.planned_blocks) return "planned blocks";
  if (a.total_blocks != b.total_blocks) return "total blocks";
  return "";
}

} // namespace blockls::test
