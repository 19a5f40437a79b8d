#!/usr/bin/env bash
# How soon a run ends after its limit: the figures that tests/cli/time_limits.rs,
# tests/cli/stop_token.rs and tests/cli/cli_contract.rs no longer assert (they assert
# the kind of answer, and kill a run after a minute). Whole process, wall
# clock: per case the limit, the median and worst run time over RUNS runs
# (default 5), and the median and worst overrun past the limit. Each run is
# killed after LIMIT seconds (default 60) and then shows as "killed".
#
#   bash benches/stop_latency.sh [RUNS] [LIMIT]
#
# With CADICAL=1 it builds with the cadical feature and adds the 5×5 magic
# square under CaDiCaL (one SAT call of 3 s or more, stopped inside it).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
features=()
[[ ${CADICAL:-0} == 1 ]] && features=(--features cadical)
bench_start 5 60 "$@" -- --bin somaria "${features[@]}"

printf 'kind = "fans"\nfans = 30\n' > "$DIR/fans-30.toml"
sed 's/n = 8/n = 16/' models/csp/queens.toml > "$DIR/queens-16.toml"
sed 's/n = 3/n = 5/' models/csp/magic-square.toml > "$DIR/magic-5.toml"
mkfifo "$DIR/fifo.toml"
python3 - "$DIR/open.toml" <<'EOF'
import sys
rows = ["@.a.b.c.d.e.", "............", ".f.g.h.i.j..", "............", "k.l.m.n.o.p.",
        "............", ".q.r.s.t.u..", "............", "v.w.x.y.z...", "............"]
open(sys.argv[1], "w").write("kind = \"keys-doors\"\ngrid = '''\n" + "\n".join(rows) + "\n'''\n")
EOF

# case LABEL LIMIT_S COMMAND...: one table row. LIMIT_S is the run's own
# limit (- for none), from which the overrun is measured.
case_row() {
    local label=$1 limit=$2
    shift 2
    local times=() overs=()
    if ! BENCH_OUT=/dev/null timed_runs "%e" "$@"; then
        printf '| %s | %s | killed after %s s | |\n' "$label" "$limit" "$LIMIT"
        return
    fi
    for t in "${TIMED[@]}"; do
        times+=("$t")
        [[ $limit != - ]] && overs+=("$(awk -v t="$t" -v l="$limit" 'BEGIN { printf "%.2f", t - l }')")
    done
    local over=""
    ((${#overs[@]})) && over="$(median_of "${overs[@]}") / $(worst_of "${overs[@]}")"
    printf '| %s | %s | %s / %s | %s |\n' "$label" "$limit" "$(median_of "${times[@]}")" "$(worst_of "${times[@]}")" "$over"
}

echo "| case | limit (s) | run (s), median / worst | past the limit (s), median / worst |"
echo "| --- | ---: | ---: | ---: |"
case_row "count 30 fans (a SAT call per solution)" 0.5 "$BIN" count "$DIR/fans-30.toml" --timeout 0.5
case_row "count 16 queens (the walk by propagation)" 0.5 "$BIN" count "$DIR/queens-16.toml" --timeout 0.5
case_row "Ctrl-C on count 16 queens" 0.5 timeout --preserve-status -s INT 0.5 "$BIN" count "$DIR/queens-16.toml"
for command in solve count facts compare; do
    args=("$command" models/tile-cover-24x24.toml --timeout 1)
    [[ $command != compare ]] && args+=(--engine steps)
    [[ $command == solve || $command == compare ]] && args+=(--no-presolve)
    case_row "$command tile-cover-24x24" 1 "$BIN" "${args[@]}"
done
# Standard input held open by a silent coprocess, killed once the run ends.
case_row "a model on standard input that never comes" 0.3 \
    bash -c 'coproc SILENT { exec sleep 100; }; "$0" solve - --timeout 0.3 <&"${SILENT[0]}"; kill "$SILENT_PID"' "$BIN"
case_row "a FIFO model, refused" - "$BIN" solve "$DIR/fifo.toml" --timeout 1
case_row "bfs over 26 keys, --memory-limit 64M" - "$BIN" solve "$DIR/open.toml" --engine bfs --memory-limit 64M
if [[ ${CADICAL:-0} == 1 ]]; then
    case_row "solve 5×5 magic square, cadical" 0.5 "$BIN" solve "$DIR/magic-5.toml" --solver cadical --timeout 0.5
fi
