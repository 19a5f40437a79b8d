#!/usr/bin/env bash
# Whole-process figures for big and wide csp models (issue 21): sums of
# 10^4 to 10^6 Booleans equal to 1 (solve, and count to --limit 1000), and
# the wide-arithmetic reproducers, and the sums of signed products that the
# property test met. Prints, per case, the median wall time
# over RUNS runs (default 3), the largest peak memory and the exit code, or
# "timeout" past LIMIT seconds (default 60). Needs GNU time at /usr/bin/time.
#
#   bash benches/csp_wide.sh [RUNS] [LIMIT]
#
# The figures quoted in the book (docs/src/reference/benchmarks.md) come from one run of this script.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 3 60 "$@" -- --bin somaria

model() { # file vars constraint
    printf 'kind = "csp"\n[vars]\n%b\n[[constraint]]\nexpr = '"'"'%s'"'"'\n' "$2" "$3" > "$DIR/$1.toml"
}
for n in 10000 100000 1000000; do
    model "bools-$n" "a = { index = [\"1..$n\"], domain = \"0..1\" }" 'sum(a) = 1'
done
model sum3 'a = { index = ["1..3"], domain = "0..1000000000" }' 'sum(a) = 3'
model xy 'x = "0..1000000000"\ny = "0..1000000000"' 'x + y = 3'
model mod 'x = "0..1000000000"' 'x mod 100000000 = 0'
model abs 'x = "-1000000000..1000000000"' 'abs(x) = 7'
model mul 'x = "0..100000"\ny = "0..100000"' 'x * y = 6'
model div 'x = "0..1000000000"\ny = "1..100000"' 'x div y = 500000'
model atmost 'b = { index = ["1..100000"], domain = "0..1" }' 'sum(b) <= 44 /\ sum(b) >= 1'
model absdiv 'x = "-1000..1000"\ny = "0..1000"' 'abs(x) = 45 /\ x div y <= 45'
model sumprod 'x = "-1000..1000"\na = { index = ["1..3"], domain = "0..1000" }' 'sum(i in 1..3)(a[i] * x) = 7'
model boolprod 'x = "-1000..1000"\na = { index = ["1..3"], domain = "0..1" }' 'sum(i in 1..3)(a[i] * x) = 13'

# One command: "median_s peak_MB exit", or "timeout peak_MB".
measure() {
    local times=() peak=0 stopped=0
    BENCH_OUT=/dev/null timed_runs "%e %M" "$BIN" "$@" || stopped=1
    for line in "${TIMED[@]}"; do
        local kb=${line##* }
        (( kb / 1024 > peak )) && peak=$(( kb / 1024 ))
        times+=("${line%% *}")
    done
    if (( stopped )); then
        echo "timeout ${peak}MB"
        return
    fi
    echo "$(median_of "${times[@]}")s ${peak}MB exit $STATUS"
}

printf '%-34s %s\n' case "median peak exit"
for n in 10000 100000 1000000; do
    printf '%-34s %s\n' "solve sum(a) = 1, $n" "$(measure solve "$DIR/bools-$n.toml")"
done
for n in 10000 100000; do
    printf '%-34s %s\n' "count --limit 1000 sum(a) = 1, $n" "$(measure count --limit 1000 "$DIR/bools-$n.toml")"
done
for case in sum3 xy mod abs mul; do
    printf '%-34s %s\n' "count $case" "$(measure count "$DIR/$case.toml")"
done
printf '%-34s %s\n' "solve div" "$(measure solve "$DIR/div.toml")"
printf '%-34s %s\n' "solve atmost 44 of 10^5" "$(measure solve "$DIR/atmost.toml")"
printf '%-34s %s\n' "count absdiv" "$(measure count "$DIR/absdiv.toml")"
for case in sumprod boolprod; do
    printf '%-34s %s\n' "solve $case" "$(measure solve "$DIR/$case.toml")"
done
