// SIMD byte searches: substring search (the "first and last byte" filter) and the line index's
// newline scan. SSE2 where available, and AVX2 when the CPU has it (chosen at run time).
#include "grammar/byte_search.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define BLOCKLS_AVX2_DISPATCH 1
#endif

namespace blockls {
namespace {

constexpr size_t npos = std::string_view::npos;
constexpr size_t kPrefetchAhead = 2048; // the line index reads the text once, from memory

#if defined(BLOCKLS_AVX2_DISPATCH)
bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

// find_bytes()'s search 32 candidates at a time, from candidate *from while 32 remain before
// end_start: the first match, or npos with *from at the first candidate not searched.
[[gnu::target("avx2")]] size_t find_bytes_avx2(const char* data, std::string_view needle,
                                               size_t* from, size_t end_start) {
  const size_t n = needle.size();
  const __m256i vfirst = _mm256_set1_epi8(needle[0]);
  const __m256i vlast = _mm256_set1_epi8(needle[n - 1]);
  size_t i = *from;
  while (i + 32 <= end_start + 1) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + n - 1));
    uint32_t mask = static_cast<uint32_t>(_mm256_movemask_epi8(
        _mm256_and_si256(_mm256_cmpeq_epi8(a, vfirst), _mm256_cmpeq_epi8(b, vlast))));
    while (mask != 0) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
      if (std::memcmp(data + at + 1, needle.data() + 1, n - 1) == 0) return at;
      mask &= mask - 1;
    }
    i += 32;
  }
  *from = i;
  return npos;
}

[[gnu::target("avx2")]] unsigned newline_masks_avx2(const char* p, size_t blocks, uint64_t* masks) {
  const __m256i nl = _mm256_set1_epi8('\n');
  __m256i all = _mm256_setzero_si256();
  for (size_t b = 0; b < blocks; ++b, p += 64) {
    __builtin_prefetch(p + kPrefetchAhead);
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const uint32_t lo_lf = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, nl)));
    const uint32_t hi_lf = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, nl)));
    masks[b] = lo_lf | (static_cast<uint64_t>(hi_lf) << 32);
    all = _mm256_or_si256(all, _mm256_or_si256(lo, hi));
  }
  return static_cast<unsigned>(_mm256_movemask_epi8(all));
}
#endif

} // namespace

size_t find_bytes(std::string_view text, std::string_view needle, size_t from) {
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
#if defined(BLOCKLS_AVX2_DISPATCH)
  if (has_avx2()) {
    const size_t at = find_bytes_avx2(data, needle, &i, end_start);
    if (at != npos) return at;
  }
#endif
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

unsigned newline_masks(const char* p, size_t blocks, uint64_t* masks) {
#if defined(BLOCKLS_AVX2_DISPATCH)
  if (has_avx2()) return newline_masks_avx2(p, blocks, masks);
#endif
  unsigned any_high = 0;
  for (size_t b = 0; b < blocks; ++b, p += 64) {
    __builtin_prefetch(p + kPrefetchAhead);
    unsigned high = 0;
    masks[b] = newline_mask(p, &high);
    any_high |= high;
  }
  return any_high;
}

} // namespace blockls
