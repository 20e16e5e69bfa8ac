#!/usr/bin/env bash
# Issue 41: the bounds presolve must not slow down a spec that has a level. `grim-encode solve`
# on every shipped spec (instances/grid/*.json), seeds 1-5, default mode, with two binaries
# (BASE: before the presolve, NEW: with it), runs interleaved, CPU seconds (user + system).
#
#   BASE=/path/to/old/grim-encode NEW=target/release/grim-encode benches/grid/issue41-shipped.sh
#
# Prints one CSV row per run: spec,seed,binary,exit,cpu_s. LIMIT: CPU s per run (default 60).
set -u
cd "$(dirname "$0")/../.."
NEW=${NEW:-target/release/grim-encode}
BASE=${BASE:?set BASE to the grim-encode built before the presolve}
LIMIT=${LIMIT:-60}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "spec,seed,binary,exit,cpu_s"
for f in instances/grid/*.json; do
  for seed in 1 2 3 4 5; do
    for which in base new; do
      bin=$BASE; [ "$which" = new ] && bin=$NEW
      ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$bin" solve "$f" --seed "$seed" > "$TMP/out.$which" 2> /dev/null )
      rc=$?
      read -r u s < <(tail -1 "$TMP/t")
      cpu=$(python3 -c "print(f'{$u + $s:.2f}')" 2>/dev/null || echo "$LIMIT")
      echo "$(basename "$f" .json),$seed,$which,$rc,$cpu"
    done
    cmp -s "$TMP/out.base" "$TMP/out.new" || echo "# $(basename "$f" .json) seed $seed: the levels differ" >&2
  done
done
