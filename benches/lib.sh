#!/usr/bin/env bash
# What the whole-process bench scripts share: sourced by them, never run.
#
#   source "$(dirname "$0")/lib.sh"
#   bench_start RUNS_DEFAULT LIMIT_DEFAULT "$@" -- CARGO_BUILD_ARGS...
#
# sets RUNS and LIMIT (the script's first two arguments, or the defaults),
# moves to the repository root, builds, and sets BIN (the release binary)
# and DIR (a temporary folder removed on exit). With SOMARIA_BIN=path
# nothing is built and BIN is that program (another worktree's build, or a
# baseline); a script that also runs examples (keys_doors_process.sh)
# needs them built already.
bench_start() {
    local runs=$1 limit=$2
    shift 2
    local given=()
    while [[ $# -gt 0 && $1 != -- ]]; do
        given+=("$1")
        shift
    done
    [[ $# -gt 0 ]] && shift
    RUNS=${given[0]:-$runs}
    LIMIT=${given[1]:-$limit}
    if [[ -n ${SOMARIA_BIN:-} ]]; then
        BIN=$(realpath "$SOMARIA_BIN")
        cd "$(dirname "${BASH_SOURCE[0]}")/.."
    else
        cd "$(dirname "${BASH_SOURCE[0]}")/.."
        cargo build --release --quiet "$@"
        BIN=target/release/somaria
    fi
    DIR=$(mktemp -d)
    trap 'rm -rf "$DIR"' EXIT
}

# timed_runs FORMAT COMMAND...: COMMAND RUNS times, each stopped after LIMIT
# seconds, its output (stdout) in $DIR/out (or BENCH_OUT). Each run's GNU time line in
# FORMAT (`/usr/bin/time -f`) is appended to TIMED, and its exit code is
# left in STATUS. Returns 1 at the first run stopped, 0 otherwise.
timed_runs() {
    local format=$1
    shift
    TIMED=()
    for _ in $(seq "$RUNS"); do
        STATUS=0
        /usr/bin/time -o "$DIR/time" -f "$format" timeout "$LIMIT" "$@" > "${BENCH_OUT:-$DIR/out}" 2>/dev/null || STATUS=$?
        TIMED+=("$(tail -n 1 "$DIR/time")")
        [[ $STATUS -eq 124 ]] && return 1
    done
    return 0
}

# median_of VALUES...: the middle one of the values sorted (the lower middle
# of an even number).
median_of() {
    printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"
}

# worst_of VALUES...: the largest.
worst_of() {
    printf '%s\n' "$@" | sort -g | tail -n 1
}
