#!/usr/bin/env bash
# The finite-domain engine beside Gecode (issue 42): CPU seconds (user +
# system) of whole processes, median and worst over RUNS runs (default 3),
# on the CP-style tasks: Golomb rulers 8 and 9 (optimise), and full counts
# of 4x4 magic squares, the magic sequence of 40 (hakank's model), Costas
# arrays of order 8 and 12 queens. Columns:
#   fd      somaria under `auto`, which sends these models to the fd engine;
#   sat     somaria `--engine direct`, a SAT encoding (today's path);
#   gecode  `minizinc -G std --solver gecode` on the same model, when
#           `minizinc` is on PATH (Debian package `minizinc`);
#   ratio   gecode / fd: at or above 1, the fd engine is at or ahead.
# Each answer (optimum or count) is printed beside its time, so a row whose
# engines disagree shows it. "timeout" past LIMIT seconds (default 120).
# Needs GNU time at /usr/bin/time. SOMARIA_BIN=path measures another build
# of somaria (an older one, for a before/after table); SAT=0 leaves out the
# sat column, whose timeouts take most of a run.
#
#   bash benches/fd_gecode.sh [RUNS] [LIMIT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 3 120 "$@" -- --bin somaria
BIN=${SOMARIA_BIN:-$BIN}

# somaria models: the shipped and bench ones with another n.
sized() { # name file from n
    sed "s/^$3\$/n = $4/" "$2" > "$DIR/$1.toml"
}
cp benches/models/golomb-8.toml "$DIR/golomb8.toml"
cp benches/models/golomb-9.toml "$DIR/golomb9.toml"
sized magic4 models/csp/magic-square.toml "n = 3" 4
cp models/csp/magic-sequence.toml "$DIR/magicseq40.toml"
sized costas8 models/csp/costas-array.toml "n = 6" 8
sized queens12 models/csp/queens.toml "n = 8" 12

# The same models for MiniZinc.
mzn() { # name n body solve
    printf 'include "globals.mzn";\nint: n = %s;\n%b\n%s\n' "$2" "$3" "$4" > "$DIR/$1.mzn"
}
GOLOMB='array[1..n] of var 0..n*n: mark;\nconstraint mark[1] = 0;\nconstraint forall(i in 1..n-1)(mark[i] < mark[i + 1]);\nconstraint alldifferent([mark[j] - mark[i] | i, j in 1..n where i < j]);\nconstraint mark[2] - mark[1] < mark[n] - mark[n - 1];'
MAGIC='int: t = n * (n * n + 1) div 2;\narray[1..n, 1..n] of var 1..n*n: x;\nconstraint alldifferent([x[i, j] | i, j in 1..n]);\nconstraint forall(i in 1..n)(sum(j in 1..n)(x[i, j]) = t /\\ sum(j in 1..n)(x[j, i]) = t);\nconstraint sum(i in 1..n)(x[i, i]) = t /\\ sum(i in 1..n)(x[i, n + 1 - i]) = t;'
MAGICSEQ='array[0..n-1] of var 0..n-1: s;\nconstraint forall(i in 0..n-1)(s[i] = sum(j in 0..n-1)(bool2int(s[j] = i)));'
COSTAS='array[1..n] of var 1..n: c;\nconstraint alldifferent(c);\nconstraint forall(d in 1..n-2)(alldifferent([c[i + d] - c[i] | i in 1..n-d]));'
QUEENS='array[1..n] of var 1..n: q;\nconstraint alldifferent(q);\nconstraint forall(i, j in 1..n where i < j)(q[i] + i != q[j] + j /\\ q[i] - i != q[j] - j);'
mzn golomb8 8 "$GOLOMB" 'solve minimize mark[n];'
mzn golomb9 9 "$GOLOMB" 'solve minimize mark[n];'
mzn magic4 4 "$MAGIC" 'solve satisfy;'
mzn magicseq40 40 "$MAGICSEQ" 'solve satisfy;'
mzn costas8 8 "$COSTAS" 'solve satisfy;'
mzn queens12 12 "$QUEENS" 'solve satisfy;'

# One command: "median worst answer" in CPU seconds, or "timeout". The
# answer is the count or the objective: from somaria's text report, or
# from MiniZinc's output (the solutions printed, or the last objective).
measure() { # kind task args...
    local kind=$1 task=$2 answer=?
    shift 2
    if ! timed_runs "%U %S" "$@"; then
        echo "timeout - -"
        return
    fi
    local cpu=()
    for t in "${TIMED[@]}"; do cpu+=("$(echo "$t" | awk '{ printf "%.2f", $1 + $2 }')"); done
    if [[ $kind == somaria && $task == optimise ]]; then
        answer=$(grep -oE 'objective[^0-9-]*-?[0-9]+' "$DIR/out" | grep -oE '\-?[0-9]+$' | head -n 1 || true)
    elif [[ $kind == somaria ]]; then
        answer=$(grep -oE '^[0-9]+ solution' "$DIR/out" | head -n 1 | cut -d' ' -f1 || true)
    elif [[ $task == optimise ]]; then
        answer=$(grep -oE 'mark = \[.*\]' "$DIR/out" | tail -n 1 | grep -oE '[0-9]+\]$' | tr -d ']' || true)
    else
        answer=$(grep -c '^----------$' "$DIR/out" || true)
    fi
    echo "$(median_of "${cpu[@]}") $(worst_of "${cpu[@]}") ${answer:-?}"
}

GECODE=
if command -v minizinc > /dev/null; then GECODE=1; fi
printf '%-12s %-22s %-22s %-22s %s\n' task "fd (med worst answer)" "sat (med worst answer)" \
    "gecode (med worst answer)" "ratio gecode/fd"
for case in golomb8 golomb9 magic4 magicseq40 costas8 queens12; do
    if [[ $case == golomb* ]]; then
        task=optimise command=solve mzn_all=()
    else
        task=count command=count mzn_all=(--all-solutions)
    fi
    fd=$(measure somaria "$task" "$BIN" "$command" "$DIR/$case.toml")
    sat="- - -"
    if [[ ${SAT:-1} != 0 ]]; then
        sat=$(measure somaria "$task" "$BIN" "$command" --engine direct "$DIR/$case.toml")
    fi
    gecode="- - -" ratio=-
    if [[ -n $GECODE ]]; then
        gecode=$(measure gecode "$task" minizinc -G std --solver gecode "${mzn_all[@]}" "$DIR/$case.mzn")
        ratio=$(echo "$gecode $fd" | awk '$1 != "timeout" && $4 != "timeout" { printf "%.2f", $1 / ($4 > 0 ? $4 : 0.005) }')
    fi
    printf '%-12s %-22s %-22s %-22s %s\n' "$case" "$fd" "$sat" "$gecode" "${ratio:--}"
done
