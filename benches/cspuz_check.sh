#!/usr/bin/env bash
# somaria's answers against cspuz's, for every puzzle both read (issue
# 38's cross-check; a bench-side check because cspuz is not in the
# project): each genre's sample (from `somaria genres --json`) and the
# puzzles of a URL list. Per puzzle:
#   - the verdict: somaria's `count --limit 2` (0, 1, 2) against cspuz's
#     "No Answer", "Unique", "Not unique";
#   - the cells: where somaria's answer is one 2-D array of the puzzle's
#     size, its values against the cells cspuz decides (its green items at
#     cell centres: a number for a number, a block, fill or circle for
#     true and a dot for false). A genre whose array means something else
#     than cspuz's marks (which cell holds what) shows as disagreeing
#     cells there, not as a wrong answer: the verdict is the check.
# A table, one row per puzzle, and the totals.
#
#   CSPUZ  cspuz_core's `run_solver` (built from semiexp/cspuz_core,
#          outside this repository), which takes a puzz.link URL and prints
#          the uniqueness, or with --json the decided cells.
#   URLS   a file of more puzzles, one `GENRE URL` (or `GENRE SIZE URL`)
#          a line; genres somaria does not read are left out.
#
# Usage: CSPUZ=... [URLS=...] bash benches/cspuz_check.sh [LIMIT]
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 1 "${1:-60}" --
: "${CSPUZ:?set CSPUZ to the run_solver program of cspuz_core}"
URLS=${URLS:-}

{
    "$BIN" genres --json | python3 -c 'import json,sys; [print(g["id"], g["sample"]) for g in json.load(sys.stdin)]'
    [[ -n $URLS ]] && awk '{print $1, $NF}' "$URLS"
} > "$DIR/jobs"

BIN=$BIN CSPUZ=$CSPUZ LIMIT=$LIMIT python3 - "$DIR/jobs" <<'EOF'
import json, os, subprocess, sys

BIN, CSPUZ, LIMIT = os.environ["BIN"], os.environ["CSPUZ"], float(os.environ["LIMIT"])

def run(*args):
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=LIMIT)
        return out.returncode, out.stdout, out.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"

def cspuz(url):
    _, text, err = run(CSPUZ, url)
    if "Error" in err or "Answer Status" not in text:
        return None, None
    verdict = {"No Answer": 0, "Unique": 1, "Not unique": 2}[text.split("Answer Status: ")[1].strip()]
    _, board, _ = run(CSPUZ, "--json", url)
    cells = {}
    try:
        items = json.loads(board).get("data", [])
    except json.JSONDecodeError:
        items = []
    for item in items:
        y, x, what = item["y"], item["x"], item["item"]
        if item.get("color") != "green" or y % 2 == 0 or x % 2 == 0:
            continue
        kind = what if isinstance(what, str) else what.get("kind")
        value = None
        if kind == "text" and str(what.get("data", "")).lstrip("-").isdigit():
            value = int(what["data"])
        elif kind in ("block", "fill", "circle"):
            value = True
        elif kind == "dot":
            value = False
        if value is not None:
            cells[(y // 2, x // 2)] = value
    return verdict, cells

def somaria(url):
    status, text, _ = run(BIN, "count", "--limit", "2", "--format", "json", url)
    if status is None:
        return "timeout", None
    if status != 0:
        return None, None
    count = json.loads(text)["count"]
    arrays = []
    if count >= 1:
        _, solved, _ = run(BIN, "solve", "--format", "json", url)
        solution = json.loads(solved).get("solution") or {}
        arrays = [v for v in solution.values() if isinstance(v, list) and v and isinstance(v[0], list)]
    return min(count, 2), arrays

def compare(arrays, cells):
    """Cells compared and agreeing, for the one array whose size fits."""
    if not cells:
        return None
    rows = max(r for r, _ in cells) + 1
    fitting = [a for a in arrays if len(a) >= rows]
    if len(fitting) != 1:
        return None
    array, same, seen = fitting[0], 0, 0
    for (r, c), want in cells.items():
        if r < len(array) and c < len(array[r]) and type(array[r][c]) is type(want):
            seen += 1
            same += array[r][c] == want
    return (same, seen) if seen else None

words = {0: "none", 1: "unique", 2: "several", "timeout": "timeout"}
print("| puzzle | somaria | cspuz | same verdict | cells agreeing |")
print("| --- | --- | --- | --- | ---: |")
puzzles, agree, differ, cells_same, cells_seen = 0, 0, [], 0, 0
for line in open(sys.argv[1]):
    genre, url = line.split()
    theirs, cells = cspuz(url)
    if theirs is None:
        continue
    ours, arrays = somaria(url)
    if ours is None:
        continue
    puzzles += 1
    if ours == theirs:
        agree += 1
    else:
        differ.append(genre)
    compared = compare(arrays, cells) if ours == theirs == 1 else None
    if compared:
        cells_same += compared[0]
        cells_seen += compared[1]
    parts = url.split("?", 1)[1].split("/")
    size = next((f"{a}x{b}" for a, b in zip(parts, parts[1:]) if a.isdigit() and b.isdigit()), "?")
    shown = f"{compared[0]}/{compared[1]}" if compared else "-"
    print(f"| {genre} {size} | {words[ours]} | {words[theirs]} | {'yes' if ours == theirs else 'NO'} | {shown} |", flush=True)
print(f"\n{puzzles} puzzles both read: the same verdict on {agree}", end="")
print(f" (differing: {', '.join(differ)})" if differ else "", end="")
print(f"; {cells_same} of {cells_seen} cells compared agree")
EOF
