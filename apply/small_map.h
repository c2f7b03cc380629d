// A map from short names to values kept as one sorted vector: a planned action has a handful
// of parameters, and the language server builds every action of the transcript again on each
// keystroke, so two allocations per action (one per map) instead of one node per parameter
// matter. The subset of std::map's interface the plan uses; names compare as std::string does.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockls::apply {

template <class V> class SmallMap {
public:
  using value_type = std::pair<std::string, V>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

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
    return {items_.emplace(it, std::string(name), std::move(value)), true};
  }
  V& operator[](std::string_view name) { return emplace(name, V{}).first->second; }

  bool operator==(const SmallMap&) const = default;

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
  std::vector<value_type> items_; // sorted by name, names unique
};

} // namespace blockls::apply
