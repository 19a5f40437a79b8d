#!/usr/bin/env bash
# Whole-process times of `somaria steps` and one `somaria hint` on the
# issue's models: the median of RUNS runs (default 3), each stopped after
# LIMIT seconds (default 60). Prints a Markdown table. Build first with
# `cargo build --release`. Usage: bash benches/steps_process.sh [RUNS] [LIMIT]
# BIN=path/to/somaria compares another build (such as main's) on the same
# machine. Times are wall-clock seconds (user CPU seconds with CPU=1): the
# median, then the worst run.
set -u
RUNS=${1:-3}
LIMIT=${2:-60}
BIN=${BIN:-target/release/somaria}
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.time"' EXIT
MODELS=${MODELS:-"models/csp/sudoku-17.toml models/csp/sudoku-hardest.toml models/csp/zebra.toml models/akh-vaquot.toml
models/csp/akh-vaquot.toml models/csp/slitherlink.toml models/csp/nurikabe.toml models/heros-cave-somaria.toml"}

# The median and the worst of the runs, as "median / worst"; "timeout" once
# any run was stopped.
median() { sort -n | awk '{a[NR]=$1} /timeout/ {t=1} END {print (t ? "timeout" : (NR ? a[int((NR+1)/2)] " / " a[NR] : "-"))}'; }

# One run's wall-clock seconds, or with CPU=1 its user CPU seconds (what
# counts on a machine shared with other work).
seconds() {
  local code times
  /usr/bin/time -o "$OUT.time" -f "%e %U" timeout "$LIMIT" "$BIN" "$@" --format json > "$OUT" 2>/dev/null
  times=$(tail -1 "$OUT.time")
  code=$(python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" 2>/dev/null && echo ok)
  if [ "$code" != ok ]; then echo "timeout"; elif [ "${CPU:-0}" = 1 ]; then echo "${times#* }"; else echo "${times% *}"; fi
}

echo "| model | steps (s), median / worst | status | steps, largest, total, multi | SAT calls | hint (s), median / worst |"
echo "| --- | --- | --- | --- | --- | --- |"
for m in $MODELS; do
  steps=$(for _ in $(seq "$RUNS"); do seconds steps "$m"; done | median)
  if [ "$steps" = "timeout" ]; then
    summary="stopped after ${LIMIT} s | - | -"
  else
    summary=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
d = r.get("difficulty", {})
print(r["status"], "|", d.get("steps"), d.get("largest"), d.get("total"), d.get("multi_rule_steps"), "|", r["stats"]["sat_calls"])' "$OUT")
  fi
  hint=$(for _ in $(seq "$RUNS"); do seconds hint "$m"; done | median)
  echo "| $m | $steps | $summary | $hint |"
done
