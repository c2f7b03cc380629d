// Where an action's path really points, and whether it may go there: trims the raw value,
// anchors relative paths at the root, folds `..`, follows symlinks of the existing prefix,
// then checks containment in an allowed root and the deny globs.
#pragma once

#include "apply/config.h"

#include <string>
#include <string_view>

namespace blockls::apply {

enum class PathVerdict { ok, empty, invalid, outside_root, denied };

struct ResolvedPath {
  PathVerdict verdict = PathVerdict::ok;
  std::string absolute; // resolved (symlinks followed) absolute path
  std::string relative; // relative to the allowed root that contains it ("" = the root itself)
  std::string reason;   // for every verdict but ok: a complete sentence
};

ResolvedPath resolve_path(const ApplyConfig& config, std::string_view raw);

// Why a raw path is refused before it is resolved (control characters, invalid UTF-8, longer
// than PATH_MAX or a component longer than NAME_MAX), or "" when it is acceptable. Such paths
// are errors, never rewritten: the name written must be the name the reviewer read.
std::string invalid_path_reason(std::string_view path);

// Glob over '/'-separated paths: `**` = any number of segments (also none), `*` = any run of
// characters within a segment, `?` = one character. A trailing `/**` also matches the
// directory itself. Segments compare ASCII-case-insensitively, trailing spaces and dots
// ignored (as case-insensitive volumes compare names).
bool glob_match(std::string_view pattern, std::string_view path);

// Whitespace (incl. '\r') trimmed from both ends, as path parameters are read.
std::string_view trim_path(std::string_view raw);

// "a/./b/../c" -> "a/c" for an absolute path; never climbs above "/".
std::string normalize_lexically(std::string_view absolute);

} // namespace blockls::apply
