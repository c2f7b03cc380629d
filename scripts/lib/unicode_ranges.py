"""What the Unicode table generators share (gen_unicode_tables.py, gen_unicode_width_tables.py):
the ranges of code points a predicate holds for, and a table of them as C++ for
grammar/codepoint_ranges.h."""


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
