// "Did you mean" support: edit distance with adjacent transpositions (CRAETE -> CREATE is 1),
// compared case-insensitively, so LLM typos and casing slips find the intended name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace blockls {

// Optimal-string-alignment distance, ASCII case folded.
size_t edit_distance(std::string_view a, std::string_view b);

// Candidates within `max_distance` of `word`, closest first (ties keep candidate order);
// `word` itself (exact match) is never returned.
std::vector<std::string> close_names(std::string_view word, const std::vector<std::string>& candidates,
                                     size_t max_distance = 2);

} // namespace blockls
