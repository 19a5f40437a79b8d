#!/usr/bin/env python3
"""The rating of a few rated Sudokus and of each one's transposed and
relabelled copy (1->4, 2->9, 3->2, 4->7, 5->1, 6->8, 7->3, 8->6, 9->5),
which a player would rate the same.

    python3 benches/sudoku_symmetry.py ../shared/data/sudoku-rated.csv [--rows 0,40,80,120,160]

Prints per row: SE, then `rating (largest, hardest_placement)` of the
puzzle and of its copy. Needs a release build (target/release/somaria,
or the binary named by $SOMARIA).
"""
import argparse, csv, json, os, re, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("SOMARIA", os.path.join(ROOT, "target", "release", "somaria"))
TEMPLATE = os.path.join(ROOT, "models", "csp", "sudoku-easy.toml")
RELABEL = [4, 9, 2, 7, 1, 8, 3, 6, 5]


def model_text(givens):
    rows = ",\n".join("  [" + ", ".join(map(str, givens[9 * r : 9 * r + 9])) + "]" for r in range(9))
    text = open(TEMPLATE).read()
    return re.sub(r"givens = \[\n.*?\n\]\n", "givens = [\n" + rows + ",\n]\n", text, count=1, flags=re.S)


def rate(givens, path):
    with open(path, "w") as f:
        f.write(model_text(givens))
    out = subprocess.run([BINARY, "steps", path, "--format", "json"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)["difficulty"]
    return f"{d['rating']} ({d['largest']}, {d['hardest_placement']})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--rows", default="0,40,80,120,160", help="rows of the CSV, from 0")
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sudoku.toml")
        for i in map(int, args.rows.split(",")):
            g = [int(c) for c in rows[i]["givens"]]
            t = [g[(k % 9) * 9 + k // 9] for k in range(81)]
            t = [RELABEL[d - 1] if d else 0 for d in t]
            print(rows[i]["se"], rate(g, path), rate(t, path), flush=True)


if __name__ == "__main__":
    main()
