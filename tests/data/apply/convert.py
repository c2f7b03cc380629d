#!/usr/bin/env python3
"""Converts the clada/slupe action cases (shared/corpus/nesl, see SOURCES.md) into blockls's
own apply test data: cases/*.json, one file per source file. Run from anywhere:
    python3 tests/data/apply/convert.py /path/to/shared/corpus/nesl
The case paths stay `/tmp/<dir>/...`; the test rewrites every `/tmp/<dir>/` into its temporary
root at run time. Error messages are mapped to blockls error kinds (codes)."""
import json, os, re, sys

CORPUS = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/nesl"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")

SOURCES = {
    "clada": ("bigfoothq/clada", "4cc1f9592a99efd39e93989479e6a260be2f8c30", "MIT (package.json)"),
    "slupe": ("stuartcrobinson/slupe", "ddcc608bdcf746cea813028dcfdbd50bf4e9f45f", "MIT (LICENSE)"),
}
FILES = [
    ("clada", "proj/comp/fs-ops/test-data/integration/write_action_result/file_delete.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_action_result/file_move.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_action_result/file_read.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_action_result/file_read_numbered.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_action_result/files_read.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_replace_result_contents/file_replace_lines.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_replace_result_contents/file_replace_text.cases.md"),
    ("clada", "proj/comp/fs-ops/test-data/integration/write_result_contents/file_write.cases.md"),
    ("clada", "proj/comp/orch/test-data/execute/basic-operations.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_action_result/delete_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_action_result/move_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_action_result/read_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_action_result/read_file_numbered.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_action_result/read_files.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_replace_result_contents/append_to_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_replace_result_contents/replace_lines_in_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_replace_result_contents/replace_text_in_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_replace_result_contents/replace_text_range_in_file.cases.md"),
    ("slupe", "proj/comp/fs-ops/test-data/integration/write_result_contents/write_file.cases.md"),
    ("slupe", "proj/comp/orch/test-data/execute/basic-operations.md"),
]
# Actions blockls cannot run; their cases are kept but skipped (none today).
NOT_IN_CATALOG = set()

# clada message -> blockls error kind (first match wins)
KINDS = [
    ("cannot be empty", "EMPTY_SEARCH"),
    ("Invalid line specification", "INVALID_LINE_RANGE"),
    ("Invalid line range", "INVALID_LINE_RANGE"),
    ("is out of bounds", "LINE_OUT_OF_RANGE"),
    ("but file only has", "LINE_OUT_OF_RANGE"),
    ("No paths provided", "EMPTY_PATH"),
    ("not found after", "SEARCH_NOT_FOUND"),
    ("not found in file", "SEARCH_NOT_FOUND"),
    ("must appear exactly once", "SEARCH_AMBIGUOUS"),
    ("occurrences but found", "COUNT_MISMATCH"),
    ("Source file not found", "FILE_NOT_FOUND"),
    ("Failed to read", "FILE_NOT_FOUND"),
    ("ENOENT", "FILE_NOT_FOUND"),
]

# Where blockls deliberately expects something else than the source (reason recorded per case).
OVERRIDES = {
    ("slupe", "read_files.cases.md", "003-read-with-missing-file"): (
        {"success": False, "code": "FILE_NOT_FOUND"},
        "slupe returns partial success with data.errors; blockls keeps clada's rule: a read of several "
        "files fails when one is missing (a block is all or nothing)"),
}
# The expected file of this case is a Markdown fence, which cannot show "\r": the source wrote
# "Line 1\r\nLine 2\r\nLine 3\r\n". blockls writes the new line with the file's line ending
# (spec/actions.md), so the whole file stays CRLF, as the case's name says.
for _repo, _file in (("clada", "file_replace_lines.cases.md"), ("slupe", "replace_lines_in_file.cases.md")):
    OVERRIDES[(_repo, _file, "011-preserve-line-endings")] = (
        {"success": True,
         "data": {"path": "/tmp/t_preserve-line-endings/mixed.txt", "lines_replaced": 1},
         "file": {"path": "/tmp/t_preserve-line-endings/mixed.txt",
                  "content": "Line 1\r\nNew Line 2\r\nLine 3\r\n"}},
        "the expected file is a Markdown fence, which cannot show carriage returns; blockls keeps "
        "the CRLF file CRLF throughout (the new line gets the file's line ending, spec/actions.md)")


# slupe's verb-first names -> the canonical catalog names blockls reports in `action`.
CANONICAL = {"write_file": "file_write", "append_to_file": "file_append", "replace_text_in_file": "file_replace_text",
             "replace_all_text_in_file": "file_replace_all_text",
             "replace_text_range_in_file": "file_replace_text_range", "delete_file": "file_delete",
             "move_file": "file_move", "read_file": "file_read", "read_files": "files_read",
             "read_file_numbered": "file_read_numbered", "replace_lines_in_file": "file_replace_lines"}


