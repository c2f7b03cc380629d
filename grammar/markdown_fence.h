// Tracks Markdown code fences (``` or ~~~, any info string) in prose, so that a fix which
// closes a block opened inside a fence can put the end marker before the fence's closing line.
#pragma once

#include <string_view>

namespace blockls {

class MarkdownFence {
public:
  // Feeds one prose line (a line outside every block).
  void observe(std::string_view line);
  bool open() const { return open_; }
  char marker() const { return marker_; }
  size_t length() const { return length_; }
  // Restores a state read from open() / marker() / length() (to resume parsing mid-text).
  void restore(bool open, char marker, size_t length) {
    open_ = open;
    marker_ = marker;
    length_ = length;
  }
  // True when `line` would close the currently open fence.
  bool closes(std::string_view line) const {
    // A closer has the fence's marker after at most 3 spaces of indentation (checked here
    // first: indented code inside a fenced block is common).
    if (!open_) return false;
    size_t i = 0;
    while (i < 3 && i < line.size() && line[i] == ' ')
      ++i;
    return i < line.size() && line[i] == marker_ && closes_run(line);
  }

private:
  bool closes_run(std::string_view line) const;

  bool open_ = false;
  char marker_ = '`';
  size_t length_ = 0;
};

} // namespace blockls
