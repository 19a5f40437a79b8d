#!/usr/bin/env bash
# Whole-process figures for optimisation (issue 22): proven optima of the
# knapsack models (30 and 50 items) and Golomb rulers (7, 8 and 9 marks).
# and the shipped hakank TSP port (models/csp/tsp-circuit.toml) at 12, 14
# and 16 cities. Prints, per row, somaria's median and worst wall time over RUNS runs
# (default 3) and the optimum it proved; when `minizinc` is on PATH, the
# same for MiniZinc + Gecode on the same instance (Debian's package needs
# `-G std`: its Gecode library clashes with MiniZinc's globals.mzn) and the
# ratio of the medians. "timeout" past LIMIT seconds (default 120). Needs
# GNU time at /usr/bin/time.
#
#   bash benches/optimise.sh [RUNS] [LIMIT]
#
# BENCH_BIN=path/to/old/somaria times another build (a baseline) instead of
# the one built here.
#
# The figures quoted in the book (docs/src/reference/benchmarks.md) come from one run of this script.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 3 120 "$@" -- --bin somaria
BIN=${BENCH_BIN:-$BIN}

sed 's/^n = 8$/n = 7/' benches/models/golomb-8.toml > "$DIR/golomb-7.toml"

# The MiniZinc twins, with the knapsacks' data read from the models.
knapsack_mzn() { # model.toml
    {
        sed -n 's/^\(n\|capacity\) = \(.*\)$/int: \1 = \2;/p' "$1"
        sed -n 's/^\(weight\|value\) = \(.*\)$/array[1..n] of int: \1 = \2;/p' "$1"
        cat <<'MZN'
array[1..n] of var bool: take;
constraint sum(i in 1..n)(bool2int(take[i]) * weight[i]) <= capacity;
solve maximize sum(i in 1..n)(bool2int(take[i]) * value[i]);
MZN
    }
}
golomb_mzn() { # marks
    cat <<MZN
include "globals.mzn";
int: n = $1;
int: len = n * n;
array[1..n] of var 0..len: mark;
constraint mark[1] = 0;
constraint forall(i in 1..n-1)(mark[i] < mark[i + 1]);
constraint alldifferent([mark[j] - mark[i] | i, j in 1..n where i < j]);
constraint mark[2] - mark[1] < mark[n] - mark[n - 1];
solve minimize mark[n];
MZN
}
# hakank's tsp_circuit.mzn on the first n of its cities, with the data of
# the shipped port.
tsp_mzn() { # cities
    local data
    data=$(sed -n "/^distances16 = '''/,/^])'''/p" models/csp/tsp-circuit.toml | sed "1s/^distances16 = '''//; \$s/'''\$//")
    cat <<MZN
include "globals.mzn";
int: n = $1;
array[1..16, 1..16] of int: distances16 = $data;
array[1..n, 1..n] of int: distances = array2d(1..n, 1..n, [distances16[i, j] | i, j in 1..n]);
int: min_val = min([distances[i,j] | i,j in 1..n where distances[i,j] > 0]);
int: max_val = max([distances[i,j] | i,j in 1..n]);
array[1..n] of var 1..n: x;
array[1..n] of var min_val..max_val: d;
var int: distance = sum(d);
solve :: int_search(d, max_regret, indomain_split, complete) minimize distance;
constraint all_different(x) /\ circuit(x) /\ forall(i in 1..n) (distances[i,x[i]] = d[i]);
MZN
}
for n in 12 14 16; do
    sed "s/^n = 14\$/n = $n/" models/csp/tsp-circuit.toml > "$DIR/tsp-$n.toml"
    tsp_mzn "$n" > "$DIR/tsp-$n.mzn"
done
knapsack_mzn benches/models/knapsack-30.toml > "$DIR/knapsack-30.mzn"
knapsack_mzn benches/models/knapsack-50.toml > "$DIR/knapsack-50.mzn"
for n in 7 8 9; do golomb_mzn "$n" > "$DIR/golomb-$n.mzn"; done

# One command, RUNS times: "median worst" in seconds, or "timeout"; the
# last run's output is left in $DIR/out.
measure() {
    if ! timed_runs "%e" "$@"; then
        echo "timeout -"
        return
    fi
    echo "$(median_of "${TIMED[@]}") $(worst_of "${TIMED[@]}")"
}

MINIZINC=$(command -v minizinc || true)
if [[ -n $MINIZINC ]]; then
    printf '%-14s %9s %9s %8s | %9s %9s %8s | %s\n' row median worst optimum gecode worst optimum ratio
else
    printf '%-14s %9s %9s %8s   (minizinc not on PATH: no Gecode column)\n' row median worst optimum
fi
for row in knapsack-30 knapsack-50 golomb-7 golomb-8 golomb-9 tsp-12 tsp-14 tsp-16; do
    model=benches/models/$row.toml
    [[ -f $model ]] || model=$DIR/$row.toml
    read -r median worst <<< "$(measure "$BIN" solve "$model" --format json)"
    optimum=$(grep -o '"objective":-\{0,1\}[0-9]*' "$DIR/out" | cut -d: -f2 || true)
    [[ $median == timeout ]] && optimum=-
    if [[ -n $MINIZINC ]]; then
        read -r gmedian gworst <<< "$(measure "$MINIZINC" --solver gecode -G std --output-objective "$DIR/$row.mzn")"
        goptimum=$(grep -o '_objective = -\{0,1\}[0-9]*' "$DIR/out" | tail -n 1 | cut -d' ' -f3 || true)
        ratio=-
        if [[ $median != timeout && $gmedian != timeout ]]; then
            ratio=$(awk -v a="$median" -v b="$gmedian" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        fi
        printf '%-14s %9s %9s %8s | %9s %9s %8s | %s\n' "$row" "$median" "$worst" "${optimum:--}" "$gmedian" "$gworst" "${goptimum:--}" "$ratio"
    else
        printf '%-14s %9s %9s %8s\n' "$row" "$median" "$worst" "${optimum:--}"
    fi
done
