#!/usr/bin/env bash
# Whole-process figures for big and wide csp models (issue 21): sums of
# 10^4 to 10^6 Booleans equal to 1 (solve, and count to --limit 1000), and
# the wide-arithmetic reproducers. Prints, per case, the median wall time
# over RUNS runs (default 3), the largest peak memory and the exit code, or
# "timeout" past LIMIT seconds (default 60). Needs GNU time at /usr/bin/time.
#
#   bash benches/csp_wide.sh [RUNS] [LIMIT]
#
# The figures quoted in the README come from one run of this script.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
LIMIT=${2:-60}
cargo build --release --quiet --bin somaria
BIN=target/release/somaria
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

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

# One command: "median_s peak_MB exit", or "timeout peak_MB".
measure() {
    local times=() peak=0 code=0
    for _ in $(seq "$RUNS"); do
        local status=0
        /usr/bin/time -o "$DIR/time" -f "%e %M" timeout "$LIMIT" "$BIN" "$@" > /dev/null 2>&1 || status=$?
        local line
        line=$(tail -n 1 "$DIR/time")
        local kb=${line##* }
        (( kb / 1024 > peak )) && peak=$(( kb / 1024 ))
        if [[ $status -eq 124 ]]; then
            echo "timeout ${peak}MB"
            return
        fi
        code=$status
        times+=("${line%% *}")
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
    echo "${median}s ${peak}MB exit $code"
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
