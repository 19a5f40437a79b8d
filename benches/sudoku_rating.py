#!/usr/bin/env python3
"""How well `steps`' figures track Sudoku Explainer (SE): Spearman's rho
between SE and each figure over the rated Sudokus of a CSV
(`id,givens,se,source`, 81 digits with 0 for a blank), such as
../shared/data/sudoku-rated.csv, plus the shipped easy Sudoku (SE 1.2).

Each puzzle is written as a csp model (models/csp/sudoku-easy.toml with
its givens replaced) and stepped twice: `--next any` (every step) and
`--next placement` (the placements with the steps they need). Prints a
table of rho per figure, over the whole range, over SE >= 6 and below
SE 4, with the CPU time of the runs; with --tsv FILE, writes each
puzzle's figures for plotting.

    python3 benches/sudoku_rating.py ../shared/data/sudoku-rated.csv [--limit N] [--tsv out.tsv] [--svg plot.svg]
    python3 benches/sudoku_rating.py --from-tsv out.tsv --svg plot.svg   (the table and plot again, no runs)

Needs a release build (target/release/somaria).
"""

import argparse
import concurrent.futures
import csv
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("SOMARIA", os.path.join(ROOT, "target", "release", "somaria"))
# Arguments added to every `steps` run, such as --parts (SOMARIA_ARGS).
EXTRA = os.environ.get("SOMARIA_ARGS", "").split()
TEMPLATE = os.path.join(ROOT, "models", "csp", "sudoku-easy.toml")


def model_text(givens):
    text = open(TEMPLATE).read()
    rows = ",\n".join("  [" + ", ".join(givens[9 * r : 9 * r + 9]) + "]" for r in range(9))
    return re.sub(r"givens = \[\n.*?\n\]\n", "givens = [\n" + rows + ",\n]\n", text, count=1, flags=re.S)


def easy_givens():
    found = re.search(r"givens = \[\n(.*?)\n\]\n", open(TEMPLATE).read(), re.S)
    return re.findall(r"\d", found.group(1))


def cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def steps(path, mode, timeout=None):
    """The JSON report of `steps`; None when it takes longer than `timeout` seconds."""
    try:
        out = subprocess.run(
            [BINARY, "steps", path, "--next", mode, "--format", "json"] + EXTRA,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        raise SystemExit(f"steps {path} --next {mode}: exit {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def figures(any_report, placed):
    """Today's figures (from --next any) and the placement figures. The
    difficulty is of the steps taken, whichever are shown, so one run
    (placements) serves for both when `any_report` is None."""
    d = (any_report or placed)["difficulty"]
    shown = placed["steps"]
    folded = [s["size"] for s in shown]
    hardest = max(shown, key=lambda s: (s["size"], len(s["using"])), default=None)
    parts = [len(s.get("via", [])) or 1 for s in shown]
    return {
        "largest": d["largest"],
        "largest+multi": d["largest"] + d["multi_rule_steps"] / 1000.0,
        "steps": d["steps"],
        "multi_rule_steps": d["multi_rule_steps"],
        "rating": placed["difficulty"].get("rating", 0),
        "placement_largest": max(folded, default=0),
        "placement_hardest_using": len(hardest["using"]) if hardest else 0,
        "placement_mean_size": sum(folded) / len(folded) if folded else 0,
        "placement_total": sum(folded),
        "placement_parts_max": max(parts, default=0),
        "hardest_step": d.get("hardest_step", 0),
        "heaviest_placement": d.get("heaviest_placement", 0),
        "largest*hardest_step": d["largest"] * d.get("hardest_step", 0),
        "hardest_step*heaviest": d.get("hardest_step", 0) * d.get("heaviest_placement", 0),
    }


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs, ys):
    if len(xs) < 3:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")


def plot(rows, figure, path):
    """A scatter of SE (across) against `figure` (up), as a plain SVG."""
    width, height, pad = 480, 320, 40
    values = [f[figure] for _, _, f in rows]
    top = max(values) or 1
    dots = []
    for _, se, f in rows:
        x = pad + (se - 1) / 10 * (width - 2 * pad)
        y = height - pad - f[figure] / top * (height - 2 * pad)
        dots.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#3366aa" fill-opacity="0.6"/>')
    ticks = "".join(
        f'<text x="{pad + (t - 1) / 10 * (width - 2 * pad):.0f}" y="{height - pad + 16}" font-size="11" '
        f'text-anchor="middle">{t}</text>'
        for t in range(1, 12)
    )
    with open(path, "w") as f:
        f.write(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'<rect width="{width}" height="{height}" fill="white"/>'
            f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="black"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>{ticks}'
            f'<text x="{width / 2}" y="{height - 6}" font-size="12" text-anchor="middle">Sudoku Explainer rating</text>'
            f'<text x="12" y="{pad - 12}" font-size="12">{figure} (0 to {top:g})</text>'
            + "".join(dots)
            + "</svg>\n"
        )


def read_tsv(path):
    with open(path) as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    names = lines[0][2:]
    return [(r[0], float(r[1]), dict(zip(names, map(float, r[2:])))) for r in lines[1:]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv", nargs="?")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--sample", type=int, help="this many puzzles of the CSV, evenly spaced (it is sorted by SE)")
    parser.add_argument("--timeout", type=float, help="seconds a run may take; a puzzle over it is left out")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    parser.add_argument("--both", action="store_true", help="also run --next any (the figures are the same)")
    parser.add_argument("--tsv")
    parser.add_argument("--svg", help="plot SE against the rating")
    parser.add_argument("--from-tsv", help="read the figures of an earlier run instead of running")
    args = parser.parse_args()
    if args.from_tsv:
        rows = read_tsv(args.from_tsv)
        table(rows, None)
        if args.svg:
            plot(rows, "rating", args.svg)
        return
    puzzles = [("sudoku-easy", easy_givens(), 1.2)]
    with open(args.csv) as f:
        for row in csv.DictReader(f):
            puzzles.append((row["id"], list(row["givens"]), float(row["se"])))
    if args.sample and args.sample < len(puzzles) - 1:
        rated = puzzles[1:]
        puzzles = puzzles[:1] + [rated[i * len(rated) // args.sample] for i in range(args.sample)]
    if args.limit:
        puzzles = puzzles[: args.limit]
    rows = []
    times = {"any": 0.0, "placement": 0.0}
    with tempfile.TemporaryDirectory() as tmp:

        def run(numbered):
            n, (name, givens, se) = numbered
            path = os.path.join(tmp, f"{name}.toml")
            with open(path, "w") as f:
                f.write(model_text(givens))
            reports = {"any": None}
            for mode in ("any", "placement") if args.both else ("placement",):
                reports[mode] = steps(path, mode, args.timeout)
            return n, name, se, reports

        # Over the SE range in turn (the CSV is sorted by SE), so that a run
        # stopped early still spans it; `--jobs` runs at once.
        order = sorted(enumerate(puzzles), key=lambda p: (p[0] % 7, p[0]))
        before = cpu()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for n, name, se, reports in pool.map(run, order):
                if reports["placement"] is None or (args.both and reports["any"] is None):
                    print(f"{n + 1}/{len(puzzles)} {name} SE {se}: over {args.timeout} s, left out", file=sys.stderr)
                    continue
                rows.append((name, se, figures(reports["any"], reports["placement"])))
                write_tsv(args, rows, list(rows[0][2]))
                print(f"{len(rows)}: {n + 1}/{len(puzzles)} {name} SE {se}", file=sys.stderr, flush=True)
        times["placement"] = cpu() - before
    table(rows, times)
    names = list(rows[0][2])
    if args.svg:
        plot(rows, "rating", args.svg)
    write_tsv(args, rows, names)


def table(rows, times):
    names = list(rows[0][2])
    cpu_line = f"; CPU: --next any {times['any']:.1f} s, --next placement {times['placement']:.1f} s" if times else ""
    print(f"{len(rows)} puzzles{cpu_line}")
    print("| figure | rho (all) | rho (SE >= 6) | rho (SE < 4) |")
    print("|---|---|---|---|")
    for figure in names:
        cells = []
        for keep in (lambda se: True, lambda se: se >= 6, lambda se: se < 4):
            chosen = [(se, f[figure]) for _, se, f in rows if keep(se)]
            cells.append(f"{spearman([c[0] for c in chosen], [c[1] for c in chosen]):.2f} (n={len(chosen)})")
        print(f"| {figure} | " + " | ".join(cells) + " |")


def write_tsv(args, rows, names):
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("id\tse\t" + "\t".join(names) + "\n")
            for name, se, fig in rows:
                f.write(f"{name}\t{se}\t" + "\t".join(str(fig[k]) for k in names) + "\n")


if __name__ == "__main__":
    main()
