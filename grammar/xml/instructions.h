// The format instructions for XML directives that `blockls instructions xml` prints
// (spec/dialects.md, "XML directives in assistant messages"; the Cline/Roo tool-call syntax).
// The example that follows them is XmlDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::xml {

inline constexpr std::string_view kInstructions =
    R"(To act on files, write a tool call as XML tags, the opening tag at the start of a line.

Tools (each line after "| ", which is not written):
  | <write_to_file>                        create or overwrite a file
  | <path>path/to/file</path>
  | <content>
  | the file's complete content
  | </content>
  | </write_to_file>

  | <replace_in_file>                      change part of a file
  | <path>path/to/file</path>
  | <diff>
  | ------- SEARCH
  | text copied exactly from the file
  | =======
  | the text that replaces it
  | +++++++ REPLACE
  | </diff>
  | </replace_in_file>

  | <read_file><path>path/to/file</path></read_file>          read a file
  | <execute_command><command>shell command</command></execute_command>    run a command

Rules:
- Every tag is closed by its own closing tag; parameters are the tool's child tags only.
- A value's first and last line break are not part of it.
- A diff may hold several SEARCH/REPLACE blocks; each SEARCH text must match the file exactly
  and occur once.
- Tags inside Markdown code fences or `inline code` are text, never tool calls.
)";

} // namespace blockls::xml
