#!/usr/bin/env bash
# Issue 39's expressive-range figure: `grim-encode range` over seeds 0..100 of the 32x32
# dungeon, the CSV (one row per seed: status, CPU and wall seconds of the solve, every
# measure of `grim_levels::describe`) and the SVG the README shows.
#
#   cargo build --release -p grim-tools --bin grim-encode
#   benches/grid/range.sh          # writes benches/grid/range-dungeon-32.{csv,svg}
#
# Environment: GRIM (the grim-encode binary), SPEC, SEEDS (A..B), X and Y (the axes; default
# the floor's open fraction and dead ends). The SVG is the same bytes on every run; the CSV
# differs only in its cpu_s and wall_s columns.
set -eu
cd "$(dirname "$0")/../.."
GRIM=${GRIM:-target/release/grim-encode}
SPEC=${SPEC:-instances/grid/dungeon-32.json}
SEEDS=${SEEDS:-0..100}
NAME=$(basename "$SPEC" .json)
axes=()
[ -n "${X:-}" ] && axes+=(--x "$X")
[ -n "${Y:-}" ] && axes+=(--y "$Y")
/usr/bin/time -f "range: %e s wall, %U+%S s CPU (whole process)" \
  "$GRIM" range "$SPEC" --seeds "$SEEDS" "${axes[@]}" \
  --csv "benches/grid/range-$NAME.csv" --svg "benches/grid/range-$NAME.svg"
