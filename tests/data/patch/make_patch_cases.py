#!/usr/bin/env python3
"""Writes patch.json: blockls's own cases of the `patch` dialect (Codex envelopes).

The inputs are written here; the expected blocks, diagnostics and fixed text were produced by
`blockls check --format json` / `blockls fix` once and then reviewed by hand, line by line,
against the rules of spec/dialects.md ("Codex patches"). Re-run only to add cases:
    python3 make_patch_cases.py path/to/blockls > patch.json
"""
import json
import subprocess
import sys

CASES = [
    ("add file", "*** Begin Patch\n*** Add File: src/hello.txt\n+Hello, world!\n+\n+bye\n*** End Patch\n"),
    ("update with move, @@ context and End of File",
     "Rename and edit:\n\n*** Begin Patch\n*** Update File: old/name.py\n*** Move to: new/name.py\n"
     "@@ def f():\n-    return 1\n+    return 2\n@@\n context\n-last\n+LAST\n*** End of File\n*** End Patch\n"),
    ("delete file", "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n"),
    ("several operations in a diff fence",
     "Here is the patch:\n\n```diff\n*** Begin Patch\n*** Add File: nested/new.txt\n+created\n"
     "*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n```\n\nDone.\n"),
    ("first hunk without @@ and a blank context line",
     "*** Begin Patch\n*** Update File: a.txt\n one\n\n-two\n+2\n*** End Patch\n"),
    ("add file line missing its +",
     "*** Begin Patch\n*** Add File: notes.md\n+# Notes\nsecond line\n+third\n*** End Patch\n"),
    ("invalid file operation header",
     "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n"),
    ("hunk line without a prefix",
     "*** Begin Patch\n*** Update File: a.py\n@@\nx = 1\n+y = 2\n*** End Patch\n"),
    ("second hunk without @@",
     "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\nstray\n*** End Patch\n"),
    ("update without hunks", "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n"),
    ("End of File in an empty hunk",
     "*** Begin Patch\n*** Update File: foo.txt\n@@\n*** End of File\n*** End Patch\n"),
    ("empty patch", "*** Begin Patch\n*** End Patch\n"),
    ("missing End Patch at the end of input",
     "*** Begin Patch\n*** Add File: a.txt\n+x\n"),
    ("missing End Patch before the fence closes",
     "```\n*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n```\n\nMore prose.\n"),
    ("whitespace-padded markers (Codex accepts them)",
     " *** Begin Patch\n  *** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n"),
    ("CRLF patch without End Patch",
     "*** Begin Patch\r\n*** Add File: w.txt\r\n+a\r\n+b\r\n"),
    ("Markdown bullets and bold are prose",
     "* item one\n** not a marker\n**bold** text\n*** Begin Patching is prose\n* * *\n"),
    ("a patch between prose and an edit block",
     "Intro.\n\n*** Begin Patch\n*** Delete File: x.txt\n*** End Patch\n\nb.txt\n```\n<<<<<<< SEARCH\n"
     "=======\nhi\n>>>>>>> REPLACE\n```\n"),
    ("fast path: a context line, then a padded End Patch",
     "*** Begin Patch\n*** Update File: a.txt\n@@\n keep\n-old\n+new\n   *** End Patch\n"),
    ("fast path: a padded End of File after chunk lines",
     "*** Begin Patch\n*** Update File: a.txt\n@@\n x\n-y\n+z\n  *** End of File\n*** End Patch\n"),
    ("fast path: CRLF chunk lines with empty context lines",
     "*** Begin Patch\r\n*** Update File: a.txt\r\n@@\r\n a\r\n\r\n-b\r\n+c\r\n\r\n*** End Patch\r\n"),
    ("fast path: an indented fence closer among chunk lines",
     "```\n*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n  ```\n\nprose\n"),
    ("fast path: added lines, then the next operation and a second chunk",
     "*** Begin Patch\n*** Add File: n.txt\n+one\n+two\n*** Update File: m.txt\n@@ def f\n-a\n+b\n@@\n c\n-d\n+e\n*** End Patch\n"),
    ("fast path: a context line that starts with blanks and a star is no marker",
     "*** Begin Patch\n*** Update File: a.md\n@@\n  * bullet\n- * old\n+ * new\n*** End Patch\n"),
]


def run(blockls, args, text):
    return subprocess.run([blockls] + args + ["-"], input=text.encode(), capture_output=True).stdout.decode()


def main():
    blockls = sys.argv[1]
    cases = []
    for name, text in CASES:
        report = json.loads(run(blockls, ["check", "--format", "json"], text))["files"][0]
        blocks = []
        for b in report["blocks"]:
            blocks.append({"dialect": b["metadata"]["dialect"], "start_line": b["metadata"]["start_line"],
                           "end_line": b["metadata"]["end_line"],
                           "commands": [{"type": c["type"], "action": c["action"], "params": c["params"]}
                                        for c in b["commands"]]})
        errors = [{"code": e["code"], "severity": e["severity"], "line": e["line_number"]} for e in report["errors"]]
        case = {"name": name, "input": text, "blocks": blocks, "errors": errors}
        fixed = run(blockls, ["fix"], text)
        if fixed != text:
            case["fixed"] = fixed
        cases.append(case)
    json.dump({"source": "blockls's own cases of the patch dialect (make_patch_cases.py)", "cases": cases},
              sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


main()
