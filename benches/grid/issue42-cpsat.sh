#!/bin/sh
# Issue 42's 64x64 specs, grim and CP-SAT in the same run: per spec and seed, `grim-encode
# solve` (CPU s user+sys of the process, conflicts) then `cpsat_vocab.py` (CP-SAT's CPU s inside
# Solve(), one worker, LIMIT s of wall-clock at most; its model build is not counted; status;
# the script's own re-check of the level). Specs CP-SAT cannot express (chokepoints, locks)
# get grim's figures and "not modelled". One run each, one at a time.
# Usage: benches/grid/issue42-cpsat.sh [SPEC.json...]   (LIMIT=10 SEEDS="1 2 3 4 5")
set -eu
G=target/release/grim-encode
[ -x "$G" ] || cargo build --release -p grim-tools --bin grim-encode
specs=${*:-"instances/grid/cave-runs-64.json instances/grid/cave-no-dead-ends-64.json instances/grid/cave-loops-64.json instances/grid/maze-perfect-63.json instances/grid/maze-far-63.json instances/grid/cave-far-64.json instances/grid/arena-spawns-64.json instances/grid/arena-mirrored-64.json"}
echo "spec,seed,grim_cpu_s,grim_conflicts,cpsat_cpu_s,cpsat_status,cpsat_check"
for spec in $specs; do
    for seed in ${SEEDS:-1 2 3 4 5}; do
        out=$( { /usr/bin/time -f 'cpu %U %S' timeout 120 "$G" solve "$spec" --seed "$seed" --stats >/dev/null; } 2>&1 || true)
        cpu=$(echo "$out" | awk '/^cpu/ {printf "%.2f", $2 + $3}')
        conflicts=$(echo "$out" | sed -n 's/.* \([0-9]*\) conflicts;.*/\1/p')
        cp=$(python3 benches/grid/cpsat_vocab.py "$spec" --seed "$seed" --quiet --time-limit "${LIMIT:-10}" 2>&1 | tail -1)
        case "$cp" in
        "cpsat "*)
            ccpu=$(echo "$cp" | sed -n 's/.*solve_cpu=\([0-9.]*\).*/\1/p')
            status=$(echo "$cp" | sed -n 's/.*status=\([A-Z_]*\).*/\1/p')
            check=$(echo "$cp" | sed -n 's/.*check=\([a-zA-Z-]*\).*/\1/p')
            ;;
        *) ccpu=; status="not modelled"; check=- ;;
        esac
        echo "$(basename "$spec" .json),$seed,$cpu,$conflicts,$ccpu,$status,$check"
    done
done
