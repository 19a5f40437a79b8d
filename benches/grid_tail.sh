#!/usr/bin/env bash
# The tail of the grid puzzles (issue 23). Sets of puzzles, each timed whole
# process with `facts`, `count --limit 2` and `solve`, per backend (varisat,
# and cadical when the binary was built with `--features cadical`): the
# median, the 90th percentile and the worst wall time, and the median and
# worst SAT calls.
#   sl10, sl15, sl20  N minimal slitherlinks a size (default 5), made by
#                     `somaria generate --minimal --seed 1` from an all-blank
#                     template that `somaria import` writes;
#   sl20d3            each 20×20 of sl20 with 3 clues dropped (several
#                     solutions);
#   grow              one slitherlink each at 10×10, 20×20, 25×25, 30×30 and
#                     40×40 (a random loop, 60% of its clues), for the growth
#                     with size;
#   nk10              M 10×10 nurikabes (default 5) from examples/nurikabe.rs
#                     (10 10 SEED --max-island 6);
#   puzzlink          public puzz.link slitherlinks and nurikabes (the ones
#                     tests/genres/puzzlink.rs checks, and a 30×20 nurikabe),
#                     written as models by `somaria import`.
# With CSPUZ set to a program that takes a puzz.link URL and prints cspuz's
# irrefutable facts (see the book's benchmarks page), each puzzle is also
# written as a URL and cspuz's time is given beside somaria's `facts`.
#
# The puzzles are kept in DIR (default target/grid-tail), so a second run
# times the same puzzles without making them again. Commands that run past
# LIMIT seconds (default 120) count as LIMIT and are marked with `>`.
# Build first with `cargo build --release --examples` (and `--features
# cadical` for the second backend).
# Usage: bash benches/grid_tail.sh [N] [M] [DIR]
set -u
N=${1:-5}
M=${2:-5}
DIR=${3:-target/grid-tail}
BIN=${BIN:-target/release/somaria}
NURIKABE=${NURIKABE:-target/release/examples/nurikabe}
LIMIT=${LIMIT:-120}
CSPUZ=${CSPUZ:-}
mkdir -p "$DIR"

# An all-blank slitherlink of SIZE × SIZE, as a template for `generate`.
template() {
  local size=$1 blanks body=""
  blanks=$((size * size))
  while [ "$blanks" -gt 0 ]; do
    if [ "$blanks" -ge 20 ]; then body="${body}z"; blanks=$((blanks - 20)); else
      body="$body$(printf "\\$(printf '%03o' $((102 + blanks)))")"; blanks=0; fi
  done
  "$BIN" import "https://puzz.link/p?slither/$size/$size/$body" -o "$DIR/slitherlink-$size.toml" > /dev/null
}

