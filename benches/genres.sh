#!/usr/bin/env bash
# Every puzz.link genre, whole process, with cspuz beside it (issue 38's
# speed table): for each genre's sample (from `somaria genres --json`) and
# for the larger puzzles of a URL list, somaria's `solve` plus
# `count --limit 2` against cspuz's solver, which finds an answer and says
# whether it is unique in one process. Each is the median of RUNS runs
# (default 3), in seconds; a run past LIMIT seconds (default 60) counts as
# LIMIT and is marked `>`. At the end: the median and the worst of
# somaria's times and of the ratios somaria/cspuz, from this one run.
#
#   CSPUZ  a program that takes a puzz.link URL, solves it and says whether
#          the answer is unique (for the book's figures: cspuz_core's
#          `run_solver`, built from semiexp/cspuz_core at f52fcfa with its
#          Glucose submodule, outside this repository); without it only
#          somaria is timed.
#   URLS   a file of larger puzzles, one `GENRE URL` a line (for the
#          figures: the largest puzzle of each genre among the URLs of
#          cspuz_rs_puzzles' tests, kept outside this repository, since no
#          other repository's data goes into this one); genres somaria does
#          not read are left out.
#
# Usage: CSPUZ=... URLS=... bash benches/genres.sh [RUNS] [LIMIT]
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bench_start 3 60 "$@" --
CSPUZ=${CSPUZ:-}
URLS=${URLS:-}

# seconds COMMAND...: the median wall time of RUNS runs, in seconds to the
# millisecond (GNU time's `%e` gives only hundredths, too coarse for
# cspuz), `>LIMIT` when a run was stopped.
seconds() {
    local times=() start status
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N)
        status=0
        timeout "$LIMIT" "$@" > /dev/null 2>&1 || status=$?
        if [[ $status -eq 124 ]]; then
            echo ">$LIMIT"
            return
        fi
        times+=("$(( ($(date +%s%N) - start) / 1000000 ))")
    done
    printf '%.3f\n' "$(echo "$(median_of "${times[@]}") / 1000" | bc -l)"
}

# number TEXT: the time without its `>`.
number() { echo "${1#>}"; }

# row NAME URL: one line of the table, and its figures kept for the end.
row() {
    local name=$1 url=$2 solve count ours theirs="-" ratio="-"
    solve=$(seconds "$BIN" solve "$url")
    count=$(seconds "$BIN" count "$url" --limit 2)
    ours=$(printf '%.3f' "$(echo "$(number "$solve") + $(number "$count")" | bc -l)")
    [[ $solve == ">"* || $count == ">"* ]] && ours=">$ours"
    if [[ -n $CSPUZ ]]; then
        theirs=$(seconds "$CSPUZ" "$url")
        ratio=$(printf '%.1f' "$(echo "$(number "$ours") / $(number "$theirs")" | bc -l)")
        RATIOS+=("$ratio")
    fi
    OURS+=("$(number "$ours")")
    printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$solve" "$count" "$ours" "$theirs" "$ratio"
}

# summary TITLE: the median and worst of the figures kept since the last.
summary() {
    printf '\n%s: somaria median %s s, worst %s s' "$1" "$(median_of "${OURS[@]}")" "$(worst_of "${OURS[@]}")"
    if [[ ${#RATIOS[@]} -gt 0 ]]; then
        printf '; somaria/cspuz median %s, worst %s' "$(median_of "${RATIOS[@]}")" "$(worst_of "${RATIOS[@]}")"
    fi
    printf '\n\n'
    OURS=()
    RATIOS=()
}

header() {
    printf '| %s | solve (s) | count --limit 2 (s) | somaria (s) | cspuz (s) | ratio |\n' "$1"
    printf '| --- | ---: | ---: | ---: | ---: | ---: |\n'
}

OURS=()
RATIOS=()
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
