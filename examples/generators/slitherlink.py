#!/usr/bin/env python3
"""Makes a unique slitherlink as a somaria csp model.

    python3 examples/generators/slitherlink.py N SEED OUT.toml [ENGINE]

A random loop (the boundary of a random region of cells grown from one
cell, with no holes and never touching itself at a corner), every clue,
then clues dropped in random order while `somaria count --limit 2` still
finds exactly one solution. A count that takes longer than BUDGET seconds
(environment, default 3) keeps its clue, so that the puzzle stays quick to
prove unique. SOMARIA names the binary (default target/release/somaria).
"""
import random, subprocess, sys, json

SOMARIA = __import__("os").environ.get("SOMARIA", "target/release/somaria")
BUDGET = float(__import__("os").environ.get("BUDGET", "3"))

def region(n, rng, fill):
    inside = set()
    start = (rng.randrange(n), rng.randrange(n))
    inside.add(start)
    def ok(cell):
        # outside (with the border ring) stays connected; no diagonal touch
        new = inside | {cell}
        # 2x2 checks around cell
        r, c = cell
        for dr in (-1, 0):
            for dc in (-1, 0):
                block = [(r+dr+a, c+dc+b) for a in (0,1) for b in (0,1)]
                pat = [x in new for x in block]
                if pat == [True, False, False, True] or pat == [False, True, True, False]:
                    return False
        # outside connectivity, with cells beyond the grid as outside
        outs = [(i, j) for i in range(-1, n+1) for j in range(-1, n+1) if (i, j) not in new]
        outset = set(outs)
        seen = {outs[0]}
        stack = [outs[0]]
        while stack:
            i, j = stack.pop()
            for q in ((i+1,j),(i-1,j),(i,j+1),(i,j-1)):
                if q in outset and q not in seen:
                    seen.add(q); stack.append(q)
        return len(seen) == len(outs)
    target = int(n * n * fill)
    tries = 0
    while len(inside) < target and tries < 200000:
        tries += 1
        r, c = rng.choice(sorted(inside))
        dr, dc = rng.choice(((1,0),(-1,0),(0,1),(0,-1)))
        cell = (r+dr, c+dc)
        if not (0 <= cell[0] < n and 0 <= cell[1] < n) or cell in inside:
            continue
        if ok(cell):
            inside.add(cell)
    return inside

def clues_of(n, inside):
    return [[sum(((r, c) in inside) != (q in inside) for q in ((r-1,c),(r+1,c),(r,c-1),(r,c+1))) for c in range(n)] for r in range(n)]

HEADER = '''# Slitherlink, {n} × {n}: draw one closed loop along the grid lines, never
# crossing or touching itself, so that each number tells how many of the four
# sides of its cell the loop runs along. Made by examples/generators/slitherlink.py
# {n} {seed} (a random loop, every clue, then clues dropped while somaria
# counts one solution).
#
# The loop runs on the lattice of cell corners, not on the cells: a grid of
# {n} × {n} cells has {m} × {m} corners, indexed 0..{n} here so that cell (i, j)
# (1..{n}) has the corners (i-1, j-1) and (i, j) at its top left and bottom
# right. `grid_loop(on, across, down)` takes
#   - `on`: one Boolean per corner, true where the loop passes;
#   - `across`: one per pair of neighbouring corners in a row, {m} × {n}:
#     across[i, j] is the step between corners (i, j) and (i, j+1);
#   - `down`: one per pair in a column, {n} × {m}: down[i, j] is the step
#     between corners (i, j) and (i+1, j).
# The index ranges must be exactly these (somaria refuses others). A step is
# the side of the cells on either side of it, so cell (i, j)'s four sides are
# across[i-1, j-1] (top), across[i, j-1] (bottom), down[i-1, j-1] (left) and
# down[i-1, j] (right).
kind = "csp"
title = "Slitherlink {n} × {n}"
show = ["across", "down"]

[params]
# The clues, -1 where a cell has none.
clue = """[|
{table} |]"""

[vars]
on = {{ index = ["0..{n}", "0..{n}"], domain = "bool" }}
across = {{ index = ["0..{n}", "0..{nm1}"], domain = "bool" }}
down = {{ index = ["0..{nm1}", "0..{n}"], domain = "bool" }}

[[constraint]]
name = "one loop along the grid lines"
expr = 'grid_loop(on, across, down)'

[[constraint]]
name = "each clue counts the loop's steps around its cell"
expr = """forall(i in 1..{n}, j in 1..{n} where clue[i, j] >= 0)(
  bool2int(across[i-1, j-1]) + bool2int(across[i, j-1]) + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) = clue[i, j])"""
'''

def model(n, clues, seed):
    rows = [",".join("%2d" % v for v in row) for row in clues]
    table = " |\n".join("  " + r for r in rows)
    return HEADER.format(n=n, seed=seed, m=n+1, nm1=n-1, table=table)

def count(path, engine=None):
    args = [SOMARIA, "count", path, "--limit", "2", "--format", "json"]
    if engine: args += ["--engine", engine]
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=BUDGET)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    return json.loads(out.stdout)["count"]

def main():
    global seed
    n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    engine = sys.argv[4] if len(sys.argv) > 4 else None
    rng = random.Random(seed)
    inside = region(n, rng, 0.5)
    clues = clues_of(n, inside)
    with open(out, "w") as f: f.write(model(n, clues, seed))
    assert count(out, engine) == 1, "all clues must give one solution"
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    for (r, c) in cells:
        keep = clues[r][c]
        clues[r][c] = -1
        with open(out, "w") as f: f.write(model(n, clues, seed))
        if count(out, engine) != 1:
            clues[r][c] = keep
    with open(out, "w") as f: f.write(model(n, clues, seed))
    print("clues left:", sum(v >= 0 for row in clues for v in row), "inside:", len(inside))

main()
