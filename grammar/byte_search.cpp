// SIMD substring search (the "first and last byte" filter; SSE2 where available).
#include "grammar/byte_search.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace blockls {

size_t find_bytes(std::string_view text, std::string_view needle, size_t from) {
  constexpr size_t npos = std::string_view::npos;
  const size_t n = needle.size();
  if (from > text.size()) return npos;
  if (n == 0) return from;
  if (text.size() - from < n) return npos;
  const char* data = text.data();
  const char first = needle[0];
  const char last = needle[n - 1];
  // Candidate starts are [from, end_start]; the last byte of a candidate at i is i + n - 1.
  const size_t end_start = text.size() - n;
  size_t i = from;
#if defined(__SSE2__)
  const __m128i vfirst = _mm_set1_epi8(first);
  const __m128i vlast = _mm_set1_epi8(last);
  while (i + 16 <= end_start + 1) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i + n - 1));
    unsigned mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, vfirst), _mm_cmpeq_epi8(b, vlast))));
    while (mask != 0) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
      if (std::memcmp(data + at + 1, needle.data() + 1, n - 1) == 0) return at;
      mask &= mask - 1;
    }
    i += 16;
  }
#endif
  for (; i <= end_start; ++i)
    if (data[i] == first && data[i + n - 1] == last &&
        std::memcmp(data + i + 1, needle.data() + 1, n - 1) == 0)
      return i;
  return npos;
}

} // namespace blockls
