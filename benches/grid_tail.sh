#!/usr/bin/env bash
# The tail of the grid puzzles (issue 23): N minimal slitherlinks at 10×10,
# 15×15 and 20×20 (default 5 each), made by `somaria generate --minimal`
# from templates of those sizes written from models/csp/slitherlink.toml,
# and M 10×10 nurikabes (default 5) from examples/nurikabe.rs (10 10 SEED
# --max-island 6); then, whole process, the median, the 90th percentile and
# the worst of `facts`, `count --limit 2` and `solve` on each, for varisat
# and, when the binary was built with `--features cadical`, for cadical.
# Each line also gives the median and worst SAT calls of the command.
#
# The puzzles are kept in DIR (default target/grid-tail), so a second run
# times the same puzzles without making them again; generating is most of a
# first run (a minimal 15×15 takes about half a minute).
# Build first with `cargo build --release --examples` (and `--features
# cadical` for the second backend).
# Usage: bash benches/grid_tail.sh [N] [M] [DIR]
set -u
N=${1:-5}
M=${2:-5}
DIR=${3:-target/grid-tail}
BIN=${BIN:-target/release/somaria}
NURIKABE=${NURIKABE:-target/release/examples/nurikabe}
mkdir -p "$DIR"

# A slitherlink template of SIZE × SIZE with no clues: the 10×10 model with
# its index ranges, its drawing and its clue grid made that size.
template() {
  python3 - "$1" > "$DIR/slitherlink-$1.toml" <<'EOF'
import re, sys
n = int(sys.argv[1])
text = open("models/csp/slitherlink.toml").read()
text = text[text.index('kind = "csp"'):]
grid = " |\n".join("  " + ", ".join(["-1"] * n) for _ in range(n))
text = re.sub(r'clue = """\[\|.*?\|\]"""', lambda _: 'clue = """[|\n' + grid + ' |]"""', text, flags=re.S)
text = text.replace('"0..10"', f'"0..{n}"').replace('"0..9"', f'"0..{n - 1}"').replace("1..10", f"1..{n}")
text = text.replace("Slitherlink 10 × 10", f"Slitherlink {n} × {n}")
text = text.replace("rows = 10", f"rows = {n}").replace("cols = 10", f"cols = {n}")
print(text, end="")
EOF
}

for size in 10 15 20; do
  made=$(ls "$DIR"/sl$size/*.toml 2>/dev/null | wc -l)
  if [ "$made" -lt "$N" ]; then
    template "$size"
    rm -rf "$DIR/sl$size"
    "$BIN" generate "$DIR/slitherlink-$size.toml" --count "$N" --minimal --seed 1 -o "$DIR/sl$size" > /dev/null
  fi
done
made=$(ls "$DIR"/nk10/*.toml 2>/dev/null | wc -l)
if [ "$made" -lt "$M" ]; then
  mkdir -p "$DIR/nk10"
  for s in $(seq 1 "$M"); do
    "$NURIKABE" 10 10 "$s" --max-island 6 > "$DIR/nk10/nurikabe-$s.toml" 2>/dev/null
  done
fi

backends="varisat"
if "$BIN" solve "$DIR/nk10/nurikabe-1.toml" --solver cadical > /dev/null 2>&1; then
  backends="varisat cadical"
fi

# One line per set of puzzles, command and backend: wall seconds (median,
# 90th percentile, worst) and SAT calls (median, worst).
measure() {
  local set=$1 backend=$2 name=$3
  shift 3
  local f start end
  for f in $(ls "$DIR/$set"/*.toml | head -n "$LIMIT"); do
    start=$(date +%s%N)
    calls=$("$BIN" "$@" "$f" --solver "$backend" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["stats"]["sat_calls"])')
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 )) $calls"
  done | python3 -c '
import sys
rows = [tuple(map(int, l.split())) for l in sys.stdin]
ms = sorted(r[0] for r in rows)
calls = sorted(r[1] for r in rows)
at = lambda a, q: a[min(len(a) - 1, int(q * len(a) + 0.999) - 1)]
print(f"| {sys.argv[1]} | {sys.argv[2]} | {sys.argv[3]} | {len(rows)} | {at(ms, 0.5) / 1000:.2f} s | {at(ms, 0.9) / 1000:.2f} s "
      f"| {ms[-1] / 1000:.2f} s | {at(calls, 0.5)} / {calls[-1]} |")' "$set" "$name" "$backend"
}

echo "| puzzles | command | backend | n | median | 90th pct | worst | SAT calls, median / worst |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for set in sl10 sl15 sl20 nk10; do
  case $set in nk10) LIMIT=$M ;; *) LIMIT=$N ;; esac
  for backend in $backends; do
    measure "$set" "$backend" facts facts
    measure "$set" "$backend" "count --limit 2" count --limit 2
    measure "$set" "$backend" solve solve
  done
done
