// The format instructions for the seed's replacer edits that `blockls instructions replacer`
// prints (spec/dialects.md, "SEARCH/REPLACE edits — seed 001"; the seed's
// replacer_llm_instructions). The example that follows them is ReplacerDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::replacer {

inline constexpr std::string_view kInstructions =
    R"(To change files, write one edit per change in this format.

Syntax:
  <<<EXPLANATION>>>
  why the change is made                 (optional)
  <<<FILE>>>
  path/to/file                           the file's full path, alone on its line
  <<<SEARCH>>>
  ...                                    text copied exactly from the file
  <<<REPLACE>>>
  ...                                    the text that replaces it
  <<<END>>>

  or, to create or rewrite a whole file (parent folders are created):
  <<<FILE>>>
  path/to/file
  <<<OVERWRITE>>>
  ...                                    the file's complete content
  <<<END>>>

Rules:
- Every marker is alone on its line, exactly as shown; close every edit with <<<END>>>.
- Every edit names its FILE, right before its SEARCH or OVERWRITE section.
- The SEARCH text must match the file character for character (indentation and blank lines
  included) and occur exactly once: include just enough lines to be unique.
- A section's text is its lines; the line break before the next marker is not part of it.
- To delete text, leave the REPLACE section empty (<<<END>>> right after <<<REPLACE>>>).
- To make several changes, write several edits; they apply in order.
)";

} // namespace blockls::replacer
