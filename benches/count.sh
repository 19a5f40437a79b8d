#!/usr/bin/env bash
# Whole-process figures for `count` (issue 22, counting): each case counted
# by enumeration (`--method enumerate`, the default) and by the exact
# projected model counter (`--method exact`), and by MiniZinc with Gecode
# (`--all-solutions`) when `minizinc` is on PATH. Prints, per method, the
# median and the worst wall time over RUNS runs (default 3) and the count,
# or "timeout" past LIMIT seconds (default 120). Needs GNU time at
# /usr/bin/time.
#
#   bash benches/count.sh [RUNS] [LIMIT]
#
# The figures quoted in the book (docs/src/reference/benchmarks.md) come from one run of this script.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 3 120 "$@" -- --bin somaria

# somaria models: the shipped ones with another n.
sized() { # name file from n
    sed "s/^$3\$/n = $4/" "$2" > "$DIR/$1.toml"
}
sized latin4 models/csp/latin-square.toml "n = 4" 4
sized latin5 models/csp/latin-square.toml "n = 4" 5
sized magic3 models/csp/magic-square.toml "n = 3" 3
sized magic4 models/csp/magic-square.toml "n = 3" 4
for n in 8 10 11 12; do sized "queens$n" models/csp/queens.toml "n = 8" "$n"; done

# The same models for MiniZinc.
mzn() { # name n body
    printf 'include "globals.mzn";\nint: n = %s;\n%b\nsolve satisfy;\n' "$2" "$3" > "$DIR/$1.mzn"
}
LATIN='array[1..n, 1..n] of var 1..n: x;\nconstraint forall(i in 1..n)(alldifferent([x[i, j] | j in 1..n]));\nconstraint forall(j in 1..n)(alldifferent([x[i, j] | i in 1..n]));'
MAGIC='int: t = n * (n * n + 1) div 2;\narray[1..n, 1..n] of var 1..n*n: x;\nconstraint alldifferent([x[i, j] | i, j in 1..n]);\nconstraint forall(i in 1..n)(sum(j in 1..n)(x[i, j]) = t /\\ sum(j in 1..n)(x[j, i]) = t);\nconstraint sum(i in 1..n)(x[i, i]) = t /\\ sum(i in 1..n)(x[i, n + 1 - i]) = t;'
QUEENS='array[1..n] of var 1..n: q;\nconstraint alldifferent(q);\nconstraint forall(i, j in 1..n where i < j)(q[i] + i != q[j] + j /\\ q[i] - i != q[j] - j);'
mzn latin4 4 "$LATIN"
mzn latin5 5 "$LATIN"
mzn magic3 3 "$MAGIC"
mzn magic4 4 "$MAGIC"
for n in 8 10 11 12; do mzn "queens$n" "$n" "$QUEENS"; done

# One command: "median worst count", or "timeout"; the count is read from
# the first number of somaria's text report, or from the number of
# solutions MiniZinc printed.
measure() { # kind args...
    local kind=$1 counted=?
    shift
    if ! timed_runs "%e" "$@"; then
        echo "timeout"
        return
    fi
    if [[ $kind == somaria ]]; then
        counted=$(grep -oE '^[0-9]+ solution' "$DIR/out" | head -n 1 | cut -d' ' -f1 || true)
    else
        counted=$(grep -c '^----------$' "$DIR/out" || true)
    fi
    echo "$(median_of "${TIMED[@]}")s $(worst_of "${TIMED[@]}")s ${counted:-?}"
}

GECODE=
if command -v minizinc > /dev/null; then GECODE=1; fi
printf '%-22s %-26s %-26s %s\n' case "enumerate (med worst n)" "exact (med worst n)" \
    "${GECODE:+gecode (med worst n)}"
for case in latin4 latin5 magic3 magic4 queens8 queens10 queens11 queens12; do
    enumerated=$(measure somaria "$BIN" count "$DIR/$case.toml")
    exact=$(measure somaria "$BIN" count --method exact "$DIR/$case.toml")
    gecode=
    if [[ -n $GECODE ]]; then
        gecode=$(measure gecode minizinc -G std --solver gecode --all-solutions "$DIR/$case.mzn")
    fi
    printf '%-22s %-26s %-26s %s\n' "$case" "$enumerated" "$exact" "$gecode"
done
