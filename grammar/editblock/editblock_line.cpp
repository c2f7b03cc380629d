// Marker and filename lines of Aider's edit blocks (see editblock_line.h).
#include "grammar/editblock/editblock_line.h"

#include <array>

namespace blockls::editblock {
namespace {

// Python's str.strip() whitespace among ASCII bytes.
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
         (c >= '\x1c' && c <= '\x1f');
}

// The number of `c` at the start of `s`.
size_t run_of(std::string_view s, char c) {
  size_t n = 0;
  while (n < s.size() && s[n] == c)
    ++n;
  return n;
}

} // namespace

std::string_view trim(std::string_view line) {
  size_t b = 0, e = line.size();
  while (b < e && is_space(line[b]))
    ++b;
  while (e > b && is_space(line[e - 1]))
    --e;
  return line.substr(b, e - b);
}

MarkerLine classify(std::string_view line) {
  const std::string_view t = trim(line);
  if (t.size() < 5) return {};
  const size_t n = run_of(t, t[0]);
  if (n < 5 || n > 9) return {};
  const std::string_view rest = t.substr(n);
  Marker kind = Marker::none;
  switch (t[0]) {
  case '<':
    if (rest == " SEARCH" || rest == " SEARCH>") kind = Marker::head;
    break;
  case '=':
    if (rest.empty()) kind = Marker::divider;
    break;
  case '>':
    if (rest == " REPLACE") kind = Marker::updated;
    break;
  default:
    break;
  }
  if (kind == Marker::none) return {};
  return {kind, line == canonical(kind)};
}

std::string_view canonical(Marker kind) {
  switch (kind) {
  case Marker::head:
    return kHead;
  case Marker::divider:
    return kDivider;
  case Marker::updated:
    return kUpdated;
  case Marker::none:
    break;
  }
  return {};
}

// The length of the fence opener that begins `line`: a run of three or more backticks or
// tildes, or one of the HTML-like fences Aider uses when a file holds backticks (`<source>`,
// `<code>`, `<pre>`, `<codeblock>`, `<sourcecode>`); 0 when it begins none.
size_t fence_prefix(std::string_view line) {
  if (line.starts_with("```") || line.starts_with("~~~")) return run_of(line, line[0]);
  for (const std::string_view tag : {"<sourcecode>", "<codeblock>", "<source>", "<code>", "<pre>"})
    if (line.starts_with(tag)) return tag.size();
  return 0;
}

bool is_fence_line(std::string_view line) {
  return fence_prefix(line) > 0;
}

Name filename_in(std::string_view line) {
  const std::string_view t = trim(line);
  const size_t base = t.data() - line.data();
  if (t == "...") return {};
  if (const size_t fence = fence_prefix(t)) {
    // The info string names the file only when it looks like a path (```src/app.py).
    const std::string_view info = trim(t.substr(fence));
    if (info.find_first_of("./") == std::string_view::npos) return {};
    const size_t b = info.data() - line.data();
    return {b, b + info.size()};
  }
  size_t b = 0, e = t.size();
  while (e > b && t[e - 1] == ':')
    --e;
  while (b < e && t[b] == '#')
    ++b;
  while (b < e && is_space(t[b]))
    ++b;
  while (e > b && is_space(t[e - 1]))
    --e;
  for (const char c : {'`', '*'}) {
    while (b < e && t[b] == c)
      ++b;
    while (e > b && t[e - 1] == c)
      --e;
  }
  return {base + b, base + e};
}

bool is_shell_fence(std::string_view line) {
  static constexpr std::array<std::string_view, 12> kShells = {
      "```bash", "```sh",  "```shell", "```cmd", "```batch", "```powershell",
      "```ps1",  "```zsh", "```fish",  "```ksh", "```csh",   "```tcsh"};
  const std::string_view t = trim(line);
  for (const std::string_view s : kShells)
    if (t.starts_with(s)) return true;
  return false;
}

} // namespace blockls::editblock
