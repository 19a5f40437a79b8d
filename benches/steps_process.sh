#!/usr/bin/env bash
# Whole-process times of `somaria steps` and one `somaria hint` on the
# issue's models: the median of RUNS runs (default 3), each stopped after
# LIMIT seconds (default 60). Prints a Markdown table. Build first with
# `cargo build --release`. Usage: bash benches/steps_process.sh [RUNS] [LIMIT]
set -u
RUNS=${1:-3}
LIMIT=${2:-60}
BIN=target/release/somaria
MODELS="models/csp/sudoku-17.toml models/csp/sudoku-hardest.toml models/csp/zebra.toml models/akh-vaquot.toml
models/csp/akh-vaquot.toml models/csp/slitherlink.toml models/csp/nurikabe.toml models/heros-cave-somaria.toml"

median() { sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "-")}'; }

seconds() {
  local start end code
  start=$(date +%s%N)
  timeout "$LIMIT" "$BIN" "$@" --format json > /tmp/steps_bench.json 2>/dev/null
  code=$?
  end=$(date +%s%N)
  if [ "$code" = 124 ]; then echo "timeout"; else echo "scale=3; ($end - $start) / 1000000000" | bc; fi
}

echo "| model | steps (s) | status | steps, largest, total, multi | SAT calls | hint (s) |"
echo "| --- | --- | --- | --- | --- | --- |"
for m in $MODELS; do
  steps=$(for _ in $(seq "$RUNS"); do seconds steps "$m"; done | median)
  if [ "$steps" = "timeout" ]; then
    summary="stopped after ${LIMIT} s | - | -"
  else
    summary=$(python3 -c '
import json
r = json.load(open("/tmp/steps_bench.json"))
d = r.get("difficulty", {})
print(r["status"], "|", d.get("steps"), d.get("largest"), d.get("total"), d.get("multi_rule_steps"), "|", r["stats"]["sat_calls"])')
  fi
  hint=$(for _ in $(seq "$RUNS"); do seconds hint "$m"; done | median)
  echo "| $m | $steps | $summary | $hint |"
done
