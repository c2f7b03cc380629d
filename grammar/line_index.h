// The one place where byte offsets become lines and columns. Lines end at "\n"; a "\r"
// just before it belongs to the line break ("\r\n"), a lone "\r" is ordinary text. A text
// of N newlines has N + 1 lines (the last one possibly empty), as nesl-js counts them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

namespace blockls {

class LineIndex {
public:
  LineIndex() : starts_{0} {}
  explicit LineIndex(std::string_view text) : starts_{0} { append(text, 0); }

  // Extends the index with `chunk`, which starts at byte `base` of the whole text. When
  // `first_non_ascii` is not null, lowers it to the offset of the chunk's first byte >= 0x80
  // (if any): the document parsers learn it on the way (see ascii_prefix()).
  void append(std::string_view chunk, size_t base, size_t* first_non_ascii = nullptr);
  // Extends the index with the starts of lines [first, end) of `other`, an index of a text
  // equal to this one's up to the start of line `first` (this index then ends with line
  // first - 1): the same as appending the bytes between, without reading them again.
  void append_lines(const LineIndex& other, uint32_t first, uint32_t end);
  // Room for `lines` line starts in all.
  void reserve(size_t lines) {
    if (wide())
      wide_.reserve(lines);
    else
      starts_.reserve(lines);
  }

  // Line starts are kept as 32-bit offsets (half the memory to write and read back), until a
  // start would not fit: the index then holds them as 64-bit offsets from there on. widen()
  // makes that switch at once (tests use it to run the wide path on small texts).
  bool wide() const { return !wide_.empty(); }
  void widen();
  // The start of every line, in order (valid until the index changes): narrow_starts() while
  // the index is not wide(), wide_starts() once it is.
  const uint32_t* narrow_starts() const { return starts_.data(); }
  const size_t* wide_starts() const { return wide_.data(); }

  // Every byte of the indexed text before this offset is ASCII: a hint for checks that would
  // otherwise scan the whole text again (0 when unknown). The document parsers set it, as
  // they see every byte while finding line breaks; edit_line_index carries it over; indexes
  // built otherwise keep 0.
  size_t ascii_prefix() const { return ascii_prefix_; }
  void set_ascii_prefix(size_t bytes) { ascii_prefix_ = bytes; }

  uint32_t line_count() const {
    return static_cast<uint32_t>(wide() ? wide_.size() : starts_.size());
  }
  size_t line_start(uint32_t line) const { return wide() ? wide_[line] : starts_[line]; }
  // 0-based line that contains byte `offset` (offset == text size -> last line).
  uint32_t line_of(size_t offset) const;

  // End of the line's text: before its "\n" or "\r\n" (or the text end for the last line).
  static size_t line_end(std::string_view text, const LineIndex& index, uint32_t line);
  size_t line_end(std::string_view text, uint32_t line) const {
    return line_end(text, *this, line);
  }
  std::string_view line_text(std::string_view text, uint32_t line) const;

  // 0-based columns of byte `offset` on its line.
  size_t utf16_column(std::string_view text, size_t offset) const;
  size_t utf8_column(size_t offset) const { return offset - line_start(line_of(offset)); }

  // Byte offset of a 0-based (line, column) in UTF-16 or UTF-8 units; columns past the
  // line end clamp to the line end. Returns false when the line does not exist.
  bool offset_of_utf16(std::string_view text, uint32_t line, size_t column, size_t* offset) const;
  bool offset_of_utf8(std::string_view text, uint32_t line, size_t column, size_t* offset) const;

private:
  // std::allocator, except that a value-less construct() leaves the value uninitialised, so
  // that resize() only makes room: append() writes the starts straight into the index.
  template <typename T> struct UninitAllocator : std::allocator<T> {
    using value_type = T;
    template <typename U> struct rebind { using other = UninitAllocator<U>; };
    UninitAllocator() = default;
    template <typename U> UninitAllocator(const UninitAllocator<U>&) noexcept {}
    template <typename U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <typename U, typename... Args> void construct(U* p, Args&&... args) {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  };
  template <typename T> using Starts = std::vector<T, UninitAllocator<T>>;

  // append()'s work, for either width of start: returns the offset in `data` of its first
  // byte >= 0x80 (npos when there is none).
  template <typename T>
  static size_t append_starts(Starts<T>& starts, const char* data, size_t size, size_t base);
  template <typename T> uint32_t line_of_in(const Starts<T>& starts, size_t offset) const;

  friend LineIndex edit_line_index(const LineIndex& old, size_t begin, size_t end,
                                   std::string_view inserted);
  Starts<uint32_t> starts_; // while not wide()
  Starts<size_t> wide_;     // once wide() (then starts_ is empty)
  size_t ascii_prefix_ = 0;
};

// The index of the text made by replacing bytes [begin, end) of the text `old` indexes with
// `inserted`, computed from `old` (equal to LineIndex(new text), without rescanning it all).
LineIndex edit_line_index(const LineIndex& old, size_t begin, size_t end,
                          std::string_view inserted);

} // namespace blockls
