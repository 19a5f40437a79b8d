#!/usr/bin/env bash
# somaria play's speed, from a client's side (curl): the page's load, a
# click answered (an entry made and the board redrawn), and a hint with the
# session warm (its solvers built by a first hint), on the 17-given Sudoku
# and the 10x10 slitherlink. Prints the median and the worst of N tries.
#
#   bash benches/play.sh [SOMARIA] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/somaria} n=${2:-10}
log=$(mktemp)
"$bin" play models --port 0 --timeout 60 >"$log" 2>/dev/null &
server=$!
trap 'kill $server; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q http "$log" && break; sleep 0.1; done
url=$(sed -n 's/.* at \(http[^ ]*\)/\1/p' "$log")
# TIMES...: "median M ms, worst W ms"
summary() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms, worst %.1f ms (%d tries)\n", a[int((NR+1)/2)], a[NR], NR}'; }
ms() { curl -s -o /dev/null -w '%{time_total}\n' "$@" | awk '{print $1 * 1000}'; }
open() { curl -s -X POST -d "{\"model\":\"$1\"}" "${url}api/sessions" | jq -r .session; }
echo "page load (GET / and play.js): $(for _ in $(seq "$n"); do ms "$url"; ms "${url}play.js"; done | summary)"
for model in csp/sudoku-17.toml csp/slitherlink.toml; do
  session=$(open "$model")
  ms -X POST -d '{"reveal":"what"}' "${url}api/sessions/$session/hint" >/dev/null # builds the solvers
  echo "$model warm hint: $(for _ in $(seq "$n"); do ms -X POST -d '{"reveal":"what"}' "${url}api/sessions/$session/hint"; done | summary)"
  cell=$(curl -s "${url}api/sessions/$session" | jq -r '.cells[0].name + "=" + (.cells[0].values[0] | tostring)')
  echo "$model click (enter, board redrawn): $(for _ in $(seq "$n"); do
    ms -X POST -d "{\"enter\":\"$cell\"}" "${url}api/sessions/$session/edit"
    ms -X POST -d '{"undo":true}' "${url}api/sessions/$session/edit"
  done | summary)"
done
