// Tracks Markdown code fences (``` or ~~~, any info string) in prose, so that a fix which
// closes a block opened inside a fence can put the end marker before the fence's closing line.
#pragma once

#include <cstddef>
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
  [[gnu::always_inline]] bool closes(std::string_view line) const {
    // A closer begins with a space or the fence's marker. Most lines of a fenced block begin
    // with neither (a letter, a `#`): one test each, in the caller's loop.
    return open_ && !line.empty() && (line[0] == ' ' || line[0] == marker_) &&
           closes_indented(line);
  }

private:
  bool closes_run(std::string_view line) const;
  // closes() for a line that begins with a space or the marker.
  bool closes_indented(std::string_view line) const;
  // closes() for a line of fewer than four bytes.
  bool closes_short(std::string_view line) const;

  bool open_ = false;
  char marker_ = '`';
  size_t length_ = 0;
};

} // namespace blockls
