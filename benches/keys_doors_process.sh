#!/usr/bin/env bash
# Whole-process figures for keys and doors: each engine as a user runs it
# (`somaria solve --engine E MODEL`), on generated 81x81 vaults (one walker
# and four), open rooms with 26 keys and no doors, and the 200x200 maze.
# Prints, per engine and grid, the steps found, the median and worst wall
# time over RUNS runs (default 5) and the largest peak memory, or "timeout" past LIMIT
# seconds (default 30). Needs GNU time at /usr/bin/time.
#
#   bash benches/keys_doors_process.sh [RUNS] [LIMIT]
#
# The figures quoted in the book (docs/src/reference/benchmarks.md) come from one run of this script.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 5 30 "$@" -- --bin somaria --example keys_doors_vault --example keys_doors_room --example keys_doors_maze

for seed in 1 2 3 4 5; do
    target/release/examples/keys_doors_vault "$seed" > "$DIR/vault-$seed.toml"
    target/release/examples/keys_doors_vault "$seed" 4 > "$DIR/vault-$seed-four.toml"
done
for seed in 1 2 3; do
    target/release/examples/keys_doors_room 10 12 26 "$seed" > "$DIR/room-10x12-$seed.toml"
done
target/release/examples/keys_doors_room 16 16 26 1 > "$DIR/room-16x16-1.toml"
target/release/examples/keys_doors_maze 200 200 10 10 1 > "$DIR/maze-200.toml"

# One engine on one model: "steps median_s worst_s peak_MB"; past LIMIT, "timeout"
# with the peak memory reached by then.
measure() {
    local engine=$1 model=$2 times=() peak=0 steps=""
    for _ in $(seq "$RUNS"); do
        local out status=0
        out=$( { /usr/bin/time -f "%e %M" timeout "$LIMIT" "$BIN" solve --format json --engine "$engine" "$model" \
                > "$DIR/out.json"; } 2>&1 ) || status=$?
        local line
        line=$(tail -n 1 <<< "$out")
        local kb=${line##* }
        (( kb > peak )) && peak=$kb
        if (( status != 0 && status != 1 )); then
            echo "timeout - - $((peak / 1024))"
            return
        fi
        times+=("${line% *}")
        steps=$(grep -o '"steps":[0-9]*' "$DIR/out.json" | head -n 1 | cut -d: -f2)
    done
    echo "${steps:-none} $(median_of "${times[@]}") $(worst_of "${times[@]}") $((peak / 1024))"
}

printf '%-22s %-9s %7s %9s %8s %8s\n' model engine steps median_s worst_s peak_MB
run() {
    local model=$1
    shift
    for engine in "$@"; do
        read -r steps median worst peak <<< "$(measure "$engine" "$DIR/$model.toml")"
        printf '%-22s %-9s %7s %9s %8s %8s\n' "$model" "$engine" "$steps" "$median" "$worst" "$peak"
    done
}
for seed in 1 2 3 4 5; do
    run "vault-$seed" keygraph bfs sat-keys
    run "vault-$seed-four" keygraph sat-keys
done
run vault-4 sat
for seed in 1 2 3; do
    run "room-10x12-$seed" keygraph sat-keys bfs
done
run room-16x16-1 keygraph sat-keys
run maze-200 keygraph bfs
