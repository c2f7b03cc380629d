// The format instructions for command input with sections that `blockls instructions sections`
// prints: what a prompt author pastes into a system prompt so that a model writes command
// input this checker accepts (spec/dialects.md, "Sections (multi-parameter input)"; seed
// 002_…). The example that follows them is SectionsDialect::info.example.
#pragma once

#include <string_view>

namespace blockls::sections {

inline constexpr std::string_view kInstructions =
    R"(To give a command text input, write the command with a shell heredoc; it is checked and
shown, never run by blockls.

Syntax (one parameter, MESSAGE; each line after "| ", which is not written):
  | command subcommand ARGS << 'EOF'
  | ...                               the text, as it stands
  | EOF                               ends it: the marker alone on its line

Syntax (several parameters; each line after "| ", which is not written):
  | command subcommand ARGS << 'PARAMS_END'
  | ---TITLE---
  | ...                               the value of TITLE
  | ---DESCRIPTION---
  | ...                               the value of DESCRIPTION
  | PARAMS_END

Rules:
- A delimiter line is ---NAME--- alone on its line; NAME is upper-case letters and
  underscores (TECH_SPECS). Everything up to the next delimiter is the value; empty lines at
  its start and end are dropped, all other whitespace is kept. Nothing is escaped.
- Write no text between the start line and the first delimiter.
- Give each parameter once. If a value itself has a line like ---TITLE---, prefix every
  delimiter with one UUID: ---(UUID:a1b2c3d4)TITLE---; then plain ---NAME--- lines are content.
- Give the parameters the command needs, and only those.
)";

} // namespace blockls::sections
