// What every dialect provides, like tree-sitter's TSLanguage: a description (name, aliases,
// the bytes that can start its start line, its catalog rules, its docs page) and a grammar
// type that the line router drives. The router never names a dialect: it only asks these
// functions, through the list in grammar/dialects.h (static dispatch, no virtual calls).
// grammar/README.md explains how the router asks a dialect about a line.
#pragma once

#include "grammar/markdown_fence.h"
#include "grammar/model.h"
#include "grammar/parse_context.h"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

// What the end of a start line must be, besides its prefix (see StartPrefix::tail).
enum class LineTail : uint8_t {
  any,
  // The heredoc operator and its marker (`<< 'EOF'`): see shell::may_end_with_operator().
  heredoc_operator,
};

// A start line begins with `first` (then `second`, unless it is '\0'). The router's prose
// filter is built from the union of every dialect's prefixes: a line outside blocks that
// begins with none of them is prose for every dialect and skips the general routing.
struct StartPrefix {
  char first;
  char second = '\0';
  bool may_be_indented = false; // the prefix may follow blanks (else only at column 0)
  // A prefix that nearly every line begins with (any letter) is only one with this tail: the
  // filter looks at the line's end before it leaves the fast path.
  LineTail tail = LineTail::any;
};

// How a dialect spells the catalog's names (diagnostics/action_catalog.json).
enum class CatalogNames : uint8_t {
  upper, // `telt_names` of actions and parameters (`CREATE_FILE`, `PATH`); repeats stay separate
  lower, // `nesl_names` (`file_write`, `path`); one value per key, the action in a parameter
};

struct CatalogRules {
  CatalogNames names = CatalogNames::lower;
  // The parameter that names the command (NESL's `action`); empty when the command's own
  // name does (TELT's `=== NAME ===`).
  std::string_view action_param;
  // A parameter may be given more than once (TELT repeats; a repeat of a single-valued one
  // is DUPLICATE_PARAM); otherwise the grammar itself rejects repeated keys.
  bool repeated_params = false;
  // Type checks read the value without surrounding whitespace (TELT value lines).
  bool trim_values = false;
  // What the messages call a command ("Unknown parameter 'x' for command 'Y'").
  std::string_view command_word = "action";
  // The hint of MISSING_PARAM: how to write the parameter, the name between the two parts
  // ("Add a --" NAME " <hash>-- delimiter followed by its value").
  std::string_view add_param_before, add_param_after;
  // MISSING_ACTION's message and hint, when `action_param` names the command.
  std::string_view missing_action_message, missing_action_hint;
  // A command the catalog does not know is parsed but not diagnosed (command input: any
  // program may take it).
  bool unknown_commands_quiet = false;
  // Its blocks are checked and shown, never run (`apply` skips them and says so).
  bool never_run = false;
  // The key of a parameter in JSON output and hovers; null: the name as written.
  std::string (*output_key)(std::string_view name) = nullptr;
};

struct DialectInfo {
  Dialect id;
  std::string_view name;                     // in every outward format (`metadata.dialect`, ...)
  std::span<const std::string_view> aliases; // also accepted by `--dialects` and the LSP
  std::string_view title;                    // for people: "TELT", "SHAM / NESL"
  std::span<const StartPrefix> starts;
  // A start line may also follow any whitespace a line can begin with (blanks, control
  // characters, and non-ASCII spaces, whose first byte is >= 0x80).
  bool starts_after_whitespace = false;
  std::string_view docs_page; // docs/codes/<page>.md, the page of its syntax codes
  CatalogRules catalog;
  // The extensions of files that hold only this dialect (the editors attach to them).
  std::span<const std::string_view> file_extensions;
  // One complete, valid block (a file write) that checks without any diagnostic: the example
  // of the format instructions, and the sample of the registry tests.
  std::string_view example;
  // The format instructions a prompt author pastes into a system prompt (the exact syntax and
  // the rules a model must follow); `blockls instructions` prints them, then the example.
  std::string_view instructions;
  // A start may also follow other text on its line when the line's last byte before trailing
  // blanks is this one (xml: `We need the file.<read_file>`); '\0': starts begin lines only.
  // The router's prose filter then sends every line that ends so to the general route.
  char mid_line_end = '\0';
  // The block's id is its closing marker (a heredoc's `EOF`), which nearly every block shares:
  // messages and outlines name such a block by its line or number, not by the id.
  bool id_is_marker = false;
};

// How the editors speak of the commands of a dialect whose every command edits one file (Aider,
// replacer, Codex): the outline lists them by file and the code lens names the file. A grammar
// opts in with `static constexpr FileEditWords file_edit_words{...};`.
struct FileEditWords {
  std::string_view edit;      // "▶ Apply edit to PATH"
  std::string_view not_found; // SEARCH_NOT_FOUND in the lens: "✗ SEARCH not found in PATH"
  // What the messages of a workspace check call the text an edit searches for ("The SEARCH
  // text was not found in PATH"); other dialects say "old_text", the catalog's name.
  std::string_view search = "old_text";
};

// The Markdown fence around the open block, for the fast paths: a line that may close it
// must take the general route (which records where the fence closed).
struct FenceWatch {
  const MarkdownFence* fence = nullptr;
  bool watching = false; // the open block's fence is open and its closer not yet seen
  [[gnu::always_inline]] bool closes(std::string_view line) const {
    return watching && fence->closes(line);
  }
};

// The result of a dialect's fast_line().
enum class FastLine : uint8_t {
  not_taken, // nothing done: the router routes the line by the full rules
  taken,     // the line is handled; the block is still open
  closed,    // the line is handled and closed the block
};

