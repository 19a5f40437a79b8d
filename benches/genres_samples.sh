#!/usr/bin/env bash
# Each puzz.link genre's sample (the sample of pzprjs's test scripts, from
# `somaria genres --json`), timed whole process: `solve` and
# `count --limit 2`, the median of RUNS runs each (default 5), in
# milliseconds. The goal is at most 1 s for the two together.
# Build first with `cargo build --release`.
# Usage: bash benches/genres_samples.sh [RUNS]
set -euo pipefail
RUNS=${1:-5}
BIN=${BIN:-target/release/somaria}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_ms() {
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
printf '| genre | solve (ms) | count --limit 2 (ms) | both (ms) |\n| --- | ---: | ---: | ---: |\n'
"$BIN" genres --json | python3 -c 'import json,sys; [print(g["id"], g["sample"]) for g in json.load(sys.stdin)]' |
while read -r id url; do
  s=$(for _ in $(seq "$RUNS"); do time_ms "$BIN" solve "$url"; done | median)
  c=$(for _ in $(seq "$RUNS"); do time_ms "$BIN" count "$url" --limit 2; done | median)
  printf '| %s | %s | %s | %s |\n' "$id" "$s" "$c" $((s + c))
done
