#!/usr/bin/env python3
"""Regenerates grammar/unicode_tables.cpp (Unicode L* and N* ranges) from Python's unicodedata.
Run from the repository root; the output is committed, so builds never need Python."""
import sys
import unicodedata


def ranges(pred):
    out, start = [], None
    for cp in range(0x110000):
        ok = pred(cp)
        if ok and start is None:
            start = cp
        if not ok and start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out


def table(name, rs):
    s = f"const CodepointRange {name}[] = {{\n"
    line = "   "
    for a, b in rs:
        item = f"{{0x{a:X}, 0x{b:X}}}"
        if len(line) + len(item) + 2 > 98:
            s += line.rstrip() + "\n"
            line = "   "
        line += " " + item + ","
    return s + line.rstrip() + "\n};\n"


letters = ranges(lambda c: unicodedata.category(chr(c)).startswith("L"))
numbers = ranges(lambda c: unicodedata.category(chr(c)).startswith("N"))
with open("grammar/unicode_tables.cpp", "w") as f:
    f.write(f"""// Unicode general-category tables (letters L*, numbers N*) for NESL key validation,
// which follows JavaScript's \\p{{L}} / \\p{{N}}. Generated once from Python {sys.version.split()[0]}'s
// unicodedata (Unicode {unicodedata.unidata_version}); regenerate with scripts/gen_unicode_tables.py.
#include "grammar/unicode.h"

#include <algorithm>
#include <iterator>

namespace blockls::unicode {{
namespace {{
struct CodepointRange {{
  char32_t first;
  char32_t last;
}};

""")
    f.write(table("kLetters", letters) + "\n" + table("kNumbers", numbers))
    f.write("""
template <size_t N> bool in_table(const CodepointRange (&table)[N], char32_t cp) {
  auto it = std::upper_bound(std::begin(table), std::end(table), cp,
                             [](char32_t value, const CodepointRange& r) { return value < r.first; });
  if (it == std::begin(table)) return false;
  --it;
  return cp <= it->last;
}
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
