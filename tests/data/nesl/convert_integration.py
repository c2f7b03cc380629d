#!/usr/bin/env python3
"""Converts nesl-js integration.md suites (see SOURCES.md) into tests/data/nesl/<era>.json.

Usage: convert_integration.py <integration.md> <out.json> <source description>
Each `### name` section holds a ```sh nesl|sham``` fence (the exact input, no trailing newline)
followed by a ```json``` fence (the exact parseNesl() result)."""
import json
import re
import sys


def cases(md):
    out = []
    parts = re.split(r"^### ", md, flags=re.M)[1:]
    for part in parts:
        name, _, body = part.partition("\n")
        m = re.search(r"^```sh \w+\n(.*?)^```\s*$", body, flags=re.M | re.S)
        j = re.search(r"^```json\n(.*?)^```\s*$", body, flags=re.M | re.S)
        text = m.group(1)
        if text.endswith("\n"):
            text = text[:-1]
        out.append({"name": name.strip(), "input": text, "expected": json.loads(j.group(1))})
    return out


def main():
    src, dst, source = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(src, encoding="utf-8") as f:
        data = {"source": source, "cases": cases(f.read())}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")


main()
