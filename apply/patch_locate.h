// Locating and applying the chunks of a Codex update (`file_patch`, grammar/patch/
// patch_hunks.h) in a file's lines, by Codex's rules: each chunk's context and removed lines
// are found after the previous chunk (and after its `@@ context` line), comparing lines
// exactly, then ignoring trailing blanks, then ignoring blanks at both ends, then with common
// Unicode punctuation read as ASCII; `*** End of File` pins them to the end of the file; a
// chunk without old lines adds its lines at the end. The result ends with a line break.
#pragma once

#include "grammar/patch/patch_hunks.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

// Where `pattern` occurs in `lines` from line `start` (only at the end when `end_of_file`),
// in the first comparison pass that finds it at all; empty when none does.
std::vector<size_t> seek_sequence(const std::vector<std::string_view>& lines,
                                  const std::vector<std::string_view>& pattern, size_t start,
                                  bool end_of_file);

// `s` with the Unicode dashes, quotes and spaces Codex normalises written as ASCII.
std::string normalise_punctuation(std::string_view s);

struct PatchOutcome {
  enum class Status { applied, not_found, ambiguous };
  Status status = Status::applied;
  std::string text;          // applied: the new content
  std::string message;       // otherwise: Codex's wording
  size_t chunk = 0;          // the chunk that failed
  std::string needle;        // its old lines (LF, final "\n"), for the closest region
  std::vector<size_t> lines; // ambiguous: 1-based lines of each match
};

// Applies `chunks` to `content` (a CRLF file keeps CRLF). A chunk without `@@ context` whose
// old lines occur more than once from where it is searched is ambiguous (Codex takes the
// first; blockls asks for more context); with a context line, the first match after it wins.
PatchOutcome apply_chunks(std::string_view content, const std::vector<patch::Chunk>& chunks,
                          std::string_view shown_path);

} // namespace blockls::apply
