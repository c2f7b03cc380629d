#!/usr/bin/env python3
"""Converts Aider's golden SEARCH/REPLACE suite (a chat-history transcript and the expected
parse of each of its sections) into tests/data/editblock/aider_golden.json.

Usage: tests/data/editblock/aider_golden_to_json.py CHAT_HISTORY_MD GOLD_TXT OUT_JSON

Sections: the transcript is cut before every line that starts with "#### " (a user message);
a section is that line (its header) and the lines up to the next one. Sections that mention
editblock_coder.py or test_editblock.py are left out, as upstream leaves them out. The gold
file lists, for each section with output, its header, then its edit blocks (path, SEARCH
text, REPLACE text), shell blocks, or the parse error.
"""
import json
import sys

BAR = "@" * 20


def sections(text):
    out = []
    lines = text.splitlines(keepends=True)
    current = None
    for line in lines:
        if line.startswith("#### "):
            current = {"header": line.rstrip("\n"), "lines": []}
            out.append(current)
        elif current is not None:
            current["lines"].append(line)
    return [
        {"header": s["header"], "input": "".join(s["lines"])}
        for s in out
        if "editblock_coder.py" not in s["header"] + "".join(s["lines"])
        and "test_editblock.py" not in s["header"] + "".join(s["lines"])
    ]


def gold_sections(text):
    """[(header, [entries])]: entries are ("edit", path, search, replace), ("shell", text)
    or ("error", message)."""
    out = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("@@@ #### ") and line.rstrip("\n").endswith(" " + BAR):
            header = line[len("@@@ "): -len(" " + BAR) - 1]
            out.append((header, []))
            i += 1
            continue
        if line.startswith("@@@ SEARCH: ") and line.rstrip("\n").endswith(" " + BAR):
            path = line[len("@@@ SEARCH: "): -len(" " + BAR) - 1]
            i += 1
            search = []
            while lines[i] != BAR + "\n":
                search.append(lines[i])
                i += 1
            i += 1
            replace = []
            while lines[i] != "@@@ REPLACE " + BAR + "\n":
                replace.append(lines[i])
                i += 1
            i += 1
            out[-1][1].append(("edit", path, "".join(search), "".join(replace)))
            continue
        if line == "@@@ SHELL " + BAR + "\n":
            i += 1
            body = []
            while lines[i] != "@@@ ENDSHELL " + BAR + "\n":
                body.append(lines[i])
                i += 1
            i += 1
            out[-1][1].append(("shell", "".join(body)))
            continue
        if line.startswith("^^^ "):
            out[-1][1].append(("error", line[4:].rstrip("\n")))
        i += 1
    return out


def main():
    chat, gold, out_path = sys.argv[1:4]
    secs = sections(open(chat, encoding="utf-8").read())
    golds = gold_sections(open(gold, encoding="utf-8").read())
    at = 0
    for header, entries in golds:
        # Headers repeat (a user sends the same message again): the section is the next one
        # with that header whose text holds what the gold found in it.
        def holds(s):
            if s["header"].strip() != header.strip():
                return False
            if any(e[0] == "error" for e in entries):
                return "SEARCH" in s["input"]
            return all(e[2] in s["input"] and e[3] in s["input"] for e in entries if e[0] == "edit")

        while at < len(secs) and not holds(secs[at]):
            at += 1
        if at == len(secs):
            sys.exit("gold section not found: " + header)
        s = secs[at]
        errors = [e[1] for e in entries if e[0] == "error"]
        s["error"] = errors[0] if errors else None
        s["edits"] = [
            {"path": e[1], "search": e[2], "replace": e[3]} for e in entries if e[0] == "edit"
        ]
        s["shell"] = sum(1 for e in entries if e[0] == "shell")
        at += 1
    for s in secs:
        s.setdefault("error", None)
        s.setdefault("edits", [])
        s.setdefault("shell", 0)
    data = {
        "source": "Aider-AI/aider tests/fixtures/chat-history.md and "
        "chat-history-search-replace-gold.txt (Apache-2.0), see SOURCES.md",
        "sections": secs,
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=0, ensure_ascii=False)
        f.write("\n")
    print(
        "sections %d, with output %d, edits %d, shell %d, errors %d"
        % (
            len(secs),
            len(golds),
            sum(len(s["edits"]) for s in secs),
            sum(s["shell"] for s in secs),
            sum(1 for s in secs if s["error"]),
        )
    )


main()
