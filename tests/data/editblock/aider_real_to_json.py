#!/usr/bin/env python3
"""Extracts the model replies of real Aider chat histories, with Aider's verdict on each, into
tests/data/editblock/aider_real.json.

Usage: tests/data/editblock/aider_real_to_json.py CORPUS_AIDER_DIR OUT_JSON

A history alternates user lines (`#### `), model replies and Aider's output (lines `> ` or
`>`). A reply is a run of other lines; its verdict is the run of Aider lines after it.
Kept: replies that hold a `<<<<<<< SEARCH`-like marker line and whose verdict is either
"applied" (an `Applied edit to` line and no `did not conform to the edit format`) or
"format" (Aider rejected the reply's format: a `^^^ Expected` or `Bad/missing filename` line).
Replies rejected only because a SEARCH text did not match are not kept.
"""
import json
import os
import re
import sys

HEAD = re.compile(r"^\s*<{5,9} SEARCH>?\s*$")


def is_aider(line):
    return line.startswith("> ") or line.rstrip("\r\n") == ">"


def replies(text):
    lines = text.splitlines(keepends=True)
    i = 0
    out = []
    while i < len(lines):
        if lines[i].startswith("#### ") or is_aider(lines[i]):
            i += 1
            continue
        start = i
        while i < len(lines) and not lines[i].startswith("#### ") and not is_aider(lines[i]):
            i += 1
        reply = lines[start:i]
        verdict = []
        while i < len(lines) and is_aider(lines[i]):
            verdict.append(lines[i])
            i += 1
        out.append((start + 1, "".join(reply), "".join(verdict)))
    return out


def main():
    src, out_path = sys.argv[1:3]
    cases = []
    for name in sorted(os.listdir(src)):
        if not name.endswith(".md"):
            continue
        text = open(os.path.join(src, name), encoding="utf-8").read()
        for line, reply, verdict in replies(text):
            if not any(HEAD.match(l) for l in reply.splitlines()):
                continue
            fmt = "^^^ Expected" in verdict or "Bad/missing filename" in verdict
            applied = "Applied edit to" in verdict and "did not conform to the edit format" not in verdict
            if not (fmt or applied):
                continue
            cases.append({
                "file": name,
                "line": line,
                "verdict": "format" if fmt else "applied",
                "aider": [l[2:].rstrip() for l in verdict.splitlines()
                          if "^^^" in l or "Bad/missing" in l or "Applied edit" in l],
                "input": reply,
            })
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"source": "shared/corpus/real/aider (see SOURCES.md)", "replies": cases}, f,
                  indent=0, ensure_ascii=False)
        f.write("\n")
    print("replies %d: applied %d, format %d" % (
        len(cases), sum(c["verdict"] == "applied" for c in cases),
        sum(c["verdict"] == "format" for c in cases)))


main()
