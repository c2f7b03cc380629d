// The matching rules of the replace actions, used by the simulation only: exact search with
// line-ending tolerance (LF in the old text matches CRLF in a CRLF file), and the search for
// the region of a file closest to an old text that was not found.
#pragma once

#include "apply/file_content.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls::apply {

// One line of a text: its bytes [begin, end) without the line break ("\n" or "\r\n"), the
// next line starting at `next`. A text ending with "\n" has a last, empty line.
struct TextLine {
  size_t begin, end, next;
};
std::vector<TextLine> split_text_lines(std::string_view text);

// CRLF when the text has "\r\n" and no bare "\n"; LF otherwise.
bool uses_crlf(std::string_view content);
// The same from the content's counts of line breaks (no scan).
bool uses_crlf(const FileContent& content);
// Every bare "\n" becomes "\r\n".
std::string to_crlf(std::string_view text);
// Every "\r\n" becomes "\n".
std::string to_lf(std::string_view text);

struct Occurrences {
  std::vector<size_t> offsets; // non-overlapping, in order
  size_t length = 0;           // bytes of one occurrence in the content
  bool crlf_converted = false; // matched only after writing the needle with CRLF
};

// Non-overlapping occurrences of `needle` in `content` from byte `from`: exact first, then
// (when there is none and the content has CRLF line breaks) with the needle's LFs as CRLF.
Occurrences find_occurrences(std::string_view content, std::string_view needle, size_t from = 0);
// The same over a shared content, with its line index (FileContent::find_all).
Occurrences find_occurrences(const FileContent& content, std::string_view needle, size_t from = 0);

// 1-based line of each offset.
std::vector<uint32_t> line_numbers(std::string_view content, const std::vector<size_t>& offsets);

struct ClosestRegion {
  size_t begin = 0, end = 0; // bytes of the region in the content
  std::string text;          // the region, line breaks as LF
  uint32_t first_line = 0;   // 1-based
  uint32_t last_line = 0;
  std::string how; // "line endings", "trailing whitespace", "indentation", "fuzzy, 83% similar"
};

// What the closest-region search may cost. It only makes a hint, so on inputs past these it
// gives none rather than time and memory out of proportion (a 1 GiB file of one line once took
// 98 s and 14 GB): the defaults keep it to a fraction of a second on any file.
struct ClosestRegionLimits {
  size_t max_content_bytes = size_t{32} << 20; // larger files: no search
  size_t max_fuzzy_line_bytes = 4096;          // longer lines: similar only when equal
  size_t max_fuzzy_pairs = size_t{8} << 20;    // (file line, old-text line) pairs compared
};

// The region of `content` that `needle` most likely meant: whole lines equal up to line
// endings, then up to trailing whitespace, then up to indentation, then the most similar
// window of lines (at least 60% similar). nullopt when nothing qualifies, two regions tie, or
// the search would pass `limits`.
std::optional<ClosestRegion> closest_region(std::string_view content, std::string_view needle,
                                            const ClosestRegionLimits& limits = {});

} // namespace blockls::apply
