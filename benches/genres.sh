#!/usr/bin/env bash
# Every puzz.link genre, whole process, with cspuz beside it (issue 38's
# speed table): for each genre's sample (from `somaria genres --json`) and
# for the larger puzzles of a URL list, somaria's `solve` plus
# `count --limit 2` against cspuz's solver, which finds an answer and says
# whether it is unique in one process. `count --limit 2` alone does that
# same job in one process, so it has its own ratio too. Each figure is the
# median of RUNS runs (default 3), in seconds to the millisecond: wall time
# by default, or with CPU=1 the user plus system time of the process (from
# wait4, by a few lines of python3; GNU time's `%U %S` gives only
# hundredths, too coarse for cspuz's few milliseconds). CPU time is what to
# compare on a shared machine, where wall time also counts waiting for a
# core. A run past LIMIT seconds (default 60) counts as LIMIT and is
# marked `>`. The verdicts column is somaria's `count --limit 2` against
# cspuz's (unique, several, none), from the last run of each. At the end,
# from this one run: the median and the worst of somaria's times and of
# the ratios somaria/cspuz, and how many are within 2x cspuz, for
# solve+count (the issue's figure) and for count alone; and any verdicts
# that differ. A genre cspuz has no solver for (its verdict `?`) shows
# cspuz's time in brackets and is left out of the ratios.
#
#   CSPUZ  a program that takes a puzz.link URL, solves it and says whether
#          the answer is unique (for the book's figures: cspuz_core's
#          `run_solver`, built from semiexp/cspuz_core at f52fcfa with its
#          Glucose submodule, outside this repository); without it only
#          somaria is timed.
#   URLS   a file of larger puzzles, one `GENRE URL` a line (for the
#          figures: the puzzle nearest 10x10 of each genre among the URLs
#          of cspuz_rs_puzzles' tests, kept outside this repository, since
#          no other repository's data goes into this one); genres somaria
#          does not read are left out. Give it as an absolute path.
#   CPU    set (CPU=1) to time user+system seconds instead of wall seconds.
#   SOMARIA_BIN  times that somaria instead of building this one (lib.sh).
#
# Usage: [CPU=1] CSPUZ=... URLS=... bash benches/genres.sh [RUNS] [LIMIT]
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 3 60 "$@" --
CSPUZ=${CSPUZ:-}
URLS=${URLS:-}
CPU=${CPU:-}

# cpu_timer LIMIT OUT COMMAND...: runs COMMAND, its output in OUT, and
# prints the user plus system milliseconds of that process alone (its
# rusage from wait4, to the microsecond), or `stopped` when it was killed
# at LIMIT seconds. Not `timeout` under bash's `times`: that counts
# `timeout`'s own start, 3-4 ms, as much as a small puzzle's whole run.
CPU_TIMER='
import os, signal, subprocess, sys
limit, out, command = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
with open(out, "w") as sink:
    child = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
stopped = []
def stop(_signal, _frame):
    stopped.append(True)
    child.kill()
signal.signal(signal.SIGALRM, stop)
signal.setitimer(signal.ITIMER_REAL, limit)
_, _, usage = os.wait4(child.pid, 0)
signal.setitimer(signal.ITIMER_REAL, 0)
print("stopped" if stopped else "%.1f" % ((usage.ru_utime + usage.ru_stime) * 1000))
'

# one_run COMMAND...: the milliseconds of one run (wall, or user+system
# with CPU), its output in $DIR/out; nothing when it was stopped at LIMIT.
one_run() {
    local start status=0 ms
    if [[ -n $CPU ]]; then
        ms=$(python3 -c "$CPU_TIMER" "$LIMIT" "$DIR/out" "$@")
        [[ $ms != stopped ]] && echo "$ms"
        return 0
    fi
    start=$(date +%s%N)
    timeout "$LIMIT" "$@" > "$DIR/out" 2>&1 || status=$?
    [[ $status -eq 124 ]] && return 0
    echo "$(( ($(date +%s%N) - start) / 1000000 ))"
}

# seconds COMMAND...: the median of RUNS runs, in seconds to the
# millisecond, `>LIMIT` when a run was stopped.
seconds() {
    local times=() ms
    for _ in $(seq "$RUNS"); do
        ms=$(one_run "$@")
        if [[ -z $ms ]]; then
            echo ">$LIMIT"
            return
        fi
        times+=("$ms")
    done
    printf '%.3f\n' "$(echo "$(median_of "${times[@]}") / 1000" | bc -l)"
}

# number TEXT: the time without its `>`.
number() { echo "${1#>}"; }

# ratio OURS THEIRS: OURS / THEIRS to one decimal (THEIRS at least 1 ms).
ratio() {
    echo "$1 $2" | awk '{ t = $2 < 0.001 ? 0.001 : $2; printf "%.1f\n", $1 / t }'
}

# within_two OURS THEIRS: 1 when OURS is at most twice THEIRS, else 0.
within_two() {
    echo "$1 $2" | awk '{ print ($1 <= 2 * $2) ? 1 : 0 }'
}

# verdict: the verdict in $DIR/out, somaria's or cspuz's, as one word.
verdict() {
    if grep -q 'the puzzle is unique\|^Answer Status: Unique' "$DIR/out"; then
        echo unique
    elif grep -q 'the puzzle cannot be solved\|^Answer Status: No Answer' "$DIR/out"; then
        echo none
    elif grep -q 'at least 2 solutions\|solutions, all found\|^Answer Status: Not unique' "$DIR/out"; then
        echo several
    else
        echo "?"
    fi
}

