// The code table. Keep it in step with docs/codes/*.md (a test checks every code has a page
// section).
#include "diagnostics/codes.h"

namespace blockls {
namespace {

using S = Severity;
constexpr CodeInfo kCodes[] = {
    // TELT syntax (spec/telt.md)
    {"MALFORMED_START", S::block_fatal, "telt", "telt", "A TELT start line is close to `#!telt [3-char SHA: xyz]` but not exact."},
    {"BAD_HASH", S::block_fatal, "telt", "telt", "A TELT block hash is not exactly three letters or digits."},
    {"HASH_MISMATCH", S::block_fatal, "telt", "telt", "A delimiter carries another hash than its block."},
    {"INDENTED_DELIMITER", S::block_fatal, "telt", "telt", "A TELT delimiter with the block's hash is indented."},
    {"MALFORMED_DELIMITER", S::block_fatal, "telt", "telt", "A line with the block's hash is close to a delimiter but not exact."},
    {"UNCLOSED_BLOCK", S::block_fatal, "any", "telt", "A block is not closed by its end marker."},
    {"ORPHAN_PARAM", S::command_error, "telt", "telt", "A parameter delimiter appears before any command."},
    {"STRAY_END", S::syntax_info, "telt", "telt", "An `--END xyz--` line appears outside any block."},
    {"STRAY_TEXT", S::parameter_warning, "telt", "telt", "Text between the start line and the first command, or before a command's first parameter, is ignored."},
    // NESL syntax: the 14 codes of nesl-js (spec/nesl.md)
    {"MALFORMED_HEADER", S::block_fatal, "nesl", "nesl", "A NESL header line does not have the exact header form."},
    {"INVALID_BLOCK_ID", S::block_fatal, "nesl", "nesl", "A NESL block id is not 2-8 letters or digits."},
    {"MISMATCHED_END", S::block_fatal, "nesl", "nesl", "The end marker's id differs from the block id."},
    {"INVALID_KEY", S::block_fatal, "nesl", "nesl", "A key has a character that keys may not contain, leading whitespace, or is too long."},
    {"DUPLICATE_KEY", S::command_error, "nesl", "nesl", "A key is assigned twice in one block."},
    {"EMPTY_KEY", S::block_fatal, "nesl", "nesl", "An assignment has no key before `=`."},
    {"INVALID_ASSIGNMENT_OPERATOR", S::block_fatal, "nesl", "nesl", "`:=` is used where only `=` is allowed."},
    {"INVALID_VALUE", S::block_fatal, "nesl", "nesl", "A value is neither a JSON-quoted string nor a heredoc."},
    {"UNCLOSED_QUOTE", S::block_fatal, "nesl", "nesl", "A quoted value is not closed on its line."},
    {"TRAILING_CONTENT", S::command_error, "nesl", "nesl", "Text follows a quoted value on its line."},
    {"INVALID_HEREDOC_DELIMITER", S::block_fatal, "nesl", "nesl", "A heredoc delimiter is not `EOT_<block id>`."},
    {"UNCLOSED_HEREDOC", S::block_fatal, "nesl", "nesl", "A heredoc is not closed before the end of input."},
    {"MALFORMED_ASSIGNMENT", S::block_fatal, "nesl", "nesl", "A line inside a NESL block is not an assignment, an empty line or the end marker."},
    // NESL: beyond nesl-js
    {"SUSPICIOUS_END", S::parameter_warning, "nesl", "nesl", "A line looks like the end marker but is not exact, so it does not close the block."},
    {"GLUED_DELIMITER", S::syntax_info, "nesl", "nesl", "A heredoc delimiter is glued to content or followed by a quote."},
    {"DUPLICATE_BLOCK_ID", S::parameter_warning, "nesl", "nesl", "Two blocks share one id."},
    {"LEGACY_ERA", S::syntax_info, "nesl", "nesl", "The block uses the older SHAM or upper-case NESL syntax."},
    {"NONSTANDARD_BLOCK_ID", S::syntax_info, "nesl", "nesl", "A block id is accepted but is not the documented 3 characters."},
    {"NONSTANDARD_HEADER_LABEL", S::syntax_info, "nesl", "nesl", "A header label is accepted but is not the documented `@three-char-SHA-256`."},
    // Validation against the action catalog (spec/actions.md)
    {"UNKNOWN_COMMAND", S::command_error, "telt", "validation", "A TELT command is not in the action catalog."},
    {"MISSING_ACTION", S::command_error, "nesl", "validation", "A NESL block has no `action`."},
    {"UNKNOWN_ACTION", S::command_error, "nesl", "validation", "A NESL `action` is not in the action catalog."},
    {"MISSING_PARAM", S::command_error, "any", "validation", "A required parameter of the action is missing."},
    {"UNKNOWN_PARAM", S::parameter_warning, "any", "validation", "A parameter is not defined by the action; it is ignored."},
    {"DUPLICATE_PARAM", S::command_error, "telt", "validation", "A single-valued TELT parameter is given more than once."},
    {"INVALID_PARAM_TYPE", S::command_error, "any", "validation", "A parameter value is not of the action's type (integer, boolean, enumeration)."},
    // Workspace checks and applying (spec/actions.md; apply/): only with a root (check --root, apply, LSP)
    {"INVALID_PATH", S::block_fatal, "any", "workspace", "A path contains a control character or invalid UTF-8, or is longer than the system allows; it is refused, never rewritten."},
    {"PATH_OUTSIDE_ROOT", S::block_fatal, "any", "workspace", "A path resolves (after `..` and symbolic links) outside every allowed root."},
    {"PATH_DENIED", S::block_fatal, "any", "workspace", "A path matches a deny pattern (.git, .ssh, node_modules, .blockls, ...) or is the root itself."},
    {"EMPTY_PATH", S::command_error, "any", "workspace", "A path parameter is empty (or read_files lists no path)."},
    {"FILE_NOT_FOUND", S::command_error, "any", "workspace", "The file to read, change, move or delete does not exist, nor does an earlier action create it."},
    {"NOT_A_FILE", S::command_error, "any", "workspace", "A file action names a directory, or a directory action names a file."},
    {"EMPTY_SEARCH", S::command_error, "any", "workspace", "The old text (or a range marker) to search for is empty."},
    {"SEARCH_NOT_FOUND", S::command_error, "any", "workspace", "The old text does not occur in the file."},
    {"SEARCH_AMBIGUOUS", S::command_error, "any", "workspace", "The old text occurs more than once in the file."},
    {"COUNT_MISMATCH", S::command_error, "any", "workspace", "file_replace_all_text: the old text occurs another number of times than `count` says."},
    {"INVALID_LINE_RANGE", S::command_error, "any", "workspace", "A line-number action's `lines` is not \"N\" or \"A-B\" with 1 <= A <= B."},
    {"LINE_OUT_OF_RANGE", S::command_error, "any", "workspace", "A line-number action names lines past the end of the file."},
    {"MOVE_OVERWRITES", S::parameter_warning, "any", "workspace", "A move's destination exists and will be overwritten."},
    {"EXEC_DISABLED", S::parameter_warning, "any", "workspace", "exec is not allowed here; the block will not run."},
    {"FILE_CHANGED", S::command_error, "any", "workspace", "A file changed between the check and the apply; the block was not run."},
    {"EXEC_FAILED", S::command_error, "any", "workspace", "exec could not start, timed out or exited with a non-zero code; the block was rolled back."},
    {"IO_ERROR", S::command_error, "any", "workspace", "Reading or writing a file failed while applying; the block was rolled back."},
    // Document level
    {"INVALID_UTF8", S::parameter_warning, "any", "validation", "The document is not valid UTF-8; invalid bytes are read as U+FFFD."},
};

} // namespace

std::span<const CodeInfo> all_codes() { return kCodes; }

const CodeInfo* find_code(std::string_view name) {
  for (const CodeInfo& c : kCodes)
    if (c.name == name) return &c;
  return nullptr;
}

} // namespace blockls
