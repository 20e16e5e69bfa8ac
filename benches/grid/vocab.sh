#!/bin/sh
# Issue 42's benchmark specs (one per new rule family; their 128x128 versions last), seeds 1-5, CPU seconds (user+sys) of
# `grim-encode solve` (release build), one run each, one at a time; the base specs they extend
# beside them. Usage: benches/grid/vocab.sh [SPEC.json...]
set -eu
G=target/release/grim-encode
[ -x "$G" ] || cargo build --release -p grim-tools --bin grim-encode
specs=${*:-"instances/grid/cave-64.json instances/grid/cave-runs-64.json instances/grid/cave-no-dead-ends-64.json instances/grid/dungeon-64.json instances/grid/arena-spawns-64.json instances/grid/arena-mirrored-64.json instances/grid/cave-loops-64.json instances/grid/maze-perfect-63.json instances/grid/maze-far-63.json instances/grid/cave-far-64.json instances/grid/dungeon-locks-64.json benches/grid/issue42/dungeon-locks-zoned-64.json benches/grid/issue42/dungeon-locks-128.json benches/grid/issue42/cave-runs-128.json benches/grid/issue42/cave-no-dead-ends-128.json benches/grid/issue42/cave-loops-128.json benches/grid/issue42/maze-perfect-127.json benches/grid/issue42/maze-far-127.json benches/grid/issue42/cave-far-128.json benches/grid/issue42/arena-spawns-128.json benches/grid/issue42/arena-mirrored-128.json"}
echo "spec,seed,cpu_s,conflicts"
for spec in $specs; do
    for seed in 1 2 3 4 5; do
        out=$( { /usr/bin/time -f 'cpu %U %S' timeout "${LIMIT:-120}" "$G" solve "$spec" --seed "$seed" --stats >/dev/null; } 2>&1 || true)
        cpu=$(echo "$out" | awk '/^cpu/ {printf "%.2f", $2 + $3}')
        conflicts=$(echo "$out" | sed -n 's/.* \([0-9]*\) conflicts\{0,1\};.*/\1/p')
        echo "$(basename "$spec" .json),$seed,$cpu,$conflicts"
    done
done
