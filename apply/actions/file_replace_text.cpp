// file_replace_text and file_replace_all_text: old_text must occur once (the first) or, for
// the second, any number of times but `count` when it is given. Line endings aside: an edit
// written with "\n" finds a CRLF file's text and is written back with "\r\n". An old text not
// found may still be one of Aider's repairs (re-indented), or an overlap with an earlier edit.
#include "apply/actions/runners.h"
#include "apply/search_repair.h"
#include "apply/text_match.h"
#include "grammar/dialects.h"
#include "grammar/line_breaks.h"

#include <fmt/format.h>

namespace blockls::apply {
namespace {

// Aider's repairs (apply/search_repair.h): the edit applies to the one region its SEARCH text
// matches re-indented or without a leading blank line, with a warning whose fix writes the
// exact text (and the REPLACE text indented alike) into the transcript.
bool apply_repaired(ActionHost& host, const std::string& path, const FileState& before,
                    const std::string& old_text) {
  const std::string new_text = host.value("new_text");
  std::optional<RepairedSearch> r = repair_search(before.content.str(), old_text, new_text);
  if (!r) return false;
  Diagnostic& d = host.diag("SEARCH_NOT_EXACT", "old_text",
                            fmt::format("old_text matches lines {}-{} of {} only {}", r->first_line,
                                        r->last_line, host.shown_path("path"), r->how),
                            "Write the file's exact text in the edit");
  std::vector<TextEdit> edits;
  if (std::optional<TextEdit> e = host.encoded_edit("old_text", r->old_text)) edits.push_back(*e);
  if (!edits.empty() && r->new_text != new_text) {
    // Both texts or neither: a SEARCH fixed without its REPLACE would change the indentation.
    if (std::optional<TextEdit> e = host.encoded_edit("new_text", r->new_text))
      edits.push_back(*e);
    else
      edits.clear();
  }
  if (!edits.empty())
    d.fixes.push_back(
        {fmt::format("Use the exact text of lines {}-{}", r->first_line, r->last_line), true,
         std::move(edits)});
  const std::string replacement = uses_crlf(before.content) ? to_crlf(r->new_text) : r->new_text;
  host.write_file(path, before, before.content.splice(r->begin, r->end, replacement));
  host.set_data({{"path", host.shown_path("path")}, {"replacements", 1}});
  return true;
}

// Aider matches an edit against the file with a final line break added when it has none (its
// `prep`), so a SEARCH of the last line ("beta\n") matches a file ending "beta" without one, and
// the file is written with the break. The same here for the dialects that take Aider's repairs:
// a model cannot write a SEARCH without its final newline in that format, and refusing the edit
// was a false error on what Aider applies. True when it matched (once) and was written.
bool apply_with_final_break(ActionHost& host, const std::string& path, const FileState& before,
                            const std::string& old_text) {
  const std::string& content = before.content.str();
  if (content.empty() || content.back() == '\n' || !old_text.ends_with('\n')) return false;
  const bool crlf = uses_crlf(before.content);
  const FileContent completed(content + (crlf ? "\r\n" : "\n"));
  const Occurrences occ = find_occurrences(completed.str(), old_text);
  // Only where the added break is used: an occurrence before it was found already.
  if (occ.offsets.size() != 1 || occ.offsets[0] + occ.length != completed.size()) return false;
  std::string new_text = host.value("new_text");
  if (occ.crlf_converted || crlf) new_text = to_crlf(new_text);
  host.write_file(path, before, completed.splice(occ.offsets[0], completed.size(), new_text));
  host.set_data({{"path", host.shown_path("path")}, {"replacements", 1}});
  return true;
}

// An old text that is in the file as the plan found it, but not after the earlier actions of
// this transcript: one of them changed those lines first. Said plainly instead of a puzzling
// SEARCH_NOT_FOUND for a text the reviewer can see in the file.
bool report_overlap(ActionHost& host, const std::string& path, const FileState& before,
                    const std::string& old_text) {
  const SimulationInput& in = host.input();
  if (!in.original) return false;
  const FileState disk = in.original->read(path);
  if (disk.kind != FileState::Kind::file) return false;
  const Occurrences occ = find_occurrences(disk.content, old_text);
  if (occ.offsets.empty()) return false;
  const PlannedAction* earlier = nullptr;
  for (const PlannedAction& other : in.plan->actions) {
    if (other.seq >= host.planned().seq) break;
    const std::string_view* p = other.param("path");
    if (!p) continue;
    const ResolvedPath r = resolve_path(*in.config, *p);
    if (r.verdict == PathVerdict::ok && r.absolute == path) earlier = &other;
  }
  if (!earlier) return false;
  const uint32_t disk_line = line_numbers(disk.content.str(), occ.offsets).front();
  const uint32_t earlier_line = earlier->line + 1;
  const std::string msg =
      fmt::format("old_text is in {} on disk (line {}), but the edit at line {} of this "
                  "transcript changes it first: the two edits overlap",
                  host.shown_path("path"), disk_line, earlier_line);
  Diagnostic& d = host.diag("EDIT_OVERLAP", "old_text", msg,
                            "Merge the two edits, or write this edit's old text as the file reads "
                            "after the earlier edit");
  host.offer_closest(d, "old_text", before.content, old_text);
  host.fail("EDIT_OVERLAP", fmt::format("{}: {}", host.planned().action, msg));
  return true;
}

// The fix of a COUNT_MISMATCH: `count` rewritten as the number found, where the transcript
// holds the number itself (TELT value lines) or a quoted string of it.
void offer_count_fix(ActionHost& host, size_t found) {
  const PlannedAction& a = host.planned();
  const std::string_view text = host.input().text;
  const auto src = a.params.find("count");
  if (src != a.params.end() && src->second.param && src->second.param->value_is_slice &&
      trim_path(slice(text, src->second.value_range())) == trim_path(*a.param("count"))) {
    // TELT: the value lines are the number itself.
    host.add_fix({fmt::format("Set count to {}", found),
                  true,
                  {{without_break_cr(text, src->second.value_range()), std::to_string(found)}}});
  } else if (src != a.params.end() && src->second.param) {
    const std::string_view token = slice(text, src->second.value_range());
    if (token.size() >= 2 && token.front() == '"')
      host.add_fix({fmt::format("Set count to {}", found),
                    true,
                    {{src->second.value_range(), fmt::format("\"{}\"", found)}}});
  }
}

// Both actions: `all` replaces every occurrence (file_replace_all_text).
void replace(ActionHost& host, bool all) {
  const PlannedAction& a = host.planned();
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const std::optional<FileState> file = host.writable_file("path", *path);
  if (!file) return;
  const FileState& before = *file;
  const std::string old_text = host.value("old_text");
  if (old_text.empty()) {
    const std::string msg = fmt::format("{}: old_text cannot be empty", a.action);
    host.report("EMPTY_SEARCH", "old_text", msg, "Give the exact text to replace", msg);
    return;
  }
  const Occurrences occ = find_occurrences(before.content, old_text);
  const size_t found = occ.offsets.size();
  std::optional<long long> count;
  if (const std::string_view* c = a.param("count")) count = std::stoll(std::string(trim_path(*c)));
  if (all && count && static_cast<long long>(found) != *count) {
    const std::string msg =
        fmt::format("{}: expected {} occurrences but found {}", a.action, *count, found);
    std::string lines;
    if (found > 0)
      lines = fmt::format(" (at lines {})",
                          fmt::join(line_numbers(before.content.str(), occ.offsets), ", "));
    host.diag("COUNT_MISMATCH", "count", msg + lines,
              found > 0 ? fmt::format("Set count to {}", found)
                        : "old_text does not occur in the file");
    if (found > 0) offer_count_fix(host, found);
    host.fail("COUNT_MISMATCH", msg);
    return;
  }
  if (found == 0 && !all) {
    if (repairs_search(a.dialect) && (apply_with_final_break(host, *path, before, old_text) ||
                                      apply_repaired(host, *path, before, old_text)))
      return;
    if (report_overlap(host, *path, before, old_text)) return;
    const std::string msg = fmt::format("{}: old_text not found in file", a.action);
    Diagnostic& d =
        host.diag("SEARCH_NOT_FOUND", "old_text",
                  fmt::format("{} not found in {}", host.search_word(), host.shown_path("path")),
                  "The old text must match the file exactly (line endings aside)");
    host.offer_closest(d, "old_text", before.content, old_text);
    // Aider's most useful hint: an edit that was already applied (or pasted twice).
    const std::string new_text = host.value("new_text");
    if (!new_text.empty() && !find_occurrences(before.content, new_text).offsets.empty())
      host.diag("REPLACE_ALREADY_PRESENT", "new_text",
                fmt::format("The new text is already in {}: the edit may have been applied "
                            "already",
                            host.shown_path("path")),
                "Remove the edit if it is done, or make the old text match the file");
    host.fail("SEARCH_NOT_FOUND", msg);
    return;
  }
  if (found > 1 && !all) {
    const std::string lines =
        fmt::format("{}", fmt::join(line_numbers(before.content.str(), occ.offsets), ", "));
    host.diag("SEARCH_AMBIGUOUS", "old_text",
              fmt::format("{} appears {} times in {}, at lines {}; it must appear exactly once",
                          host.search_word(), found, host.shown_path("path"), lines),
              "Add surrounding lines to the old text so that it matches once, or use "
              "file_replace_all_text");
    host.fail("SEARCH_AMBIGUOUS",
              fmt::format("{}: old_text appears {} times, must appear exactly once (lines {})",
                          a.action, found, lines));
    return;
  }
  std::string new_text = host.value("new_text");
  if (occ.crlf_converted || uses_crlf(before.content)) new_text = to_crlf(new_text);
  if (found == 1) {
    const size_t off = occ.offsets[0];
    host.write_file(*path, before, before.content.splice(off, off + occ.length, new_text));
  } else if (found > 1) { // replace_all: one pass over the text
    const std::string& content = before.content.str();
    std::string after;
    size_t pos = 0;
    for (size_t off : occ.offsets) {
      after.append(content, pos, off - pos);
      after += new_text;
      pos = off + occ.length;
    }
    after.append(content, pos, std::string::npos);
    host.write_file(*path, before, FileContent(after));
  }
  host.set_data({{"path", host.shown_path("path")}, {"replacements", found}});
}

} // namespace

void run_file_replace_text(ActionHost& host) {
  replace(host, false);
}

void run_file_replace_all_text(ActionHost& host) {
  replace(host, true);
}

} // namespace blockls::apply
