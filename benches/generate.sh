#!/usr/bin/env bash
# Whole-process figures of `somaria generate`: N minimal 9×9 Sudokus (default
# 100) on one job, with the median and worst time per puzzle (from each
# puzzle's own `uniqueness.ms`), the clue counts, and the throughput of the
# same run with --jobs 2; then M minimal 10×10 slitherlinks (default 10) and
# M minimal fans grids of 8×8, against the example generator of the
# slitherlink on the same size; then M 8×8 tile-cover rooms with one route
# (one pass over the walls, and --minimal), against the example tile-room
# generator on the same size; then M 21×21 keys-and-doors vaults with 6 keys
# (one pass, and --minimal), against the example maze generator on the same
# size with a count up to 2 of each maze. Build first with
# `cargo build --release --examples`.
# Usage: bash benches/generate.sh [N] [M]
set -u
N=${1:-100}
M=${2:-10}
BIN=${BIN:-target/release/somaria}
OUT=$(mktemp -d)

stats() {
  # Reads JSON lines; prints the median and worst ms per puzzle and the clues.
  python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ms = sorted(r["uniqueness"]["ms"] for r in rows)
clues = sorted(r["clues"] for r in rows)
checks = sum(r["uniqueness"]["checks"] for r in rows)
med = lambda a: a[(len(a) - 1) // 2]
print(f"{len(rows)} puzzles: median {med(ms) / 1000:.2f} s, worst {ms[-1] / 1000:.2f} s per puzzle; "
      f"clues min {clues[0]}, median {med(clues)}, max {clues[-1]}; {checks} checks")' "$1"
}

wall() {
  # wall OUTFILE COMMAND...: runs COMMAND with its stdout in OUTFILE; prints the seconds.
  local out=$1 start end
  shift
  start=$(date +%s%N)
  "$@" > "$out"
  end=$(date +%s%N)
  echo "scale=2; ($end - $start) / 1000000000" | bc
}

echo "## $N minimal 9×9 Sudokus (models/csp/sudoku-17.toml)"
t1=$(wall "$OUT/s1.jsonl" "$BIN" generate models/csp/sudoku-17.toml --count "$N" --minimal --seed 1 --jobs 1 --format json)
stats "$OUT/s1.jsonl"
t2=$(wall "$OUT/s2.jsonl" "$BIN" generate models/csp/sudoku-17.toml --count "$N" --minimal --seed 1 --jobs 2 --format json)
echo "--jobs 1: $t1 s in all ($(echo "scale=2; $N / $t1" | bc) puzzles/s); --jobs 2: $t2 s ($(echo "scale=2; $N / $t2" | bc) puzzles/s)"
cmp -s <(python3 -c 'import json,sys; [print(json.loads(l)["model"]) for l in open(sys.argv[1])]' "$OUT/s1.jsonl") \
       <(python3 -c 'import json,sys; [print(json.loads(l)["model"]) for l in open(sys.argv[1])]' "$OUT/s2.jsonl") \
  && echo "the two runs made the same puzzles" || echo "THE TWO RUNS DIFFER"

echo
echo "## $M minimal 10×10 slitherlinks (models/csp/slitherlink.toml)"
t=$(wall "$OUT/l.jsonl" "$BIN" generate models/csp/slitherlink.toml --count "$M" --minimal --seed 1 --format json)
stats "$OUT/l.jsonl"
echo "$t s in all"
if [ -x target/release/examples/slitherlink ]; then
  times=$(for s in $(seq 1 "$M"); do wall /dev/null target/release/examples/slitherlink 10 "$s" 2>/dev/null; done | sort -n)
  echo "the example generator (examples/slitherlink.rs, 10 SEED, seeds 1..$M): median $(echo "$times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s, worst $(echo "$times" | tail -1) s"
fi

echo
echo "## $M minimal 8×8 fans grids"
printf 'kind = "fans"\ngrid = """\nF.......\n........\n...F....\n........\n.#....F.\n........\nF.......\n....F..#\n"""\n' > "$OUT/fans8.toml"
t=$(wall "$OUT/f.jsonl" "$BIN" generate "$OUT/fans8.toml" --count "$M" --minimal --seed 1 --format json)
stats "$OUT/f.jsonl"
echo "$t s in all"

echo
echo "## $M 8×8 tile-cover rooms with one route"
printf 'kind = "tile-cover"\ngrid = """\nS.......\n........\n........\n........\n........\n........\n........\n........\n"""\n' > "$OUT/room8.toml"
t=$(wall "$OUT/t.jsonl" "$BIN" generate "$OUT/room8.toml" --count "$M" --seed 1 --format json)
stats "$OUT/t.jsonl"
echo "one pass over the walls: $t s in all"
t=$(wall "$OUT/tm.jsonl" "$BIN" generate "$OUT/room8.toml" --count "$M" --seed 1 --minimal --format json)
stats "$OUT/tm.jsonl"
echo "--minimal: $t s in all"
if [ -x target/release/examples/tile_room ]; then
  # The example makes a scattered room and proves nothing: its time, with
  # a count up to 2 of each room, and how many have one route.
  times=$(for s in $(seq 1 "$M"); do
    target/release/examples/tile_room 8 20 "$s" > "$OUT/ex$s.toml" 2>/dev/null
    wall /dev/null "$BIN" count "$OUT/ex$s.toml" --limit 2
  done | sort -n)
  unique=$(for s in $(seq 1 "$M"); do
    "$BIN" count "$OUT/ex$s.toml" --limit 2 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("count"))'
  done | grep -c '^1$')
  echo "examples/tile_room 8 20 SEED, then count --limit 2 (seeds 1..$M): median $(echo "$times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s, worst $(echo "$times" | tail -1) s; $unique of $M rooms have one route"