# row NAME URL: one line of the table, and its figures kept for the end.
row() {
    local name=$1 url=$2 solve count ours theirs="-" both_ratio="-" count_ratio="-"
    local ours_says theirs_says="-"
    solve=$(seconds "$BIN" solve "$url")
    count=$(seconds "$BIN" count "$url" --limit 2)
    ours_says=$(verdict)
    ours=$(printf '%.3f' "$(echo "$(number "$solve") + $(number "$count")" | bc -l)")
    [[ $solve == ">"* || $count == ">"* ]] && ours=">$ours"
    if [[ -n $CSPUZ ]]; then
        theirs=$(seconds "$CSPUZ" "$url")
        theirs_says=$(verdict)
    fi
    if [[ $theirs_says == "?" ]]; then
        # cspuz has no solver for the genre (it says so and stops at
        # once): nothing to compare with.
        theirs="($theirs)"
        UNREAD+=("$name")
    elif [[ -n $CSPUZ ]]; then
        both_ratio=$(ratio "$(number "$ours")" "$(number "$theirs")")
        count_ratio=$(ratio "$(number "$count")" "$(number "$theirs")")
        BOTH_RATIOS+=("$both_ratio")
        COUNT_RATIOS+=("$count_ratio")
        BOTH_WITHIN=$((BOTH_WITHIN + $(within_two "$(number "$ours")" "$(number "$theirs")")))
        COUNT_WITHIN=$((COUNT_WITHIN + $(within_two "$(number "$count")" "$(number "$theirs")")))
        [[ $ours_says != "$theirs_says" ]] && DIFFER+=("$name: somaria $ours_says, cspuz $theirs_says")
    fi
    OURS+=("$(number "$ours")")
    COUNTS+=("$(number "$count")")
    NAMES+=("$name")
    [[ $both_ratio != "-" ]] && RATIO_NAMES+=("$name")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s/%s |\n' "$name" "$solve" "$count" "$ours" \
        "$theirs" "$both_ratio" "$count_ratio" "$ours_says" "$theirs_says"
}

# worst_named NAMES_ARRAY UNIT VALUE...: the largest value and UNIT, with
# the name in NAMES_ARRAY at its place (the first, on a tie).
worst_named() {
    local -n names=$1
    local unit=$2
    shift 2
    local values=("$@") best=0 i
    for i in "${!values[@]}"; do
        awk -v a="${values[i]}" -v b="${values[best]}" 'BEGIN { exit !(a > b) }' && best=$i
    done
    printf '%s%s (%s)' "${values[best]}" "$unit" "${names[best]}"
}

# summary TITLE: the medians, worsts and counts of the rows since the last.
summary() {
    local rows=${#OURS[@]} unit="wall"
    [[ -n $CPU ]] && unit="CPU"
    printf '\n%s (%s rows, %s seconds):\n' "$1" "$rows" "$unit"
    printf -- '- solve+count: somaria median %s s, worst %s' "$(median_of "${OURS[@]}")" "$(worst_named NAMES ' s' "${OURS[@]}")"
    if [[ ${#BOTH_RATIOS[@]} -gt 0 ]]; then
        printf '; somaria/cspuz median %s, worst %s; within 2x cspuz: %s of %s' \
            "$(median_of "${BOTH_RATIOS[@]}")" "$(worst_named RATIO_NAMES '' "${BOTH_RATIOS[@]}")" "$BOTH_WITHIN" "${#BOTH_RATIOS[@]}"
    fi
    printf '\n- count --limit 2 alone: somaria median %s s, worst %s' "$(median_of "${COUNTS[@]}")" "$(worst_named NAMES ' s' "${COUNTS[@]}")"
    if [[ ${#COUNT_RATIOS[@]} -gt 0 ]]; then
        printf '; somaria/cspuz median %s, worst %s; within 2x cspuz: %s of %s' \
            "$(median_of "${COUNT_RATIOS[@]}")" "$(worst_named RATIO_NAMES '' "${COUNT_RATIOS[@]}")" "$COUNT_WITHIN" "${#COUNT_RATIOS[@]}"
    fi
    printf '\n'
    [[ ${#UNREAD[@]} -gt 0 ]] && printf -- '- not compared (cspuz has no solver for them): %s\n' "${UNREAD[*]}"
    [[ ${#DIFFER[@]} -gt 0 ]] && printf -- '- verdicts differ: %s\n' "${DIFFER[@]}"
    printf '\n'
    reset_figures
}

reset_figures() {
    OURS=()
    COUNTS=()
    BOTH_RATIOS=()
    COUNT_RATIOS=()
    DIFFER=()
    UNREAD=()
    NAMES=()
    RATIO_NAMES=()
    BOTH_WITHIN=0
    COUNT_WITHIN=0
}

header() {
    local unit="s"
    [[ -n $CPU ]] && unit="CPU s"
    printf '| %s | solve (%s) | count --limit 2 (%s) | somaria (%s) | cspuz (%s) | ratio | count ratio | verdicts |\n' \
        "$1" "$unit" "$unit" "$unit" "$unit"
    printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
}

reset_figures
header "sample"
while read -r id url; do
    row "$id" "$url"
done < <("$BIN" genres --json | python3 -c 'import json,sys; [print(g["id"], g["sample"]) for g in json.load(sys.stdin)]')
summary "samples"

if [[ -n $URLS ]]; then
    header "larger puzzle"
    while read -r genre url; do
        size=$(echo "$url" | sed -E 's#.*\?[a-z]+/([a-z]+/)?([0-9]+)/([0-9]+)/.*#\2x\3#')
        if "$BIN" import "$url" -o "$DIR/probe.toml" > /dev/null 2>&1; then
            row "$genre $size" "$url"
        fi
    done < "$URLS"
    summary "larger puzzles"
fi
