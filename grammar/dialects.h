// The one list of registered dialects. A dialect is its folder under grammar/ (a grammar type
// that models DialectGrammar, see grammar/dialect.h) plus its entry here and its id in
// `enum class Dialect` (grammar/model.h); the static_asserts below keep the two in step.
// Everything else (the router, `--dialects`, the LSP setting, `blockls codes`, the JSON and
// SARIF writers, the docs index, the editors' language lists) reads this list.
#pragma once

#include "grammar/dialect.h"
#include "grammar/editblock/editblock_dialect.h"
#include "grammar/heredoc/heredoc_dialect.h"
#include "grammar/nesl/nesl_dialect.h"
#include "grammar/patch/patch_dialect.h"
#include "grammar/replacer/replacer_dialect.h"
#include "grammar/sections/sections_dialect.h"
#include "grammar/telt/telt_dialect.h"
#include "grammar/xml/xml_dialect.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

namespace blockls {

// The grammars in registration order: the order in which the router offers a line outside
// blocks (the first that claims it opens the block).
using DialectGrammars = std::tuple<TeltDialect, NeslDialect, HeredocDialect, EditBlockDialect,
                                   ReplacerDialect, SectionsDialect, PatchDialect, XmlDialect>;

namespace detail {
template <size_t... I> constexpr bool ids_in_order(std::index_sequence<I...>) {
  return ((std::tuple_element_t<I, DialectGrammars>::info.id == static_cast<Dialect>(I)) && ...);
}
template <size_t... I> constexpr bool all_grammars(std::index_sequence<I...>) {
  return (DialectGrammar<std::tuple_element_t<I, DialectGrammars>> && ...);
}
template <size_t... I>
constexpr std::array<const DialectInfo*, sizeof...(I)> infos(std::index_sequence<I...>) {
  return {&std::tuple_element_t<I, DialectGrammars>::info...};
}
} // namespace detail

static_assert(std::tuple_size_v<DialectGrammars> == kDialectCount,
              "every Dialect id has a grammar in DialectGrammars, and only those");
static_assert(detail::ids_in_order(std::make_index_sequence<kDialectCount>()),
              "DialectGrammars lists the grammars in the order of enum class Dialect");
static_assert(detail::all_grammars(std::make_index_sequence<kDialectCount>()),
              "every registered grammar models DialectGrammar (grammar/dialect.h)");

// The descriptions of every registered dialect, in registration order.
inline constexpr std::array<const DialectInfo*, kDialectCount> kDialectInfos =
    detail::infos(std::make_index_sequence<kDialectCount>());

// The description of a registered dialect (`dialect` must not be Dialect::none).
constexpr const DialectInfo& dialect_info(Dialect dialect) {
  return *kDialectInfos[static_cast<size_t>(dialect)];
}

// Calls `f(grammar)` for each grammar of `grammars`, in registration order.
template <typename F> constexpr void for_each_grammar(DialectGrammars& grammars, F&& f) {
  std::apply([&](auto&... g) { (f(g), ...); }, grammars);
}
template <typename F> constexpr void for_each_grammar(const DialectGrammars& grammars, F&& f) {
  std::apply([&](const auto&... g) { (f(g), ...); }, grammars);
}

// Calls `f.template operator()<Grammar>()` for each grammar type, in registration order (for
// the grammars' static functions).
template <typename F> constexpr void for_each_grammar_type(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<std::tuple_element_t<I, DialectGrammars>>(), ...);
  }
  (std::make_index_sequence<kDialectCount>());
}

// Calls `f(grammar)` with the grammar of `dialect` (a switch over the registered ids).
template <typename F>
decltype(auto) with_grammar(DialectGrammars& grammars, Dialect dialect, F&& f) {
  return [&]<size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    using R = decltype(f(std::get<0>(grammars)));
    if constexpr (std::is_void_v<R>) {
      (void)((static_cast<Dialect>(I) == dialect ? (f(std::get<I>(grammars)), true) : false) ||
             ...);
    } else {
      R r{};
      (void)((static_cast<Dialect>(I) == dialect ? (r = f(std::get<I>(grammars)), true) : false) ||
             ...);
      return r;
    }
  }
  (std::make_index_sequence<kDialectCount>());
}

// Calls `f.template operator()<Grammar>()` for the grammar type of `dialect` (for the
// grammars' static functions: value encoding, carried state).
template <typename F> decltype(auto) with_grammar_type(Dialect dialect, F&& f) {
  return [&]<size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    using R = decltype(f.template operator()<std::tuple_element_t<0, DialectGrammars>>());
    R r{};
    // (void): the fold only picks the one grammar; its value is not needed (clang warns).
    (void)((static_cast<Dialect>(I) == dialect
                ? (r = f.template operator()<std::tuple_element_t<I, DialectGrammars>>(), true)
                : false) ||
           ...);
    return r;
  }
  (std::make_index_sequence<kDialectCount>());
}

// Whether an edit of `dialect` whose SEARCH text misses the file may still match after Aider's
// whitespace repairs (apply/search_repair.h). A grammar opts in with
// `static constexpr bool repairs_search = true;` — the formats whose own tool repairs.
bool repairs_search(Dialect dialect);

// How the editors speak of the commands of `dialect` (FileEditWords, grammar/dialect.h);
// nullopt when its commands are not one-file edits.
std::optional<FileEditWords> file_edit_words(Dialect dialect);

// How a fix writes `value` as the value of parameter `p` of `block` in `text` (the block's
// dialect decides: see DialectGrammar::encode_value); nullopt when no safe encoding exists.
std::optional<std::string> encode_value(std::string_view text, const Block& block,
                                        const Parameter& p, std::string_view value);

} // namespace blockls
