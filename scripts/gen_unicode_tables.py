#!/usr/bin/env python3
"""Regenerates grammar/unicode_tables.cpp (Unicode L* and N* ranges) from Python's unicodedata.
Run from the repository root; the output is committed, so builds never need Python."""
import os
import sys
import unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from unicode_ranges import ranges, table  # noqa: E402

letters = ranges(lambda c: unicodedata.category(chr(c)).startswith("L"))
numbers = ranges(lambda c: unicodedata.category(chr(c)).startswith("N"))
with open("grammar/unicode_tables.cpp", "w") as f:
    f.write(f"""// Unicode general-category tables (letters L*, numbers N*) for NESL key validation,
// which follows JavaScript's \\p{{L}} / \\p{{N}}. Generated once from Python {sys.version.split()[0]}'s
// unicodedata (Unicode {unicodedata.unidata_version}); regenerate with scripts/gen_unicode_tables.py.
#include "grammar/codepoint_ranges.h"
#include "grammar/unicode.h"

namespace blockls::unicode {{
namespace {{
""")
    f.write(table("kLetters", letters) + "\n" + table("kNumbers", numbers))
    f.write("""
} // namespace

bool is_letter(char32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
  return in_table(kLetters, cp);
}

bool is_number(char32_t cp) {
  if (cp < 0x80) return cp >= '0' && cp <= '9';
  return in_table(kNumbers, cp);
}
} // namespace blockls::unicode
""")
