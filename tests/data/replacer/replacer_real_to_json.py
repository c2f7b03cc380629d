#!/usr/bin/env python3
"""Extracts the real replacer replies (shared/corpus/real/replacer/, see its SOURCES.md §2 and
§2b) with the tool's verdict on each block into tests/data/replacer/replacer_real.json.

Usage: tests/data/replacer/replacer_real_to_json.py CORPUS_REPLACER_DIR OUT_JSON

Each file is one reply, the tool's verdicts prepended: one or more headers
`=== PROCESSED: <time> ===`, lines `SUCCESS|ERROR Block N: <message>`, `===` (the newest run
first; older runs may follow). The first header gives the verdicts; the reply is the text after
the last leading header and the blank lines after it, byte for byte.
"""
import json
import os
import re
import sys



def kind(ok, message):
    """What the tool said about the block, as one word."""
    if ok:
        for word in ("Updated", "Created", "Overwrote"):
            if message.startswith(word):
                return word.lower()
        return "success"
    if message.startswith("No match found"):
        return "no_match"
    if re.match(r"\d+ matches found", message):
        return "ambiguous"
    if message.startswith("File path is outside repository"):
        return "outside_repository"
    if message.startswith("File not found"):
        return "file_not_found"
    return "other"


def split(text):
    lines = text.split("\n")
    i = 0
    headers = []
    while i < len(lines) and lines[i].startswith("=== PROCESSED"):
        j = i + 1
        verdicts = []
        while j < len(lines) and lines[j] != "===":
            verdicts.append(lines[j])
            j += 1
        headers.append(verdicts)
        i = j + 1
        while i < len(lines) and lines[i].strip() == "":
            i += 1
    return headers, "\n".join(lines[i:]), i


def main():
    src, out_path = sys.argv[1:3]
    replies = []
    for repo in sorted(os.listdir(src)):
        for name in sorted(os.listdir(os.path.join(src, repo))):
            text = open(os.path.join(src, repo, name), encoding="utf-8", newline="").read()
            headers, body, skipped = split(text)
            verdicts = []
            for line in headers[0] if headers else []:
                m = re.match(r"^.*?(SUCCESS|ERROR) Block (\d+): (.*)$", line)
                if not m:
                    continue
                ok = m.group(1) == "SUCCESS"
                message = m.group(3).replace("🚨", "").strip()
                verdicts.append({"block": int(m.group(2)), "ok": ok,
                                 "kind": kind(ok, message), "message": message})
            replies.append({"file": repo + "/" + name, "header_lines": skipped,
                            "verdicts": verdicts, "input": body})
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"source": "shared/corpus/real/replacer (see SOURCES.md)", "replies": replies},
                  f, indent=0, ensure_ascii=False)
        f.write("\n")
    counts = {}
    for r in replies:
        for v in r["verdicts"]:
            counts[v["kind"]] = counts.get(v["kind"], 0) + 1
    print("replies %d, verdicts %d: %s" % (len(replies), sum(counts.values()),
                                           ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


main()
