// The format instructions for heredoc file creation that `blockls instructions heredoc`
// prints: what a prompt author pastes into a system prompt so that a model writes files this
// checker accepts (spec/dialects.md, "Heredoc file creation"). The example that follows them
// is HeredocDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::heredoc {

inline constexpr std::string_view kInstructions =
    R"(To create a file, write its complete content as a shell heredoc.

Syntax:
  cat > path/to/file << 'EOF'       starts the file (cat >> path << 'EOF' appends to it)
  ...                               the file's content, line by line
  EOF                               ends it: the marker alone on its line

Rules:
- Write the start line exactly so: lower-case cat, one space around > and <<, the marker in
  single quotes.
- The content is written as it stands, ending with a line break; nothing in it is expanded or
  escaped. Write the whole file, never a part of it with "..." for the rest.
- The marker line is the marker alone, not indented. If the content itself has a line equal to
  EOF, choose another marker (for example 'END_OF_FILE') and end with that.
- Write each file once; explain your changes in prose outside the heredocs.
)";

} // namespace blockls::heredoc
