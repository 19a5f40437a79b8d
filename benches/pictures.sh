#!/usr/bin/env bash
# Whole-process cost of pictures: the shrine as text and as SVG, and an open
# 1000 x 1000 room as JSON and as SVG (both written to a file). Needs
# hyperfine (apt-get install hyperfine); run from the repository root:
#   bash benches/pictures.sh
set -euo pipefail
cargo build --release -q
bin=target/release/somaria
room=$(mktemp --suffix=.toml)
out=$(mktemp -d)
trap 'rm -rf "$room" "$out"' EXIT
python3 - "$room" <<'PY'
import sys
n = 1000
rows = ["S" + "." * (n - 1)] + ["." * n for _ in range(n - 1)]
open(sys.argv[1], "w").write('kind = "tile-cover"\ngrid = """\n' + "\n".join(rows) + '\n"""\n')
PY
hyperfine -N --warmup 20 --runs 300 \
  "$bin solve models/akh-vaquot.toml" \
  "$bin solve models/akh-vaquot.toml --format svg"
hyperfine -N --warmup 1 --runs 8 \
  "$bin solve $room --format json -o $out/room.json" \
  "$bin solve $room --format svg -o $out/room.svg"
