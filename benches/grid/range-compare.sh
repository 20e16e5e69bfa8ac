#!/usr/bin/env bash
# Three generators of the same spec on the same axes (issue 39): grimoire's `solve` (seeded
# phase hints), CaDiCaL on the exported CNF (the hints are comments it ignores), and RC2
# (python-sat; `-vv`, which prints the model) on the exported WCNF with the seeded wishes as soft clauses; each external
# answer is decoded by `grim-encode decode` into a level file, and `grim-encode range
# --levels` describes them.
#
#   apt-get install cadical; pip install python-sat
#   cargo build --release -p grim-tools --bin grim-encode
#   benches/grid/range-compare.sh     # writes benches/grid/range-compare/*.{csv,svg}
#
# The SVGs and CSVs of the same levels are the same bytes on every run (timing columns aside);
# RC2's optimum may differ between python-sat versions where several levels cost the same.
#
# Environment: GRIM, SPEC (default instances/grid/dungeon-12.json), N (seeds 0..N, default
# 20), OUT (the output directory).
set -eu
cd "$(dirname "$0")/../.."
GRIM=${GRIM:-target/release/grim-encode}
SPEC=${SPEC:-instances/grid/dungeon-12.json}
N=${N:-20}
OUT=${OUT:-benches/grid/range-compare}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The decoded levels are kept (OUT/levels/GENERATOR/seed-NNN.txt): `range --levels` reads
# them again without the solvers.
mkdir -p "$OUT/levels/cadical" "$OUT/levels/rc2"
for ((s = 0; s < N; s++)); do
  name=$(printf 'seed-%03d' "$s")
  "$GRIM" "$SPEC" --seed "$s" -o "$TMP/h.cnf" 2> /dev/null
  cadical -q "$TMP/h.cnf" > "$TMP/h.out" || true
  "$GRIM" decode "$SPEC" "$TMP/h.out" --seed "$s" > "$OUT/levels/cadical/$name.txt" 2> /dev/null
  "$GRIM" "$SPEC" --seed "$s" --preferences soft -o "$TMP/s.wcnf" 2> /dev/null
  python3 -m pysat.examples.rc2 -vv "$TMP/s.wcnf" > "$TMP/s.out"
  "$GRIM" decode "$SPEC" "$TMP/s.out" --seed "$s" --preferences soft \
    > "$OUT/levels/rc2/$name.txt" 2> /dev/null
  echo "seed $s: decoded CaDiCaL's and RC2's levels" >&2
done
"$GRIM" range "$SPEC" --seeds "0..$N" --csv "$OUT/grim.csv" --svg "$OUT/grim.svg" 2> /dev/null
for g in cadical rc2; do
  "$GRIM" range "$SPEC" --levels "$OUT/levels/$g" --csv "$OUT/$g.csv" --svg "$OUT/$g.svg" 2>&1 | tail -1
done
