// TELT line classifier: recognises the syntax line shapes of spec/telt.md (START, COMMAND,
// PARAM/END delimiters) and their near misses by looking at a line's first bytes. No state:
// the TeltParser decides what a shape means in the block it is in.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::telt {

// A hash is exactly three ASCII letters or digits.
bool is_valid_hash(std::string_view hash);
// A command / parameter name: [A-Z][A-Z0-9_]*.
bool is_valid_name(std::string_view name);
// Only spaces, tabs and carriage returns.
bool is_blank(std::string_view line);

// End of the syntax part of a line: trailing spaces/tabs/`\r` and a trailing ` // comment`
// (whitespace before `//`) are not part of it.
size_t syntax_end(std::string_view line);

// Offsets below are relative to the line's first byte.
enum class StartForm {
  canonical, // `#!telt [3-char SHA: xyz]` with a valid hash
  bad_hash,  // the canonical shape with a hash that is not 3 letters/digits (maybe empty)
  near_miss, // `#!TELT …`, `#!telt [SHA: x]`, `#!telt x`, `#! telt […]`, …
};

struct StartLine {
  StartForm form = StartForm::canonical;
  size_t hash_begin = 0; // the hash as written (empty range when none was found)
  size_t hash_end = 0;
  size_t body_end = 0; // syntax_end() of the line
};

// A START line or one of its near misses (at column 0); nullopt for anything else.
std::optional<StartLine> parse_start(std::string_view line);

struct CommandLine {
  size_t name_begin = 0;
  size_t name_end = 0;
};

// `=== NAME ===` at column 0.
std::optional<CommandLine> parse_command(std::string_view line);

struct DelimiterLine {
  size_t indent = 0; // leading spaces/tabs
  size_t name_begin = 0;
  size_t name_end = 0;
  size_t hash_begin = 0;
  size_t hash_end = 0;
  size_t body_end = 0;
};

// `--NAME HASH--` after optional indentation, NAME valid, HASH any text without blanks.
std::optional<DelimiterLine> parse_delimiter(std::string_view line);

// The common delimiter exactly: `--NAME HASH--` with a valid NAME and `hash` (letters and
// digits only), nothing before or after. parse_delimiter()'s result for such a line, found
// without its general scan; nullopt for any other line (which parse_delimiter may accept).
std::optional<DelimiterLine> match_exact_delimiter(std::string_view line, std::string_view hash);

// A near miss of a delimiter that carries `hash`: one or more dashes, optional blanks, a
// name in any case, `:` and/or blanks, the hash, optional blanks and dashes (`-- X abc--`,
// `--x abc--`, `--X abc-`, `---X abc---`, `--X: abc--`). Needs two leading dashes or at
// least one trailing dash. nullopt when `hash` is empty or not in the line.
std::optional<DelimiterLine> parse_near_miss(std::string_view line, std::string_view hash);

std::string canonical_start(std::string_view hash);
std::string canonical_delimiter(std::string_view name, std::string_view hash);
std::string to_upper(std::string_view text);

} // namespace blockls::telt