// Defaults a grammar type inherits instead of writing them out (each is part of the
// DialectGrammar concept below).
// No fast path: every line of an open block takes the general route.
struct NoFastPath {
  bool enter_fast_mode(ParsedDocument&) { return false; }
  template <typename Cursor> bool take_run(std::string_view, Cursor&, const FenceWatch&) {
    return true;
  }
  FastLine fast_line(std::string_view, const LineRef&, ParseContext&, const FenceWatch&) {
    return FastLine::not_taken;
  }
};

// The fast path of a grammar whose parser takes runs of content lines (heredoc bodies, edit
// texts, patch bodies, sections) and has no fast_line(). CRTP: `Grammar` derives from
// ParserRuns<Grammar> and returns its parser from run_parser(); the parser provides
//   ByteRange* run_range(ParsedDocument&): the open block's range while a run may start there
//     (null otherwise: the next line takes the general route);
//   bool take_run_lines(Cursor&, std::string_view text, ByteRange& block_range, FenceCloses):
//     takes lines from the cursor's current one on, each with exactly on_line()'s effect, never
//     a line where `FenceCloses(begin, end)` (the Markdown fence around the block may close
//     there: the general route records it); false when the cursor ran out of lines.
template <typename Grammar> class ParserRuns {
public:
  bool enter_fast_mode(ParsedDocument& doc) {
    block_range_ = grammar().run_parser().run_range(doc);
    return block_range_ != nullptr;
  }
  template <typename Cursor>
  bool take_run(std::string_view text, Cursor& lines, const FenceWatch& fences) {
    return grammar().run_parser().take_run_lines(
        lines, text, *block_range_, [&](size_t b, size_t e) {
          return fences.closes(std::string_view(text.data() + b, e - b));
        });
  }
  FastLine fast_line(std::string_view, const LineRef&, ParseContext&, const FenceWatch&) {
    return FastLine::not_taken;
  }

private:
  Grammar& grammar() { return static_cast<Grammar&>(*this); }
  ByteRange* block_range_ = nullptr;
};

// Nothing carries from one block to the next: no state at resume points, and a re-parsed
// window never changes how later blocks parse.
struct NothingCarried {
  uint32_t snapshot() const { return 0; }
  void restore(uint32_t, std::string_view, const std::vector<Block>&, size_t) {}
  static bool same_carried_state(std::string_view, const std::vector<Block>&, size_t, size_t,
                                 std::string_view, const std::vector<Block>&, size_t, size_t,
                                 bool) {
    return true;
  }
};

// The grammar type of a dialect: one instance per parse, fed complete lines by the router.
// Everything is called only for lines, never for partial ones; between calls the grammar keeps
// byte offsets only, so the text may grow (streaming) without invalidating anything.
template <typename D>
concept DialectGrammar = requires(D d, const D cd, const LineRef& line, ParseContext& ctx,
                                  const std::vector<Block>& blocks, std::string_view text,
                                  ParsedDocument& doc, const FenceWatch& fences) {
  { D::info } -> std::convertible_to<const DialectInfo&>;
  // Outside every block: the line is this dialect's (a start line, or a near miss it
  // reports); false leaves it to the next dialect and then to prose.
  { d.try_start(line, ctx) } -> std::same_as<bool>;
  { cd.in_block() } -> std::same_as<bool>;
  // A line while this dialect's block is open.
  d.on_line(line, ctx);
  // A line outside every block that no dialect's start prefix begins (prose for all).
  d.on_prose_line(line, ctx);
  // on_prose_line() when quiet_outside(): only the line's position is given.
  d.note_prose_line(size_t{});
  { cd.quiet_outside() } -> std::same_as<bool>;
  // This dialect's start line interrupts another dialect's open block that can_yield().
  { D::interrupts(text) } -> std::same_as<bool>;
  { cd.can_yield() } -> std::same_as<bool>;
  d.yield_to_foreign_start(line, ctx);
  // Outside blocks, something still waits for a later line (no resume point here).
  { cd.pending() } -> std::same_as<bool>;
  d.finish(ctx, uint32_t{});
  // Cross-block state at a resume point, and back (see ResumePoint::dialect_state); `text`
  // is the text the earlier blocks index (their values may be source slices).
  { cd.snapshot() } -> std::same_as<uint32_t>;
  d.restore(uint32_t{}, text, blocks, size_t{});
  // True when the blocks of a re-parsed window leave this dialect's later parse as the old
  // window's blocks did (`lines`: start lines matter too); the old blocks index the old text,
  // the new ones the new text. See grammar/router/incremental_parse.
  {
    D::same_carried_state(text, blocks, size_t{}, size_t{}, text, blocks, size_t{}, size_t{},
                          bool{})
    } -> std::same_as<bool>;
  d.expect_text_bytes(size_t{});
  // The fast path: after each general line, whether the open block is in a state its
  // take_run() / fast_line() handle (and where its ranges are: stable until the next
  // general line).
  { d.enter_fast_mode(doc) } -> std::same_as<bool>;
  { d.fast_line(text, line, ctx, fences) } -> std::same_as<FastLine>;
  // How a fix writes `value` into the source of parameter `p` of `block` so that the parser
  // reads `value` back; nullopt when no safe encoding exists.
  {
    D::encode_value(text, blocks.front(), blocks.front().commands.front().params.front(), text)
    } -> std::same_as<std::optional<std::string>>;
};

} // namespace blockls
