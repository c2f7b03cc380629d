// The line-level pieces of the SHAM / NESL grammar, as nesl-js implements them: era literals,
// JavaScript's trim(), the header and end-marker regexes, block-id and key validation, JSON
// string decoding and the assignment splitter. Pure functions over one line; all offsets are
// bytes into that line (nesl-js counts UTF-16 units: callers convert through the LineIndex).
#pragma once

#include "grammar/model.h"

#include <optional>
#include <string>
#include <string_view>

namespace blockls::nesl {

// The literals of one era: SHAM `#!SHAM ` / `#!END_SHAM_` / `EOT_SHAM_`, upper-case NESL,
// and the current lower-case NESL.
struct EraSyntax {
  Era era;
  std::string_view header;       // "#!nesl " (the classification prefix, space included)
  std::string_view end_prefix;   // "#!end_"
  std::string_view delim_prefix; // "EOT_"
  std::string_view name;         // "NESL" / "SHAM", as in "Invalid NESL header format"
  // The header without its trailing space: "#!nesl", what a header line starts with.
  std::string_view marker() const { return header.substr(0, header.size() - 1); }
};
const EraSyntax& era_syntax(Era era);
// The era whose header prefix `trimmed` starts with, or nullptr.
const EraSyntax* header_era(std::string_view trimmed);

// JavaScript's String.prototype.trim() whitespace (WhiteSpace + LineTerminator).
bool is_js_space(char32_t cp);
std::string_view js_trim(std::string_view s);
std::string_view js_trim_start(std::string_view s);
std::string_view js_trim_end(std::string_view s);

// The header label the spec documents (`[@three-char-SHA-256: id]`); nesl-js accepts any.
constexpr std::string_view kStandardLabel = "three-char-SHA-256";

// `^<header>\[@(?:[a-zA-Z0-9-]+): ([^\]]+)\]$` on the raw line.
struct HeaderMatch {
  bool matched = false;
  size_t label_begin = 0, label_end = 0;
  size_t id_begin = 0, id_end = 0;
};
HeaderMatch match_header(std::string_view line, const EraSyntax& era);

// nesl-js validateBlockId: 2–8 UTF-16 units, then `^[A-Za-z0-9]{2,8}$`. Returns the error
// message, or nullopt when the id is valid.
std::optional<std::string_view> block_id_error(std::string_view id);
bool is_valid_block_id(std::string_view id);

// `^<end_prefix>([A-Za-z0-9]{2,8})'?$` on the raw line: the id range, or nullopt.
std::optional<ByteRange> match_end_marker(std::string_view line, const EraSyntax& era);

// Key rules (findInvalidCharPosition, then the 256-unit limit): the INVALID_KEY message, or
// nullopt for a valid key.
std::optional<std::string> key_error(std::string_view key);
// A best-effort valid key from an invalid one (invalid characters become `_`, invisible ones
// are dropped); "" when nothing usable is left.
std::string repair_key(std::string_view key);

// JSON.parse of a quoted token (`"..."` including the quotes). False when JSON rejects it.
bool decode_json_string(std::string_view quoted, std::string* out);
// Lenient decoding of a string body (no quotes): valid JSON escapes are decoded, anything
// else is kept literally.
std::string decode_lenient(std::string_view body);
// The body of a JSON string for `value` (quotes, backslashes and control characters escaped).
std::string json_escape(std::string_view value);
// Rewrites the body of an invalid quoted token so JSON accepts it: lone backslashes are
// doubled, raw control characters escaped.
std::string escape_invalid_json(std::string_view body);

// nesl-js parseAssignment. Error kinds use nesl-js's internal codes (`INVALID_OPERATOR`).
struct Assignment {
  enum class Kind { quoted, heredoc, error } kind = Kind::error;
  std::string_view code;             // error code when kind == error
  size_t err_begin = 0, err_end = 0; // error span (end may be line.size() + 1 for INVALID_VALUE)
  size_t eq = 0;                     // first '='
  size_t key_begin = 0, key_end = 0; // the trimmed key
  size_t value_begin = 0, value_end = 0; // quoted token incl. quotes / delimiter (no quotes)
  std::string value;                     // decoded string (quoted; TRAILING_CONTENT too)
  bool value_decoded = false;            // TRAILING_CONTENT: the quoted part was valid JSON
  // Quoted: the body has no escape or control character, so the value is the token without
  // its quotes (and `value` is left empty when decoding was not asked for).
  bool value_plain = false;
  // The key is an ASCII word of at most 256 bytes at column 0: key_error() has nothing to say.
  bool key_plain = false;
};
// The error-free common shapes of parse_assignment(): `key = "body"` with no escape or
// control character in the body, and `key = <<'DELIM'`; an ASCII word key at column 0,
// ASCII blanks around the value, no `:=`. Offsets as in Assignment (key_begin is 0). False
// for every other line, which only parse_assignment() can judge.
struct PlainAssignment {
  bool heredoc = false;
  size_t eq = 0;
  size_t key_end = 0;
  size_t value_begin = 0, value_end = 0; // quoted token incl. quotes / delimiter (no quotes)
};
bool match_plain_assignment(std::string_view line, PlainAssignment* out);

// `strict_colon_equals`: report `:=` even inside a quoted value, as nesl-js does.
// `decode`: false leaves `value` empty when `value_plain` (the caller slices the token).
Assignment parse_assignment(std::string_view line, bool strict_colon_equals = false,
                            bool decode = true);

} // namespace blockls::nesl
