#!/bin/sh
# An agent's loop around `blockls stream --apply`, on a recorded model answer: the answer is
# piped through blockls as it "streams in"; every valid block is applied to a scratch directory
# the moment it closes, and what the model must hear back — which blocks were applied, and for
# each broken block, or valid block the files refused (old text not found, a path outside the
# root...), its errors and the corrected block, and for each error outside every block (a
# malformed header that lost its block) the corrected lines — is printed at the end.
#
#   examples/agent-loop.sh [ANSWER [ROOT]]
#
# ANSWER defaults to examples/agent-answer.md (one valid block, one broken), ROOT to a new
# temporary directory. $BLOCKLS names the binary (default: blockls on the PATH). Needs python3
# to read the JSON events (jq would do as well).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
blockls=${BLOCKLS:-blockls}
answer=${1:-$here/agent-answer.md}
root=${2:-$(mktemp -d "${TMPDIR:-/tmp}/agent-loop.XXXXXX")}

# A real agent pipes the model's streamed answer in here instead of `cat`.
events=$(mktemp "${TMPDIR:-/tmp}/agent-loop-events.XXXXXX")
trap 'rm -f "$events"' EXIT
status=0
cat "$answer" | "$blockls" stream --apply --root "$root" >"$events" || status=$?

python3 - "$events" <<'PY'
import json, sys

feedback = []
errors = 0  # error-severity diagnostics the stream reported (done's summary)
for line in open(sys.argv[1], encoding="utf-8"):
    event = json.loads(line)
    kind = event["event"]
    if kind == "block_end" and "feedback" in event:
        feedback.append(event["feedback"].rstrip("\n"))
    elif kind == "error":
        # An error outside every block: a malformed header loses its block (no block_start, no
        # block_end); the feedback says so and gives the corrected lines when there are some.
        error = event["error"]
        print("error (line %d): %s [%s]" % (error["line_number"], error["message"], error["code"]))
        if "feedback" in event:
            feedback.append(event["feedback"].rstrip("\n"))
    elif kind == "applied":
        print("applied block %d (line %d): %s" % (event["block_number"], event["line"],
                                                  ", ".join(event["files"]) or "no file"))
    elif kind == "skipped":
        print("skipped block %d (line %d): %s [%s] %s" % (
            event["block_number"], event["line"], event["reason"], event.get("code", ""),
            event["message"]))
        # A valid block that failed against the files: its block_end had no feedback.
        if "feedback" in event:
            feedback.append(event["feedback"].rstrip("\n"))
    elif kind == "done":
        errors = event["summary"]["errors"]
print()
print("--- to send back to the model ---")
if feedback:
    print("\n\n".join(feedback))
elif errors:
    print("%d error%s, but no feedback to send: see the events above." % (
        errors, "" if errors == 1 else "s"))
else:
    print("Every block was applied.")
PY
echo
echo "(files in $root; blockls stream exited with $status)"
