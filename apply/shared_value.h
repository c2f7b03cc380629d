// A value that copies share until one of them is changed (copy on write). The language server
// keeps the simulation results of unchanged blocks from one keystroke's analysis to the next:
// sharing their observations, changes and effects makes taking a block over (and freeing the
// analysis it came from) cost reference counts instead of deep copies of maps and strings.
#pragma once

#include <memory>
#include <utility>

namespace blockls::apply {

template <class T> class SharedValue {
public:
  SharedValue() = default; // an empty T, allocated on the first edit()
  SharedValue(T value) : value_(std::make_shared<T>(std::move(value))) {}

  const T& operator*() const { return value_ ? *value_ : empty(); }
  const T* operator->() const { return &**this; }

  // The value to change: this copy's own (cloned first if another copy shares it). Only the
  // owner of this copy calls it, so a use count of 1 means no other thread can see the value.
  T& edit() {
    if (!value_ || value_.use_count() > 1)
      value_ = value_ ? std::make_shared<T>(*value_) : std::make_shared<T>();
    return *value_;
  }

  bool shares_with(const SharedValue& other) const { return value_ == other.value_; }

private:
  static const T& empty() {
    static const T none{};
    return none;
  }
  std::shared_ptr<T> value_; // changed only through edit()
};

} // namespace blockls::apply
