// The lines of command input with sections (spec: ../shared/spec/dialects.md, "Sections
// (multi-parameter input)"; seed 002_…): the start line `COMMAND ARGS… << 'MARK'` (a shell
// heredoc whose command is not `cat`) and the delimiter lines `---NAME---` /
// `---(UUID:hex)NAME---` of its body. Hand-written scanners, no regular expressions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::sections {

struct StartLine {
  size_t indent = 0;                   // leading blanks
  size_t name_begin = 0, name_end = 0; // the command's name: program and subcommand words
  size_t mark_begin = 0, mark_end = 0; // the marker, without its quotes
};

// The start line `line` (its text, without the line break), or nullopt when it is none: the
// whole line must be one simple command ending with the heredoc operator. The program is a
// word of letters, digits and `_./-` (never `cat`: that is the heredoc dialect's); the name
// adds the next word when it looks like a subcommand (`chatroom task-started`). Lines with
// backticks, pipes, lists or redirections before the operator are not command input; a
// placeholder `<chatroomId>` (the seed writes them) is an argument.
std::optional<StartLine> parse_start(std::string_view line);

// True when a start line may begin with byte `c` (after blanks): a lower-case letter, `_`, `.` or
// `/` (see kStartPrefixes: a capitalised first word is prose).
bool may_begin_command(char c);

struct Delimiter {
  size_t begin = 0, end = 0;           // the delimiter without surrounding blanks (in the line)
  size_t name_begin = 0, name_end = 0; // NAME
  size_t uuid_begin = 0, uuid_end = 0; // the hex digits of `(UUID:hex)`; empty when plain
  bool has_uuid() const { return uuid_end > uuid_begin; }
};

// The delimiter on `line`, or nullopt: `---NAME---` (NAME `[A-Z][A-Z_]*`) or
// `---(UUID:hex)NAME---`, alone on the line (blanks around it allowed).
std::optional<Delimiter> parse_delimiter(std::string_view line);

// The output key of a parameter name: lowerCamelCase (`TECH_SPECS` -> `techSpecs`).
std::string camel_key(std::string_view name);

} // namespace blockls::sections
