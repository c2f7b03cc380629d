// file_replace_text_range: the text from old_text_beginning to the first old_text_end after
// it (both included) is replaced; each marker must occur exactly once where it is looked for.
#include "apply/actions/runners.h"
#include "apply/text_match.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_file_replace_text_range(ActionHost& host) {
  const std::string_view action = host.planned().action;
  const auto path = host.resolve_param_path("path");
  if (!path) return;
  const std::optional<FileState> file = host.writable_file("path", *path);
  if (!file) return;
  const FileState& before = *file;
  const std::string begin_text = host.value("old_text_beginning"),
                    end_text = host.value("old_text_end");
  for (const auto& [name, value] :
       {std::pair{"old_text_beginning", &begin_text}, std::pair{"old_text_end", &end_text}}) {
    if (!value->empty()) continue;
    const std::string msg = fmt::format("{}: {} cannot be empty", action, name);
    host.report("EMPTY_SEARCH", name, msg, "Give the exact text that starts / ends the range", msg);
    return;
  }
  const Occurrences start = find_occurrences(before.content, begin_text);
  if (start.offsets.empty()) {
    Diagnostic& d =
        host.diag("SEARCH_NOT_FOUND", "old_text_beginning",
                  fmt::format("old_text_beginning not found in {}", host.shown_path("path")),
                  "The marker must match the file exactly (line endings aside)");
    host.offer_closest(d, "old_text_beginning", before.content, begin_text);
    host.fail("SEARCH_NOT_FOUND", fmt::format("{}: old_text_beginning not found in file", action));
    return;
  }
  if (start.offsets.size() > 1) {
    const std::string lines =
        fmt::format("{}", fmt::join(line_numbers(before.content.str(), start.offsets), ", "));
    host.diag(
        "SEARCH_AMBIGUOUS", "old_text_beginning",
        fmt::format("old_text_beginning appears {} times, at lines {}; it must appear exactly once",
                    start.offsets.size(), lines),
        "Make the start marker longer so that it matches once");
    host.fail(
        "SEARCH_AMBIGUOUS",
        fmt::format("{}: old_text_beginning appears {} times, must appear exactly once (lines {})",
                    action, start.offsets.size(), lines));
    return;
  }
  const size_t after_start = start.offsets[0] + start.length;
  const Occurrences stop = find_occurrences(before.content, end_text, after_start);
  if (stop.offsets.empty()) {
    host.diag("SEARCH_NOT_FOUND", "old_text_end",
              fmt::format("old_text_end not found after old_text_beginning in {}",
                          host.shown_path("path")),
              "The end marker must follow the start marker in the file");
    host.fail("SEARCH_NOT_FOUND",
              fmt::format("{}: old_text_end not found after old_text_beginning", action));
    return;
  }
  if (stop.offsets.size() > 1) {
    const std::string lines =
        fmt::format("{}", fmt::join(line_numbers(before.content.str(), stop.offsets), ", "));
    host.diag("SEARCH_AMBIGUOUS", "old_text_end",
              fmt::format("old_text_end appears {} times after old_text_beginning, at lines {}; "
                          "it must appear exactly once",
                          stop.offsets.size(), lines),
              "Make the end marker longer so that it matches once");
    host.fail("SEARCH_AMBIGUOUS",
              fmt::format("{}: old_text_end appears {} times after old_text_beginning, must "
                          "appear exactly once (lines {})",
                          action, stop.offsets.size(), lines));
    return;
  }
  std::string new_text = host.value("new_text");
  if (start.crlf_converted || stop.crlf_converted || uses_crlf(before.content))
    new_text = to_crlf(new_text);
  host.write_file(*path, before,
                  before.content.splice(start.offsets[0], stop.offsets[0] + stop.length, new_text));
  host.set_data({{"path", host.shown_path("path")}, {"replacements", 1}});
}

} // namespace blockls::apply
