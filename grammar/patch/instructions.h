// The format instructions for Codex patch envelopes that `blockls instructions patch` prints
// (spec/dialects.md, "Codex patches (`patch`)"). The example that follows them is
// PatchDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::patch {

inline constexpr std::string_view kInstructions =
    R"(To change files, write one patch envelope:

Syntax (each line after "| ", which is not written):
  | *** Begin Patch
  | *** Add File: path/to/new_file    then every line of the new file, each starting with +
  | +line one
  | *** Delete File: path/to/old_file
  | *** Update File: path/to/file
  | *** Move to: path/to/new_name     (optional: rename the file too)
  | @@ def some_function():           a hunk: @@, optionally followed by a line it follows
  |  context line                     starts with a space: kept
  | -removed line                     starts with -: removed
  | +added line                       starts with +: added
  | *** End of File                   (optional: the hunk ends at the end of the file)
  | *** End Patch

Rules:
- Paths are relative to the project root.
- Copy context and removed lines exactly from the file; give about three lines of context
  before and after each change, enough to find it once.
- Hunks of one file are in file order; each hunk is found after the previous one.
- Every line of an added file starts with +; every line of a hunk with ' ', '-' or '+'.
- Close the envelope with *** End Patch.
)";

} // namespace blockls::patch
