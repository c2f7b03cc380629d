// Codex's update-hunk rules, one line at a time (see patch_hunks.h). The messages are Codex's
// own, so that a model trained on them recognises its mistake.
#include "grammar/patch/patch_hunks.h"

namespace blockls::patch {

std::string_view trim_blanks(std::string_view s) {
  constexpr std::string_view kBlanks = " \t\r";
  const size_t b = s.find_first_not_of(kBlanks);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kBlanks) - b + 1);
}

HunkReader::Step HunkReader::fail(std::string message) {
  message_ = std::move(message);
  // Recovery: the malformed line is skipped; what follows starts a new chunk.
  in_chunk_ = false;
  any_ = true;
  return Step::error;
}

// A line of the open chunk: context, removed, added, or `*** End of File`.
HunkReader::Step HunkReader::chunk_line(std::string_view line) {
  Chunk& c = chunks_.back();
  if (trim_blanks(line) == "*** End of File") {
    if (parsed_ == 0) {
      chunks_.pop_back();
      return fail("Update hunk does not contain any lines");
    }
    c.end_of_file = true;
    in_chunk_ = false;
    return Step::taken;
  }
  const char first = line.empty() ? ' ' : line[0];
  const std::string_view rest = line.empty() ? line : line.substr(1);
  if (first != ' ' && first != '-' && first != '+')
    return Step::ended; // not a chunk line: the caller decides (parsed_ > 0 here)
  if (keep_lines_) {
    if (first != '+') c.old_lines.push_back(rest);
    if (first != '-') c.new_lines.push_back(rest);
  }
  ++parsed_;
  return Step::taken;
}

HunkReader::Step HunkReader::feed(std::string_view line, size_t number) {
  if (in_chunk_) {
    const bool first = parsed_ == 0;
    const Step s = chunk_line(line);
    if (s != Step::ended) return s;
    if (first) {
      // Recovery: the line is skipped and the chunk stays open for the lines after it.
      message_ = "Unexpected line found in update hunk: '" + std::string(line) +
                 "'. Every line should start with ' ' (context) or '+' (added line) or '-' "
                 "(removed line)";
      return Step::error;
    }
    in_chunk_ = false; // the chunk ended before this line: read it as a chunk header
  }
  const std::string_view t = trim_blanks(line);
  if (t.empty()) return Step::taken; // blank lines between chunks
  if (t.starts_with("***")) return Step::ended;
  Chunk c;
  c.first_line = number;
  if (t == "@@") {
    chunks_.push_back(std::move(c));
  } else if (line.starts_with("@@ ")) {
    c.context = line.substr(3);
    chunks_.push_back(std::move(c));
  } else if (!any_) {
    // The first chunk may omit its `@@` line: this line is already one of its lines.
    chunks_.push_back(std::move(c));
    in_chunk_ = true;
    parsed_ = 0;
    any_ = true;
    return feed(line, number);
  } else {
    // Recovery: the line is skipped; the lines after it are read as a chunk's.
    chunks_.push_back(std::move(c));
    in_chunk_ = true;
    parsed_ = 1;
    message_ =
        "Expected update hunk to start with a @@ context marker, got: '" + std::string(line) + "'";
    return Step::error;
  }
  in_chunk_ = true;
  parsed_ = 0;
  any_ = true;
  return Step::taken;
}

bool HunkReader::finish(std::string_view path) {
  if (in_chunk_ && parsed_ == 0) {
    chunks_.pop_back();
    message_ = "Update hunk does not contain any lines";
    in_chunk_ = false;
    return false;
  }
  in_chunk_ = false;
  if (chunks_.empty() && !any_) {
    message_ = "Update file hunk for path '" + std::string(path) + "' is empty";
    return false;
  }
  return true;
}

std::optional<std::vector<Chunk>> parse_hunks(std::string_view hunks, std::string_view path,
                                              std::string* error) {
  HunkReader reader;
  size_t number = 0;
  for (size_t pos = 0; pos < hunks.size(); ++number) {
    const size_t nl = hunks.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? hunks.size() : nl;
    const std::string_view line = hunks.substr(pos, end - pos);
    const HunkReader::Step s = reader.feed(line, number);
    if (s == HunkReader::Step::error || s == HunkReader::Step::ended) {
      if (error)
        *error = s == HunkReader::Step::error
                     ? reader.message()
                     : "Unexpected line in update hunks: '" + std::string(line) + "'";
      return std::nullopt;
    }
    pos = end + 1;
  }
  if (!reader.finish(path)) {
    if (error) *error = reader.message();
    return std::nullopt;
  }
  return std::move(reader.chunks());
}

} // namespace blockls::patch
