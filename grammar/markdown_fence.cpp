// CommonMark fence rules, reduced to what transcripts need: up to 3 spaces of indent, a run
// of at least three backticks or tildes; a closer is a run of the same character at least
// as long with nothing but whitespace after it.
#include "grammar/markdown_fence.h"

#include "grammar/bytes.h"

#include <bit>
#include <cstdint>
#include <cstring>

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
  // (A loop: an info string is a few bytes, less than a memchr call costs.)
  if (marker == '`')
    for (const char c : run->rest)
      if (c == '`') return false;
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

// closes() for a line that begins with a space or the marker.
bool MarkdownFence::closes_indented(std::string_view line) const {
  // A closer has the fence's marker after at most 3 spaces of indentation (checked here
  // first: indented code inside a fenced block is common). Lines of four bytes or more are
  // tested without a branch per byte, as their indentation varies from line to line.
  if (line.size() < 4) return closes_short(line);
  uint32_t x;
  std::memcpy(&x, line.data(), 4);
  if constexpr (std::endian::native != std::endian::little) x = __builtin_bswap32(x);
  const uint32_t spaces = zero_byte_flags(x ^ 0x20202020u);
  const uint32_t marks = zero_byte_flags(x ^ (0x01010101u * static_cast<unsigned char>(marker_)));
  // The first byte that is not a space, byte 3 at the latest.
  const unsigned lead = static_cast<unsigned>(__builtin_ctz((~spaces & 0x80808080u) | 0x80000000u));
  return ((marks >> lead) & 1u) != 0 && closes_run(line);
}

// closes() for a line of fewer than four bytes.
bool MarkdownFence::closes_short(std::string_view line) const {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ')
    ++i;
  return i < line.size() && line[i] == marker_ && closes_run(line);
}

} // namespace blockls
