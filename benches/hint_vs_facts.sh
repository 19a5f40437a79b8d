#!/usr/bin/env bash
# Whole-process time of `somaria hint` against `somaria facts` on every
# shipped model (issue 35, defect 4: a hint within 10x of the model's facts).
# Prints, per model, the median and the worst time of each over RUNS runs
# (default 3), the ratio of the medians, and what the hint said (its
# status: "hint" when it gave a step, and the planner's SAT calls and
# searches); "timeout" when a run passed LIMIT seconds (default 300).
# Times are wall-clock seconds, or user CPU seconds with CPU=1 (what counts
# on a machine shared with other work). MODELS="a.toml b.toml" measures
# those instead; BIN=path/to/somaria measures another build (such as main's).
# Needs GNU time at /usr/bin/time and python3.
#
#   bash benches/hint_vs_facts.sh [RUNS] [LIMIT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
OTHER=${BIN:-}
bench_start 3 300 "$@" -- --bin somaria
BIN=${OTHER:-$BIN}
FORMAT=%e
if [[ ${CPU:-0} == 1 ]]; then FORMAT=%U; fi
MODELS=${MODELS:-$(find models -name '*.toml' | sort)}

# One command's "median worst", or "timeout"; its last output in $DIR/out.
measure() {
    if ! timed_runs "$FORMAT" "$@"; then
        echo "timeout"
        return
    fi
    echo "$(median_of "${TIMED[@]}") $(worst_of "${TIMED[@]}")"
}

# The hint's status, SAT calls and searches, from its JSON report.
said() {
    python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError:
    print("- - -")
    sys.exit()
s = r.get("stats", {})
print(r.get("status", "-"), s.get("sat_calls", "-"), s.get("searches", "-"))' "$DIR/out"
}

printf '%-44s %-16s %-16s %-8s %-14s %s\n' model "facts (med worst)" "hint (med worst)" ratio "hint status" "SAT calls, searches"
for model in $MODELS; do
    facts=$(measure "$BIN" facts "$model")
    hint=$(measure "$BIN" hint "$model" --format json)
    read -r status calls searches <<< "$(said)"
    ratio=-
    if [[ $facts != timeout && $hint != timeout ]]; then
        ratio=$(python3 -c 'import sys; f, h = float(sys.argv[1]), float(sys.argv[2]); print(f"{h / max(f, 0.01):.1f}x")' \
            "${facts%% *}" "${hint%% *}")
    fi
    printf '%-44s %-16s %-16s %-8s %-14s %s\n' "$model" "$facts" "$hint" "$ratio" "$status" "$calls, $searches"
done
