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
  // `*value`, which `owner` keeps alive (a member of it): values made together share one
  // allocation and one reference count, so copying or freeing all of them touches one
  // counter, not one per value (see bundle_shared_values in apply/simulate.cpp).
  template <class Owner>
  SharedValue(const std::shared_ptr<Owner>& owner, T* value) : value_(owner, value) {}

  const T& operator*() const { return value_ ? *value_ : empty(); }
  const T* operator->() const { return &**this; }

  // The value to change: this copy's own (cloned first if another copy shares it). Only the
  // owner of this copy calls it, so a use count of 1 means no other thread can see the value.
  // (A value that shares its owner's count with others is cloned too: the count is theirs.)
  T& edit() {
    if (!value_ || value_.use_count() > 1)
      value_ = value_ ? std::make_shared<T>(*value_) : std::make_shared<T>();
    return *value_;
  }

  bool shares_with(const SharedValue& other) const { return value_ == other.value_; }
  bool empty_value() const { return !value_; } // no value of its own: reads as an empty T

  // Asks the processor to load the cache line of the reference count, so that a copy of this
  // value made a little later does not wait for it (a walk that copies the values of many
  // blocks, whose counts lie scattered over the heap, would otherwise miss on each one). The
  // count of a value made by make_shared sits just before the value; nothing is read here.
  void prefetch_count() const {
    if (const T* p = value_.get()) __builtin_prefetch(reinterpret_cast<const char*>(p) - 16, 1);
  }

private:
  static const T& empty() {
    static const T none{};
    return none;
  }
  std::shared_ptr<T> value_; // changed only through edit()
};

} // namespace blockls::apply
