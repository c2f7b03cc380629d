// Substring search over large buffers (heredoc bodies, whole documents): the first and last
// bytes of the needle are compared 16 positions at a time (32 with AVX2, chosen at run time) and
// only candidates are verified, which skips ordinary text far faster than a byte-by-byte or
// memchr-per-line search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace blockls {

// Offset of the first occurrence of `needle` in `text` at or after `from`, or npos.
// An empty needle is found at `from` (when from <= text.size()).
size_t find_bytes(std::string_view text, std::string_view needle, size_t from = 0);

// The line breaks among the 64 bytes at `p`: bit i is set when byte i is "\n" (SSE2 compares
// where available). `*any_high` is non-zero when one of the 64 bytes is >= 0x80 (one OR over
// the block; callers that need its position look for it then).
inline uint64_t newline_mask(const char* p, unsigned* any_high) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  uint64_t lf = 0;
  __m128i all = _mm_setzero_si128();
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    lf |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl))))
          << (16 * k);
    all = _mm_or_si128(all, v);
  }
  *any_high = static_cast<unsigned>(_mm_movemask_epi8(all));
  return lf;
#else
  uint64_t lf = 0;
  unsigned high = 0;
  for (int i = 0; i < 64; ++i) {
    if (p[i] == '\n') lf |= uint64_t{1} << i;
    high |= static_cast<unsigned char>(p[i]) >> 7;
  }
  *any_high = high;
  return lf;
#endif
}

// newline_mask() of each of the `blocks` 64-byte blocks at `p`, into masks[0..blocks): bit i of
// masks[b] is set when byte 64 * b + i is "\n". Non-zero when one of the bytes is >= 0x80 (one
// OR over them all). Uses AVX2 where the CPU has it (two compares per block instead of four):
// this is the line index's scan, which reads every byte of a document.
unsigned newline_masks(const char* p, size_t blocks, uint64_t* masks);

} // namespace blockls
