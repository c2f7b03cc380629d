// The list type of the model's commands and parameters: a std::pmr::vector that a parse can
// seal once the block is complete, so that destroying a parsed document does not read every
// command and parameter again.
//
// Why: a parsed document's commands and parameters live in its arena (see Arena), which frees
// them all at once. What remains of their destruction is a walk over every element to run
// std::string destructors that, for the short names and values of a transcript, free nothing:
// a walk over megabytes that have long left the cache (it was ~8% of check_document). A sealed
// list skips it. C++ allows ending an object's lifetime by releasing its storage without
// calling its destructor when nothing depends on the destructor's side effects ([basic.life]);
// seal_if() seals only when there are none (the buffer is the arena's, every element owns no
// heap memory), and any mutable access to a sealed list unseals it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <string>
#include <utility>
#include <vector>

namespace blockls {

// True when `s` keeps its characters inside the object (small-string optimisation), so that
// destroying it frees nothing. Tested on the address, without a branch (which string is short
// varies from parameter to parameter).
template <typename Alloc>
bool string_owns_no_heap(const std::basic_string<char, std::char_traits<char>, Alloc>& s) {
  const auto object = reinterpret_cast<uintptr_t>(&s);
  const auto chars = reinterpret_cast<uintptr_t>(s.data());
  return (chars >= object) & (chars < object + sizeof(s));
}

template <typename T> class ModelList {
public:
  using Vector = std::pmr::vector<T>;
  using value_type = T;
  using size_type = size_t;
  using iterator = typename Vector::iterator;
  using const_iterator = typename Vector::const_iterator;
  using reference = T&;
  using const_reference = const T&;
  using allocator_type = typename Vector::allocator_type;

  ModelList() noexcept { new (&v_) Vector(); }
  explicit ModelList(const allocator_type& alloc) noexcept { new (&v_) Vector(alloc); }
  // `count` default elements in `alloc` (built in a buffer of their size: no emplace_back()
  // into an empty list, which reallocates through the generic move of no elements).
  ModelList(size_t count, const allocator_type& alloc) { new (&v_) Vector(count, alloc); }
  // Copies use the default heap (as a pmr::vector's copy does) and are never sealed.
  ModelList(const ModelList& o) { new (&v_) Vector(o.v_); }
  ModelList(const ModelList& o, const allocator_type& alloc) { new (&v_) Vector(o.v_, alloc); }
  // A move takes the buffer, its allocator and the seal.
  ModelList(ModelList&& o) noexcept : sealed_(o.sealed_) {
    new (&v_) Vector(std::move(o.v_));
    o.sealed_ = false;
  }
  // Into another allocator the elements are moved one by one: a new buffer, not sealed.
  ModelList(ModelList&& o, const allocator_type& alloc) {
    const bool same = o.v_.get_allocator() == alloc;
    new (&v_) Vector(std::move(o.v_), alloc);
    if (same) sealed_ = o.sealed_;
    o.sealed_ = false;
  }
  ModelList& operator=(const ModelList& o) {
    sealed_ = false;
    v_ = o.v_;
    return *this;
  }
  ModelList& operator=(ModelList&& o) {
    sealed_ = false;
    v_ = std::move(o.v_);
    o.sealed_ = false;
    return *this;
  }
  ~ModelList() {
    if (!sealed_) v_.~Vector();
  }

  // Seals the list when its buffer comes from `arena` (a resource whose deallocate() does
  // nothing) and `droppable(element)` holds for every element: destroying the element would
  // free nothing. `droppable` may seal lists inside the element (it gets mutable access); it is
  // asked of every element, also after one has failed. Returns whether the list is sealed.
  template <typename Droppable>
  bool seal_if(const std::pmr::memory_resource* arena, Droppable&& droppable) {
    bool all = v_.get_allocator().resource() == arena;
    for (T& element : v_)
      all &= static_cast<bool>(droppable(element));
    sealed_ = all;
    return all;
  }
  bool sealed() const { return sealed_; }

  // The vector's interface. Mutable access unseals (the caller could change an element so
  // that its destructor has work to do).
  const Vector& vector() const { return v_; }
  allocator_type get_allocator() const { return v_.get_allocator(); }
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  const_iterator begin() const { return v_.begin(); }
  const_iterator end() const { return v_.end(); }
  const T& operator[](size_t i) const { return v_[i]; }
  const T& at(size_t i) const { return v_.at(i); }
  const T& front() const { return v_.front(); }
  const T& back() const { return v_.back(); }
  const T* data() const { return v_.data(); }

  Vector& mutable_vector() { return unsealed(); }
  iterator begin() { return unsealed().begin(); }
  iterator end() { return unsealed().end(); }
  T& operator[](size_t i) { return unsealed()[i]; }
  T& at(size_t i) { return unsealed().at(i); }
  T& front() { return unsealed().front(); }
  T& back() { return unsealed().back(); }
  T* data() { return unsealed().data(); }
  void reserve(size_t n) { unsealed().reserve(n); }
  void clear() { unsealed().clear(); }
  void push_back(const T& value) { unsealed().push_back(value); }
  void push_back(T&& value) { unsealed().push_back(std::move(value)); }
  template <typename... Args> T& emplace_back(Args&&... args) {
    return unsealed().emplace_back(std::forward<Args>(args)...);
  }

  bool operator==(const ModelList& o) const { return v_ == o.v_; }

private:
  Vector& unsealed() {
    sealed_ = false;
    return v_;
  }

  union {
    Vector v_; // constructed by each constructor; destroyed unless sealed
  };
  bool sealed_ = false;
};

} // namespace blockls
