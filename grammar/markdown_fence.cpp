// CommonMark fence rules, reduced to what transcripts need: up to 3 spaces of indent, a run
// of at least three backticks or tildes; a closer is a run of the same character at least
// as long with nothing but whitespace after it.
#include "grammar/markdown_fence.h"

namespace blockls {
namespace {

struct FenceRun {
  char marker = 0;
  size_t length = 0;
  std::string_view rest;
};

bool parse_fence_run(std::string_view line, FenceRun* run) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ')
    ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return false;
  const char marker = line[i];
  size_t j = i;
  while (j < line.size() && line[j] == marker)
    ++j;
  if (j - i < 3) return false;
  run->marker = marker;
  run->length = j - i;
  run->rest = line.substr(j);
  // An info string of a backtick fence may not contain backticks.
  if (marker == '`' && run->rest.find('`') != std::string_view::npos) return false;
  return true;
}

bool is_blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

} // namespace

bool MarkdownFence::closes_run(std::string_view line) const {
  FenceRun run;
  return open_ && parse_fence_run(line, &run) && run.marker == marker_ && run.length >= length_ &&
         is_blank(run.rest);
}

void MarkdownFence::observe(std::string_view line) {
  if (open_) {
    if (closes(line)) open_ = false;
    return;
  }
  FenceRun run;
  if (parse_fence_run(line, &run)) {
    open_ = true;
    marker_ = run.marker;
    length_ = run.length;
  }
}

} // namespace blockls
