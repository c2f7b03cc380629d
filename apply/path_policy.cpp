// Path resolution and policy. Symlinks are followed component by component with lstat and
// readlink (not realpath) so that a dangling link, or one whose target does not exist yet,
// is still resolved to where a write would really land.
#include "apply/path_policy.h"

#include "grammar/unicode.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace blockls::apply {
namespace {

std::vector<std::string> split_segments(std::string_view path) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= path.size()) {
    const size_t slash = path.find('/', pos);
    const size_t end = slash == std::string_view::npos ? path.size() : slash;
    if (end > pos) out.emplace_back(path.substr(pos, end - pos));
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  return out;
}

std::string join_segments(const std::vector<std::string>& segments) {
  if (segments.empty()) return "/";
  std::string out;
  for (const std::string& s : segments)
    out += "/" + s;
  return out;
}

// Follows symlinks in `absolute` (already lexically normal). Components that do not exist
// are appended as they are. Returns false after too many links (a loop). The resolved prefix
// grows and shrinks in place, so the work is linear in the path's length (plus the links).
bool follow_links(const std::string& absolute, std::string* out) {
  std::deque<std::string> todo;
  for (std::string& s : split_segments(absolute))
    todo.push_back(std::move(s));
  std::string done;            // "/a/b/c": the resolved prefix
  std::vector<size_t> lengths; // done's length before each of its components
  int hops = 0;
  bool missing = false; // once a component is missing, the rest is lexical
  while (!todo.empty()) {
    std::string seg = std::move(todo.front());
    todo.pop_front();
    if (seg == ".") continue;
    if (seg == "..") {
      if (!lengths.empty()) {
        done.resize(lengths.back());
        lengths.pop_back();
      }
      continue;
    }
    lengths.push_back(done.size());
    done += '/';
    done += seg;
    if (missing) continue;
    struct stat st {};
    if (::lstat(done.c_str(), &st) != 0) {
      missing = true;
      continue;
    }
    if (!S_ISLNK(st.st_mode)) continue;
    if (++hops > 40) return false;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(done.c_str(), buf, sizeof buf - 1);
    if (n < 0) return false;
    const std::string target(buf, static_cast<size_t>(n));
    done.resize(lengths.back());
    lengths.pop_back();
    if (!target.empty() && target.front() == '/') {
      done.clear();
      lengths.clear();
    }
    std::vector<std::string> parts = split_segments(target);
    todo.insert(todo.begin(), parts.begin(), parts.end());
  }
  *out = done.empty() ? "/" : done;
  return true;
}

bool inside(const std::string& path, const std::string& root) {
  if (root == "/") return true;
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

std::string relative_to(const std::string& path, const std::string& root) {
  if (path == root) return "";
  return root == "/" ? path.substr(1) : path.substr(root.size() + 1);
}

char fold(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// A name as case-insensitive volumes (macOS, Windows) see it: trailing spaces and dots are
// not part of it there, so `.git ` and `.git.` are `.git`.
std::string_view volume_name(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '.') && s != "." && s != "..")
    s.remove_suffix(1);
  return s;
}

bool segment_match(std::string_view pat, std::string_view s) {
  // Iterative wildcard match with backtracking on the last '*'; ASCII case folded, so a deny
  // pattern also holds on case-insensitive volumes.
  pat = volume_name(pat);
  s = volume_name(s);
  size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
  while (i < s.size()) {
    if (p < pat.size() && (pat[p] == '?' || fold(pat[p]) == fold(s[i]))) {
      ++p;
      ++i;
    } else if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*')
    ++p;
  return p == pat.size();
}

bool match_segments(const std::vector<std::string>& pat, size_t pi,
                    const std::vector<std::string>& path, size_t si) {
  if (pi == pat.size()) return si == path.size();
  if (pat[pi] == "**") {
    for (size_t k = si; k <= path.size(); ++k)
      if (match_segments(pat, pi + 1, path, k)) return true;
    return false;
  }
  if (si == path.size()) return false;
  return segment_match(pat[pi], path[si]) && match_segments(pat, pi + 1, path, si + 1);
}

} // namespace

