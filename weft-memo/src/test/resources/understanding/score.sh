#!/usr/bin/env bash
# Scores Memo's understanding on the held-out sets beside this script (or the files given): each set is
# turned into `weft memo ask --batch` input (every request at Tuesday 24 Nov 2026 10:00,
# Asia/Jerusalem, by a user of its own), asked in PREVIEW mode from a fresh WEFT_HOME, and scored by
# UnderstandingScore. Usage: score.sh [HELDOUT.jsonl ...]   (KEEP=1 keeps the batch results)
set -euo pipefail
HERE="$(cd "$(dirname "$(readlink -f "$0")")" && pwd)"
ROOT="$(cd "$HERE/../../../../.." && pwd)"
. "$ROOT/bin/find-jdk.sh"
weft_find_jdk || exit 2
SCORER="$ROOT/weft-memo/src/test/java/dev/weft/memo/UnderstandingScore.java"
[ "$#" -gt 0 ] || set -- "$HERE/heldout-en.jsonl" "$HERE/heldout-he.jsonl"
# SETS=all scores every set beside this script, each on its own (reads planned as changes per set).
if [ "${SETS:-}" = all ]; then
  for set in heldout-en heldout-he fresh-en fresh-he untuned-en untuned-he spoken-en spoken-he safety-en safety-he probes-en probes-he; do
    echo "== $set"
    { SETS= "$0" "$HERE/$set.jsonl" || true; } | head -n 8 || true
  done
  exit 0
fi

WORK="$(mktemp -d)"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
export WEFT_HOME="$WORK/home"
mkdir -p "$WEFT_HOME"

"$ROOT/bin/weft" --help >/dev/null # builds the CLI jar if the sources changed
JAR="$ROOT/weft-cli/target/weft.jar"
score() { "$JAVA_HOME/bin/java" -cp "$JAR" "$SCORER" "$@"; }

# Asks Memo every request of batch file $1 into results file $2, one result line each. A request that
# crashes the command gets an error line of its own (code CRASH), and the batch goes on after it.
ask_all() {
  local batch="$1" results="$2" total answered message
  total="$(grep -c . "$batch" || true)"
  : >"$results"
  while answered="$(grep -c . "$results" || true)"; [ "$answered" -lt "$total" ]; do
    tail -n +"$((answered + 1))" "$batch" >"$WORK/rest.jsonl"
    "$ROOT/bin/weft" memo ask --batch "$WORK/rest.jsonl" --json --mode preview >>"$results" 2>"$WORK/stderr" || true
    answered="$(grep -c . "$results" || true)"
    if [ "$answered" -lt "$total" ]; then
      message="$(grep -v '^[[:space:]]*at ' "$WORK/stderr" | head -n 1 | tr -d '\000-\037' | sed 's/\\/\\\\/g; s/"/\\"/g')"
      echo "score.sh: line $((answered + 1)) of $(basename "$batch") crashed memo ask: $message" >&2
      printf '{"error":{"code":"CRASH","message":"%s"}}\n' "$message" >>"$results"
    fi
  done
}

pairs=()
for set in "$@"; do
  name="$(basename "$set" .jsonl)"
  score batch "$set" >"$WORK/$name.batch.jsonl"
  ask_all "$WORK/$name.batch.jsonl" "$WORK/$name.results.jsonl"
  pairs+=("$set" "$WORK/$name.results.jsonl")
done
score score "${pairs[@]}"
[ -z "${KEEP:-}" ] || echo "batch input and results kept in $WORK" >&2