fi

echo
echo "## $M 21×21 keys-and-doors vaults with 6 keys and one fewest-steps route"
cargo run -q --release --example keys_doors_maze -- 21 21 6 0 1 > "$OUT/vault21.toml" 2>/dev/null \
  || target/release/examples/keys_doors_maze 21 21 6 0 1 > "$OUT/vault21.toml"
t=$(wall "$OUT/k.jsonl" "$BIN" generate "$OUT/vault21.toml" --count "$M" --seed 1 --format json)
stats "$OUT/k.jsonl"
python3 -c '
import json, sys
steps = sorted(json.loads(l)["measure"]["value"] for l in open(sys.argv[1]))
print(f"fewest steps min {steps[0]}, median {steps[(len(steps) - 1) // 2]}, max {steps[-1]}")' "$OUT/k.jsonl"
echo "one pass over the drawn walls: $t s in all"
t=$(wall "$OUT/km.jsonl" "$BIN" generate "$OUT/vault21.toml" --count "$M" --seed 1 --minimal --format json)
stats "$OUT/km.jsonl"
echo "--minimal: $t s in all"
if [ -x target/release/examples/keys_doors_maze ]; then
  # The example draws a maze with 10% loops and proves nothing: its time,
  # with a count up to 2 of each maze, and how many have one route.
  times=$(for s in $(seq 1 "$M"); do
    target/release/examples/keys_doors_maze 21 21 6 10 "$s" > "$OUT/kx$s.toml" 2>/dev/null
    wall /dev/null "$BIN" count "$OUT/kx$s.toml" --limit 2
  done | sort -n)
  unique=$(for s in $(seq 1 "$M"); do
    "$BIN" count "$OUT/kx$s.toml" --limit 2 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("count"))'
  done | grep -c '^1$')
  echo "examples/keys_doors_maze 21 21 6 10 SEED, then count --limit 2 (seeds 1..$M): median $(echo "$times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s, worst $(echo "$times" | tail -1) s; $unique of $M mazes have one route"
fi
rm -rf "$OUT"