def kind_of(message):
    for needle, kind in KINDS:
        if needle in message:
            return kind
    raise SystemExit("no error kind for: " + message)


def fences(section):
    """(info, body) of every fenced block, in order."""
    out, lines, i = [], section.split("\n"), 0
    while i < len(lines):
        m = re.match(r"^```(.*)$", lines[i])
        if m:
            info, body, i = m.group(1).strip(), [], i + 1
            while i < len(lines) and lines[i] != "```":
                body.append(lines[i])
                i += 1
            out.append((info, "\n".join(body)))
        i += 1
    return out


def sections(text):
    parts = re.split(r"^### (.+)$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


def actions_in(nesl):
    return re.findall(r'^action = "([^"]+)"', nesl, flags=re.M)


def expected_of(result):
    e = {"success": result["success"]}
    if result["success"]:
        if "data" in result:
            e["data"] = result["data"]
    else:
        e["code"] = kind_of(result["error"])
        e["source_error"] = result["error"]
        if "data" in result:  # a partial read (file_read_numbered past the end)
            e["data"] = result["data"]
    return e


def convert_fs_ops(repo, path, text):
    cases = []
    for name, body in sections(text):
        fs = fences(body)
        nesl = [b for info, b in fs if info in ("sh nesl", "sh sham")]
        js = [i for i, (info, _) in enumerate(fs) if info == "json"]
        result = json.loads(fs[js[0]][1])
        after = [b for info, b in fs[js[0] + 1:] if info == ""]
        case = {"name": name, "kind": "fs-ops", "setup": "\n\n".join(b for b in nesl[:-1] if b.strip()),
                "input": nesl[-1]}
        used = set(actions_in("\n".join(nesl)))
        if used & NOT_IN_CATALOG:
            case["skip"] = "action %s is not in the blockls catalog" % ", ".join(sorted(used & NOT_IN_CATALOG))
        else:
            case["expect"] = expected_of(result)
            if after:
                m = re.search(r'^path = "([^"]+)"', nesl[-1], flags=re.M)
                case["expect"]["file"] = {"path": m.group(1), "content": after[0]}
            key = (repo, os.path.basename(path), name)
            if key in OVERRIDES:
                case["expect"], case["differs"] = OVERRIDES[key]
                case["source_expect"] = result
        cases.append(case)
    return cases


def convert_orch(text):
    cases = []
    for name, body in sections(text):
        fs = fences(body)
        inp = [b for info, b in fs if info != "json"][0]
        result = json.loads([b for info, b in fs if info == "json"][0])
        exp = {"success": result["success"], "totalBlocks": result["totalBlocks"],
               "executedActions": result["executedActions"],
               "results": [], "skippedBlocks": [p["blockId"] for p in result["parseErrors"]]}
        notes = []
        for r in result["results"]:
            action = CANONICAL.get(r["action"], r["action"])
            if action != r["action"]:
                notes.append("`action` is the canonical catalog name (%s for %s)" % (action, r["action"]))
            one = {"seq": r["seq"], "blockId": r["blockId"], "action": action, "params": r["params"]}
            one.update(expected_of(r))
            if action == "files_read" and "errors" in one.get("data", {}):
                one = {k: v for k, v in one.items() if k != "data"}
                one.update({"success": False, "code": "FILE_NOT_FOUND"})
                exp["success"] = False
                notes.append("slupe's read_files succeeds partially (data.errors); blockls keeps clada's rule: "
                             "it fails when a file is missing")
            if action == "exec" and "command" in one.get("data", {}):
                del one["data"]["command"]
                notes.append("exec data has no `command` echo (clada's shape: stdout, stderr, exit_code)")
            exp["results"].append(one)
        case = {"name": name, "kind": "orch", "setup": "", "input": inp, "expect": exp}
        if notes:
            case["differs"] = "; ".join(sorted(set(notes)))
        cases.append(case)
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    for repo, path in FILES:
        src = os.path.join(CORPUS, repo, path)
        text = open(src, encoding="utf-8").read()
        cases = convert_orch(text) if "/orch/" in path else convert_fs_ops(repo, path, text)
        github, commit, licence = SOURCES[repo]
        doc = {"source": {"repository": github, "commit": commit, "path": path, "licence": licence},
               "cases": cases}
        out = os.path.join(OUT, "%s--%s.json" % (repo, path.split("/")[2] + "--" + os.path.basename(path).replace(".md", "")))
        with open(out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(out, len(cases))


main()
