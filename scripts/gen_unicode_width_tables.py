#!/usr/bin/env python3
"""Regenerates grammar/unicode_width_tables.cpp (terminal cells per code point: East Asian Wide
and Fullwidth take 2, combining marks and invisible format characters 0) from Python's
unicodedata. Run from the repository root; the output is committed, so builds never need Python.
Separate from gen_unicode_tables.py so that regenerating one never moves the other's Unicode
version."""
import os
import sys
import unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from unicode_ranges import ranges, table  # noqa: E402

# Assigned code points only: unicodedata says W for some unassigned ones outside any CJK block.
wide = ranges(lambda c: unicodedata.east_asian_width(chr(c)) in ("W", "F")
              and unicodedata.category(chr(c)) != "Cn")
# Mn, Me: combining marks; Cf: invisible format characters (ZWJ, ZWSP, ...) but the soft hyphen,
# which terminals show. Wide wins where both hold (none does in Unicode 14).
zero = ranges(lambda c: unicodedata.category(chr(c)) in ("Mn", "Me")
              or (unicodedata.category(chr(c)) == "Cf" and c != 0xAD))
with open("grammar/unicode_width_tables.cpp", "w") as f:
    f.write(f"""// Terminal cells per code point (see display_width in unicode.h): East Asian Wide and
// Fullwidth ranges, and zero-width ranges (general categories Mn, Me, Cf but U+00AD). Generated
// once from Python {sys.version.split()[0]}'s unicodedata (Unicode {unicodedata.unidata_version});
// regenerate with scripts/gen_unicode_width_tables.py.
#include "grammar/codepoint_ranges.h"
#include "grammar/unicode.h"

namespace blockls::unicode {{
namespace {{
// clang-format off
{table("kWide", wide)}
{table("kZeroWidth", zero)}// clang-format on

}} // namespace

unsigned display_width(char32_t cp) {{
  if (cp < 0x300) return 1; // no mark, no wide character before U+0300 (the soft hyphen shows)
  if (in_table(kZeroWidth, cp)) return 0;
  return in_table(kWide, cp) ? 2 : 1;
}}

size_t display_width(std::string_view text) {{
  size_t cells = 0;
  for (size_t i = 0; i < text.size();) {{
    const Decoded d = decode(text, i);
    cells += display_width(d.codepoint);
    i += d.length;
  }}
  return cells;
}}
}} // namespace blockls::unicode
""")