for size in 10 15 20; do
  made=$(ls "$DIR"/sl$size/*.toml 2>/dev/null | wc -l)
  if [ "$made" -lt "$N" ]; then
    template "$size"
    rm -rf "$DIR/sl$size"
    "$BIN" generate "$DIR/slitherlink-$size.toml" --count "$N" --minimal --seed 1 -o "$DIR/sl$size" > /dev/null
  fi
done
# The growth set: a random region of about half the cells, grown a cell at
# a time so that its boundary stays one loop, gives every clue; 40% of the
# clues are dropped at random (seeded by the size), so a puzzle may have
# several solutions. `generate` would make unique ones, but a 20×20 takes it
# many minutes.
if [ ! -d "$DIR/grow" ]; then
  mkdir -p "$DIR/grow"
  for size in 10 20 25 30 40; do
    url=$(python3 - "$size" <<'EOF'
import random, sys
n = int(sys.argv[1])
rng = random.Random(n)
inside = [[False] * n for _ in range(n)]
inside[n // 2][n // 2] = True
ring = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
def at(r, c):
    return 0 <= r < n and 0 <= c < n and inside[r][c]
def simple(r, c):
    # Adding (r, c) keeps one loop when the region's cells among its eight
    # neighbours form one run round it that holds a side neighbour.
    marks = [at(r + dr, c + dc) for dr, dc in ring]
    runs = sum(1 for k in range(8) if marks[k] and not marks[k - 1])
    return runs == 1 and any(marks[k] for k in (1, 3, 5, 7)) and not all(marks)
size = 1
while size < n * n // 2:
    r, c = rng.randrange(n), rng.randrange(n)
    if not inside[r][c] and simple(r, c):
        inside[r][c] = True
        size += 1
def clue(r, c):
    return sum(at(r, c) != at(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
cells = [clue(r, c) if rng.random() >= 0.4 else -1 for r in range(n) for c in range(n)]
body, k = "", 0
while k < len(cells):
    if cells[k] < 0:
        run = 0
        while k < len(cells) and cells[k] < 0 and run < 20:
            run += 1; k += 1
        body += chr(ord("f") + run); continue
    after = 0
    while after < 2 and k + 1 + after < len(cells) and cells[k + 1 + after] < 0:
        after += 1
    body += "0123456789abcde"[cells[k] + 5 * after]; k += 1 + after
print(f"https://puzz.link/p?slither/{n}/{n}/{body}")
EOF
)
    "$BIN" import "$url" -o "$DIR/grow/slitherlink-$size.toml" > /dev/null
  done
fi
mkdir -p "$DIR/sl20d3"
python3 - "$DIR/sl20" "$DIR/sl20d3" <<'EOF'
import glob, random, re, sys
for path in sorted(glob.glob(sys.argv[1] + "/*.toml")):
    text = open(path).read()
    m = re.search(r'clue = """\[\|(.*?)\|\]"""', text, re.S)
    grid = [[int(x) for x in row.split(",")] for row in m.group(1).split("|") if row.strip()]
    cells = [(i, j) for i, row in enumerate(grid) for j, x in enumerate(row) if x >= 0]
    for i, j in random.Random(path.rsplit("/", 1)[1]).sample(cells, 3):
        grid[i][j] = -1
    body = " |\n".join("  " + ", ".join(map(str, row)) for row in grid)
    out = text[:m.start()] + 'clue = """[|\n' + body + ' |]"""' + text[m.end():]
    open(sys.argv[2] + "/" + path.rsplit("/", 1)[1], "w").write(out)
EOF
made=$(ls "$DIR"/nk10/*.toml 2>/dev/null | wc -l)
if [ "$made" -lt "$M" ]; then
  mkdir -p "$DIR/nk10"
  for s in $(seq 1 "$M"); do
    "$NURIKABE" 10 10 "$s" --max-island 6 > "$DIR/nk10/nurikabe-$s.toml" 2>/dev/null || rm -f "$DIR/nk10/nurikabe-$s.toml"
  done
fi
mkdir -p "$DIR/puzzlink"
i=0
for url in \
  "https://puzz.link/p?slither/12/10/6b2b76cbbc6ah7656d76dd1dcg6bh56b516b8dcc6bgbbg62d0a3c" \
  "https://puzz.link/p?slitherlink/9/9/233333332dk388583d8d38cg73d7c38212173d7c3721317c" \
  "https://puzz.link/p?slither/6/10/h1dgadddg1cgdddcg2cgddbdg1d" \
  "https://puzz.link/p?slither/10/10/g188227cl1dg367bdcg3ddgbhdgd1agbd760dg2cl633661d" \
  "https://puzz.link/p?slither/18/10/i61ch28cg16dg122cg63bi3ah1di2dcg0bgb1bc6c8bchd8b6cd1cbg2cgb3ci1dh3ci18dg132bg72bg82bh36dg" \
  "https://puzz.link/p?nurikabe/6/6/m8n8i9u" \
  "https://puzz.link/p?nurikabe/10/10/1k4u1j7i3r6y1w-11m3n2" \
  "https://puzz.link/p?nurikabe/10/10/zh3j5t3g3hat3g3h9zr" \
  "https://puzz.link/p?nurikabe/18/10/w3g8k1i4n1k5j1i1k9r1l2n3j3n9t1l2h2i1j5h2j7l4n6y" \
  "https://puzz.link/p?nurikabe/30/20/h4gbh7i-12j2m8h3r4u1i2zufgczger1h6l1zr2t1j3kal2zzj1m3zjdk3l1h4u2o3k3zq3t5i1keq9r3zk3g7zczj-10zz3g2j1r3g8j2p4h-10rcj1g5k1"; do
  i=$((i + 1))
  kind=${url#*\?}
  kind=${kind%%/*}
  "$BIN" import "$url" -o "$DIR/puzzlink/$(printf '%02d' $i)-$kind.toml" > /dev/null
done

backends="varisat"
if "$BIN" solve "$DIR/nk10/nurikabe-1.toml" --solver cadical > /dev/null 2>&1; then
  backends="varisat cadical"
fi

# The puzz.link URL of a slitherlink or nurikabe model written by the
# layouts above (for cspuz): read back from the model's clues.
url_of() {
  python3 - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"^# Decoded from (\S+)", text, re.M)
if m:
    print(m.group(1)); sys.exit()
def blanks(n):
    out = ""
    while n > 0:
        out += chr(ord("f") + min(n, 20)); n -= min(n, 20)
    return out
if "grid_loop" in text:
    m = re.search(r'clue = """\[\|(.*?)\|\]"""', text, re.S)
    grid = [[int(x) for x in row.split(",")] for row in m.group(1).split("|") if row.strip()]
    cells = [x for row in grid for x in row]
    body, k = "", 0
    while k < len(cells):
        if cells[k] < 0:
            n = 0
            while k < len(cells) and cells[k] < 0:
                n += 1; k += 1
            body += blanks(n); continue
        after = 0
        while after < 2 and k + 1 + after < len(cells) and cells[k + 1 + after] < 0:
            after += 1
        body += "0123456789abcde"[cells[k] + 5 * after]; k += 1 + after
    print(f"https://puzz.link/p?slither/{len(grid[0])}/{len(grid)}/{body}")
else:
    rows = int(re.search(r"^rows = (\d+)", text, re.M).group(1))
    cols = int(re.search(r"^cols = (\d+)", text, re.M).group(1))
    clues = {(int(r), int(c)): int(n) for r, c, n in re.findall(r"\[(\d+), (\d+), (\d+)\]", text)}
    body, n = "", 0
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            if (r, c) in clues:
                body += blanks(n); n = 0
                v = clues[(r, c)]
                body += format(v, "x") if v < 16 else "-" + format(v, "02x")
            else:
                n += 1
    body += blanks(n)
    print(f"https://puzz.link/p?nurikabe/{cols}/{rows}/{body}")
EOF
}

# Wall milliseconds of one command, at most LIMIT seconds; what it printed
# on stdout goes to the file $OUT.
OUT=$(mktemp)
timed() {
  local start end
  start=$(date +%s%N)
  timeout "$LIMIT" "$@" > "$OUT" 2> /dev/null
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

# One line per set of puzzles, command and backend: wall seconds (median,
# 90th percentile, worst) and SAT calls (median, worst).
measure() {
  local set=$1 backend=$2 name=$3
  shift 3
  local f ms calls
  for f in "$DIR/$set"/*.toml; do
    ms=$(timed "$BIN" "$@" "$f" --solver "$backend" --format json)
    calls=$(python3 < "$OUT" -c 'import json,sys; print(json.load(sys.stdin)["stats"]["sat_calls"])' 2> /dev/null || echo -1)
    echo "$ms $calls"
  done | summarize "$set" "$name" "$backend"
}

# The same line for cspuz's irrefutable facts (no SAT calls to give).
measure_cspuz() {
  local set=$1 f ms
  for f in "$DIR/$set"/*.toml; do
    ms=$(timed "$CSPUZ" "$(url_of "$f")")
    echo "$ms -1"
  done | summarize "$set" facts cspuz
}

summarize() {
  python3 -c '
import os, sys
limit = int(os.environ["LIMIT"]) * 1000
rows = [tuple(map(int, l.split())) for l in sys.stdin]
ms = sorted(min(r[0], limit) for r in rows)
calls = sorted(r[1] for r in rows if r[1] >= 0)
at = lambda a, q: a[min(len(a) - 1, int(q * len(a) + 0.999) - 1)]
s = lambda v: (">" if v >= limit else "") + f"{v / 1000:.2f} s"
c = f"{at(calls, 0.5)} / {calls[-1]}" if calls else "-"
print(f"| {sys.argv[1]} | {sys.argv[2]} | {sys.argv[3]} | {len(rows)} | {s(at(ms, 0.5))} | {s(at(ms, 0.9))} | {s(ms[-1])} | {c} |")' "$@"
}
export LIMIT

echo "| puzzles | command | backend | n | median | 90th pct | worst | SAT calls, median / worst |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for set in sl10 sl15 sl20 sl20d3 grow nk10 puzzlink; do
  for backend in $backends; do
    measure "$set" "$backend" facts facts
    measure "$set" "$backend" "count --limit 2" count --limit 2
    measure "$set" "$backend" solve solve
  done
  if [ -n "$CSPUZ" ]; then
    measure_cspuz "$set"
  fi
done
# The growth with size, one line per puzzle: facts on each backend.
echo
echo "| slitherlink | $(echo $backends | sed 's/ / | /g') |$( [ -n "$CSPUZ" ] && echo ' cspuz |')"
echo "| --- |$(for b in $backends; do printf ' ---: |'; done)$( [ -n "$CSPUZ" ] && echo ' ---: |')"
for f in "$DIR"/grow/*.toml; do
  line="| $(basename "$f" .toml) |"
  for backend in $backends; do
    ms=$(timed "$BIN" facts "$f" --solver "$backend" --format json)
    line="$line $(python3 -c "print(f'{$ms / 1000:.2f} s')") |"
  done
  if [ -n "$CSPUZ" ]; then
    ms=$(timed "$CSPUZ" "$(url_of "$f")")
    line="$line $(python3 -c "print(f'{$ms / 1000:.2f} s')") |"
  fi
  echo "$line"
done
