#!/usr/bin/env bash
# One command for the fuzzer: installs what is missing (scripts/install-deps.sh), builds
# document_parser_fuzzer with clang in build-fuzz (-DBLOCKLS_FUZZ=ON), collects the seed corpus
# (every "input" string of tests/data/**/*.json, every file of examples/), runs libFuzzer for
# DURATION seconds and prints the final stats and whether a crash was found.
# Usage: scripts/fuzz.sh [DURATION_SECONDS=600] [extra libFuzzer flags...]
# Crashes go to fuzz/artifacts/; the growing corpus is kept in fuzz/corpus-run/.
# Reproduce a crash: build-fuzz/fuzz/document_parser_fuzzer fuzz/artifacts/crash-<sha1>
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-600}"
shift || true
build_dir="${BUILD_DIR:-$root/build-fuzz}"
jobs="${JOBS:-1}"
seed_dir="$build_dir/seed-corpus"
corpus_dir="$root/fuzz/corpus-run"
artifact_dir="$root/fuzz/artifacts"
dict="$build_dir/blocks.dict"
log="$build_dir/fuzz-last-run.log"

"$root/scripts/install-deps.sh"

CC=clang CXX=clang++ cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBLOCKLS_FUZZ=ON -DBLOCKLS_WERROR=ON -DBLOCKLS_TESTS=OFF -DBLOCKLS_BENCH=OFF >/dev/null
cmake --build "$build_dir" --target document_parser_fuzzer -- -j"$jobs"
fuzzer="$build_dir/fuzz/document_parser_fuzzer"

# ---- seed corpus ----------------------------------------------------------------------------
rm -rf "$seed_dir"
mkdir -p "$seed_dir" "$corpus_dir" "$artifact_dir"
python3 - "$root" "$seed_dir" <<'PY'
import hashlib, json, pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
seeds = 0

def add(data: bytes):
    global seeds
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
    seeds += 1

def inputs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "input" and isinstance(value, str):
                yield value
            else:
                yield from inputs(value)
    elif isinstance(node, list):
        for item in node:
            yield from inputs(item)

json_files = sorted((root / "tests" / "data").rglob("*.json")) if (root / "tests" / "data").is_dir() else []
for path in json_files:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        print(f"fuzz.sh: skipping {path.relative_to(root)}: {err}", file=sys.stderr)
        continue
    for text in inputs(doc):
        add(text.encode("utf-8", "surrogatepass"))
examples = root / "examples"
example_files = sorted(p for p in examples.rglob("*") if p.is_file()) if examples.is_dir() else []
for path in example_files:
    add(path.read_bytes())
distinct = len(list(out.iterdir()))
print(f"fuzz.sh: seed corpus: {distinct} distinct inputs ({seeds} collected from "
      f"{len(json_files)} JSON files under tests/data and {len(example_files)} files under examples/)")
if distinct == 0:
    print("fuzz.sh: no golden cases or examples yet: starting from an empty corpus")
PY

# Tokens of every dialect, so mutations produce start lines, delimiters and heredocs early.
cat >"$dict" <<'DICT'
"#!nesl [@three-char-SHA-256: "
"#!NESL [@three-char-SHA-256: "
"#!SHAM [@three-char-SHA-256: "
"#!end_"
"#!END_NESL_"
"#!END_SHAM_"
"<<'EOT_"
"EOT_"
"EOT_SHAM_"
"EOT_NESL_"
" = \""
"action = \"write_file\""
"#!telt [3-char SHA: "
"=== CREATE_FILE ==="
"=== "
" ==="
"--FILE "
"--CONTENT "
"--END "
"--\x0a"
"\x0d\x0a"
"```sh nesl\x0a"
"```\x0a"
"\\u00e9"
"\xc3\xa9"
"\xf0\x9f\x98\x80"
"<<<EXPLANATION>>>\x0a"
"<<<FILE>>>\x0a"
"<<<SEARCH>>>\x0a"
"<<<REPLACE>>>\x0a"
"<<<OVERWRITE>>>\x0a"
"<<<END>>>\x0a"
"<write_to_file>\x0a"
"</write_to_file>\x0a"
"<replace_in_file>\x0a"
"<path>"
"</path>"
"<content>\x0a"
"</content>\x0a"
"<diff>\x0a"
"</diff>\x0a"
"------- SEARCH\x0a"
"+++++++ REPLACE\x0a"
"chatroom task-started x << 'PARAMS_END'\x0a"
"---TITLE---\x0a"
"---(UUID:a1b2c3d4)"
"PARAMS_END\x0a"
DICT

# ---- run ------------------------------------------------------------------------------------
echo "fuzz.sh: running $fuzzer for ${duration}s (corpus $corpus_dir, crashes -> $artifact_dir/)"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
status=0
"$fuzzer" -max_len=65536 -max_total_time="$duration" -timeout=30 -rss_limit_mb=2048 \
  -print_final_stats=1 -dict="$dict" -artifact_prefix="$artifact_dir/" "$@" \
  "$corpus_dir" "$seed_dir" >"$log" 2>&1 || status=$?

echo "---- final stats ($log) ----"
grep -E '^#[0-9]+' "$log" | tail -n 1 || true
grep -E '^stat::' "$log" || true
if [ "$status" -ne 0 ] || grep -qE 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error:|^document_parser_fuzzer: ' "$log"; then
  echo "CRASH FOUND (exit $status):"
  grep -E 'ERROR:|runtime error:|^document_parser_fuzzer: |Test unit written to|SUMMARY:' "$log" | head -n 20
  exit 1
fi
echo "no crash found"