std::string invalid_path_reason(std::string_view path) {
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      return fmt::format("The path contains the control character U+{:04X}; paths with control "
                         "characters are refused",
                         u);
  }
  if (unicode::first_invalid_utf8(path) != std::string_view::npos)
    return fmt::format("The path is not valid UTF-8 (byte {} is not part of a UTF-8 character); "
                       "it is refused rather than rewritten",
                       unicode::first_invalid_utf8(path) + 1);
  if (path.size() >= PATH_MAX)
    return fmt::format("The path is {} bytes long; the limit is {}", path.size(), PATH_MAX - 1);
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash - start > NAME_MAX)
      return fmt::format("A component of the path is {} bytes long; the limit is {}", slash - start,
                         NAME_MAX);
    start = slash + 1;
  }
  return {};
}

bool make_config(const std::string& root, ApplyConfig* config, std::string* error) {
  char buf[PATH_MAX];
  if (!::realpath(root.c_str(), buf)) {
    *error = fmt::format("{}: cannot resolve the root: {}", root, std::strerror(errno));
    return false;
  }
  struct stat st {};
  if (::stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = fmt::format("{}: the root is not a directory", root);
    return false;
  }
  config->root = buf;
  config->allowed_roots = {config->root};
  return true;
}

bool add_allowed_root(ApplyConfig* config, const std::string& dir, std::string* error) {
  char buf[PATH_MAX];
  if (!::realpath(dir.c_str(), buf)) {
    *error = fmt::format("{}: cannot resolve the allowed root: {}", dir, std::strerror(errno));
    return false;
  }
  config->allowed_roots.emplace_back(buf);
  return true;
}

std::string_view trim_path(std::string_view raw) {
  const auto ws = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
  };
  while (!raw.empty() && ws(raw.front()))
    raw.remove_prefix(1);
  while (!raw.empty() && ws(raw.back()))
    raw.remove_suffix(1);
  return raw;
}

std::string normalize_lexically(std::string_view absolute) {
  std::vector<std::string> out;
  for (std::string& seg : split_segments(absolute)) {
    if (seg == ".") continue;
    if (seg == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(std::move(seg));
  }
  return join_segments(out);
}

bool glob_match(std::string_view pattern, std::string_view path) {
  std::vector<std::string> pat = split_segments(pattern);
  // A trailing "/**" matches the directory itself too: it is already "zero or more".
  return match_segments(pat, 0, split_segments(path), 0);
}

ResolvedPath resolve_path(const ApplyConfig& config, std::string_view raw) {
  ResolvedPath r;
  const std::string_view trimmed = trim_path(raw);
  if (trimmed.empty()) {
    r.verdict = PathVerdict::empty;
    r.reason = "The path is empty";
    return r;
  }
  if (std::string why = invalid_path_reason(trimmed); !why.empty()) {
    r.verdict = PathVerdict::invalid;
    r.reason = std::move(why);
    return r;
  }
  const std::string joined =
      trimmed.front() == '/' ? std::string(trimmed) : config.root + "/" + std::string(trimmed);
  const std::string lexical = normalize_lexically(joined);
  if (!follow_links(lexical, &r.absolute)) {
    r.verdict = PathVerdict::denied;
    r.absolute = lexical;
    r.reason = fmt::format("'{}' has too many levels of symbolic links", trimmed);
    return r;
  }
  const std::vector<std::string> roots =
      config.allowed_roots.empty() ? std::vector<std::string>{config.root} : config.allowed_roots;
  const std::string* container = nullptr;
  for (const std::string& root : roots)
    if (inside(r.absolute, root) && (!container || root.size() > container->size()))
      container = &root;
  if (!container) {
    r.verdict = PathVerdict::outside_root;
    r.reason = r.absolute == lexical
                   ? fmt::format("'{}' resolves to {}, outside the root {}", trimmed, r.absolute,
                                 config.root)
                   : fmt::format("'{}' resolves through a symbolic link to {}, outside the root {}",
                                 trimmed, r.absolute, config.root);
    return r;
  }
  r.relative = relative_to(r.absolute, *container);
  // The state directory of blockls is never an action's target.
  if (inside(r.absolute, config.root) &&
      glob_match(std::string(kStateDirName) + "/**", relative_to(r.absolute, config.root))) {
    r.verdict = PathVerdict::denied;
    r.reason =
        fmt::format("'{}' is inside {}/, where blockls keeps its journals", trimmed, kStateDirName);
    return r;
  }
  for (const std::string& glob : config.deny_globs) {
    if (glob_match(glob, r.relative)) {
      r.verdict = PathVerdict::denied;
      r.reason = fmt::format("'{}' matches the deny pattern {}", trimmed, glob);
      return r;
    }
  }
  return r;
}

} // namespace blockls::apply
