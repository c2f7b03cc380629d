#!/usr/bin/env python3
"""Copies the real NESL/SHAM replies (shared/corpus/real/nesl, see its SOURCES.md) byte for byte
into files/ and records the tools' own verdicts in verdicts.json. Run from anywhere:
    python3 tests/data/real/nesl/convert.py /path/to/shared/corpus/real
slupe/loaf/clada prepend their verdict to the input file:
    === SLUPE RESULTS ===            (LOAF / CLADA)
    <id> ✅ <action> <primary param>                      the block ran
    <id> ❌ <action> <param> - <error>                    it ran and failed (file system)
    <id> ❌ <action> ERROR: <message> (line <start>)      rejected before running
    === END ===
The topmost section with a verdict line is the verdict on the text below it (a listener that runs
again over a file starting with a verdict runs nothing and prepends an empty section). `line` counts from the line after the section (the
text as the tool saw it), so `offset` (lines above that text) turns it into a line of the copy.
Each verdict is tied to a block header of the copy: the n-th verdict for an id to the n-th block
with that id."""
import json, os, re, shutil, sys

CORPUS = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/real"
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(CORPUS, "nesl")
OUT = os.path.join(HERE, "files")

SEC_START = re.compile(r"^=== (SLUPE|LOAF|CLADA) RESULTS ===\s*$")
SEC_END = re.compile(r"^=== END ===")
VERDICT = re.compile(r"^(\S+) (✅|❌|⚠️) (\S+)\s*(.*)$")
REJECTED = re.compile(r"^ERROR: (.*) \(line (\d+)\)$")
HEADER = re.compile(r"^#!(nesl|NESL|SHAM) \[@[^:\]]+: ([^\]]*)\]")
END = {"nesl": "#!end_", "NESL": "#!END_NESL_", "SHAM": "#!END_SHAM_"}
# Rejections by the NESL parser (syntax) as opposed to the action layer (validation).
VALIDATION = ("Unknown action", "Missing required parameter", "Missing 'action'", "Invalid integer",
              "Invalid boolean", "Invalid enum", "Invalid absolute path", "is not in allowed-actions")

# Where the tool's verdict is itself wrong, the test expects the opposite; each with its reason.
EXCEPTIONS = {
    ("stuartcrobinson__slupe/slupe_input@20250730T133031_fca8977fba.md", "z8v"):
        "slupe bug: it reports heredoc 'EOT_z8v' as not closed, yet the delimiter closes it on its "
        "own line and the same reply ran without error two seconds later "
        "(slupe_input@20250730T133031; see shared/corpus/real/SOURCES.md, caveat 1)",
}


def headers(lines):
    """(id, 1-based line) of every block header outside another block, in order."""
    out, cur = [], None
    for n, line in enumerate(lines, 1):
        if cur is None:
            m = HEADER.match(line)
            if m:
                cur = (m.group(1), m.group(2).strip())
                out.append((cur[1], n))
        elif line.rstrip("'") == END[cur[0]] + cur[1]:
            cur = None
    return out


def first_section(lines):
    """(lines of the topmost verdict section that judges blocks, offset of the text it judges),
    or None. Sections without a verdict line are skipped: the listeners prepend one when they
    run again over a file that already starts with a verdict (they then run nothing)."""
    i = 0
    while i < len(lines):
        if HEADER.match(lines[i]):
            return None  # a block before any verdict: no verdict on this text
        if SEC_START.match(lines[i]):
            j = i + 1
            while j < len(lines) and not SEC_END.match(lines[j]):
                j += 1
            section = lines[i + 1:j]
            if any(VERDICT.match(l.strip()) for l in section):
                # Then the text the tool ran, after one empty line (clada, loaf) or none (slupe).
                return section, j + 1 + (j + 1 < len(lines) and lines[j + 1] == "")
            i = j
        i += 1
    return None


def convert(rel, text):
    lines = text.split("\n")
    found = first_section(lines)
    if not found:
        return None
    section, offset = found
    blocks = headers(lines)
    seen, verdicts = {}, []
    for raw in section:
        m = VERDICT.match(raw.strip())
        if not m:
            continue
        bid, mark, action, rest = m.groups()
        v = {"block_id": bid, "action": action, "tool_says": raw.strip()}
        r = REJECTED.match(rest)
        if mark == "✅":
            v["verdict"] = "ran"
        elif r and any(s in r.group(1) for s in VALIDATION):
            v["verdict"] = "rejected_validation"
        elif r:
            v["verdict"] = "rejected_syntax"
        elif mark == "❌":
            v["verdict"] = "failed"  # ran and failed on the file system
        else:
            v["verdict"] = "partial"
        if r:
            v["line"] = int(r.group(2)) + offset
        if bid != "unknown":
            nth = seen.get(bid, 0)
            seen[bid] = nth + 1
            at = [n for b, n in blocks if b == bid]
            if nth < len(at):
                v["header_line"] = at[nth]
            elif "line" in v:
                v["header_line"] = v["line"]
        elif "line" in v:
            v["header_line"] = v["line"]
        key = (rel, bid)
        if key in EXCEPTIONS:
            v["exception"] = EXCEPTIONS[key]
        verdicts.append(v)
    return {"path": rel, "verdict_offset": offset, "verdicts": verdicts}


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    files, counts = [], {}
    for repo in sorted(os.listdir(SRC)):
        for name in sorted(os.listdir(os.path.join(SRC, repo))):
            rel = repo + "/" + name
            os.makedirs(os.path.join(OUT, repo), exist_ok=True)
            shutil.copyfile(os.path.join(SRC, rel), os.path.join(OUT, rel))
            data = open(os.path.join(SRC, rel), "rb").read().decode("utf-8")
            entry = convert(rel, data)
            if entry is None:
                files.append({"path": rel, "verdicts": []})
                continue
            files.append(entry)
            for v in entry["verdicts"]:
                counts[v["verdict"]] = counts.get(v["verdict"], 0) + 1
    doc = {"source": "shared/corpus/real/nesl (see SOURCES.md here)", "counts": counts,
           "files": files}
    with open(os.path.join(HERE, "verdicts.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(len(files), "files;", counts)


main()
