// A map from short names to values kept as one sorted run, held inside the object up to
// `Inline` entries: a planned action has a handful of parameters, and the language server builds
// every action of the transcript again on each keystroke, so a map that allocates nothing (and
// frees nothing when the analysis goes) matters. The names are views: they must outlive the map
// (the plan's names are the catalog's). The subset of std::map's interface the plan uses; names
// compare as std::string does.
#pragma once

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <string_view>
#include <utility>

namespace blockls::apply {

template <class V, size_t Inline = 3> class SmallMap {
public:
  using value_type = std::pair<std::string_view, V>;
  using Storage = boost::container::small_vector<value_type, Inline>;
  using iterator = typename Storage::iterator;
  using const_iterator = typename Storage::const_iterator;

  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

  const_iterator find(std::string_view name) const {
    const auto it = lower(name);
    return it != items_.end() && it->first == name ? it : items_.end();
  }
  iterator find(std::string_view name) {
    const auto it = lower(name);
    return it != items_.end() && it->first == name ? it : items_.end();
  }
  // Like std::map::emplace: inserts unless the name is there; the element and whether it was
  // inserted.
  std::pair<iterator, bool> emplace(std::string_view name, V value) {
    const auto it = lower(name);
    if (it != items_.end() && it->first == name) return {it, false};
    return {items_.emplace(it, name, std::move(value)), true};
  }
  V& operator[](std::string_view name) { return emplace(name, V{}).first->second; }
  void clear() { items_.clear(); } // keeps the storage

private:
  const_iterator lower(std::string_view name) const {
    return std::lower_bound(
        items_.begin(), items_.end(), name,
        [](const value_type& item, std::string_view n) { return item.first < n; });
  }
  iterator lower(std::string_view name) {
    return std::lower_bound(
        items_.begin(), items_.end(), name,
        [](const value_type& item, std::string_view n) { return item.first < n; });
  }
  Storage items_; // sorted by name, names unique
};

} // namespace blockls::apply
