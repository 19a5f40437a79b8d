#!/usr/bin/env bash
# Do two builds of somaria give the same reports? Runs `solve`, `count` (by
# enumeration and exact), `facts`, `explain`, `hint` and `steps` (JSON and
# text) with every engine of each model's kind, on every model under
# models/ and on a fixed sample of the test suites' random models (written by
# their ignored `dump_random_models` tests), with each build, and prints the
# differences. Times (the `*_ms` members, "N ms" in text) are left out, since
# they differ from run to run; so are runs that give no verdict within
# LIMIT seconds (default 10) with the old build, since how far they got
# depends on the machine.
#
#   bash tests/same_reports.sh OLD_SOMARIA NEW_SOMARIA [LIMIT]
#
# COMMANDS (comma-separated, such as COMMANDS="facts,explain") runs only
# those commands, each with its arguments.
#
# Exit 0 when every report is the same, 1 when some differ.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 limit=${3:-10}
IFS=, read -r -a commands <<<"${COMMANDS:-solve,count,count --method exact,facts,explain,hint,steps}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/random"
SOMARIA_DUMP_DIR="$out/random" cargo test --release --quiet --test properties consistency::dump_random_models -- --ignored >/dev/null
SOMARIA_DUMP_DIR="$out/random" cargo test --release --quiet --test csp csp_random::dump_random_models -- --ignored >/dev/null

engines() { # the engine names of a model's kind, from the usage error
  "$old" facts --engine '?' "$1" 2>&1 | sed -n 's/.*expected one of //p' | tr -d ',' | head -n 1
}
json() { # BIN COMMAND ENGINE MODEL: the JSON report without times, and the exit code
  local code
  # shellcheck disable=SC2086 # COMMAND is the command and its arguments
  "$1" $2 --engine "$3" --format json --timeout "$limit" "$4" >"$out/json" 2>&1
  code=$?
  jq -cS 'walk(if type == "object" then with_entries(select(.key | endswith("_ms") | not)) else . end)' \
    "$out/json" 2>/dev/null || cat "$out/json"
  echo "exit $code"
}
text() { # BIN COMMAND ENGINE MODEL: the text report without times, and the exit code
  # shellcheck disable=SC2086
  "$1" $2 --engine "$3" --timeout "$limit" "$4" 2>&1 | sed -E 's/[0-9]+(\.[0-9]+)? ms/N ms/g'
  echo "exit ${PIPESTATUS[0]}"
}
differ=0 total=0 skipped=0
while IFS= read -r model; do
  for engine in $(engines "$model"); do
    for cmd in "${commands[@]}"; do
      before=$(json "$old" "$cmd" "$engine" "$model")
      if [ "${before##*exit }" = 3 ]; then
        skipped=$((skipped + 1))
        continue
      fi
      total=$((total + 1))
      after=$(json "$new" "$cmd" "$engine" "$model")
      if [ "$before" = "$after" ]; then
        before=$(text "$old" "$cmd" "$engine" "$model")
        after=$(text "$new" "$cmd" "$engine" "$model")
      fi
      if [ "$before" != "$after" ]; then
        differ=$((differ + 1))
        echo "== $cmd --engine $engine $model"
        diff <(echo "$before") <(echo "$after") | head -n 20
      fi
    done
  done
done < <(find models "$out/random" -name '*.toml' | sort)
echo "$total reports compared (JSON and text), $differ differ; $skipped without a verdict in $limit s, left out"
[ "$differ" -eq 0 ]
