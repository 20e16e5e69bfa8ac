#!/usr/bin/env bash
# Issue 4's benchmark: `grim-encode solve` against OR-Tools CP-SAT (cpsat_dungeon.py, one
# worker) on the five-tile dungeon, in one session, timed in CPU seconds (user + system of
# the whole process, as /usr/bin/time reports it; for CP-SAT also the CPU time inside Solve()).
#
#   pip install ortools                                # once
#   cargo build --release -p grim-tools --bin grim-encode
#   benches/grid/run.sh [SIZES] [SEEDS] [LIMIT]        # defaults: "12 32 64" "1 2 3 4 5" 600
#
# Environment: OUT (the CSV), GRIM (the grim-encode binary), SOLVERS ("grim cpsat", or one of
# them: the rows of the other are not written, so merge CSVs by hand).
#
# Writes benches/grid/results.csv (or $OUT; one row per run) and prints the summary table that
# benches/grid/README.md shows. LIMIT is each run's CPU-second limit (ulimit -t); a run that
# hits it is recorded as status TIMEOUT with the limit as its time.
set -u
cd "$(dirname "$0")/../.."
SIZES=${1:-"12 32 64"}
SEEDS=${2:-"1 2 3 4 5"}
LIMIT=${3:-600}
TARGET=${CARGO_TARGET_DIR:-target}
GRIM=${GRIM:-$TARGET/release/grim-encode}
SOLVERS=${SOLVERS:-"grim cpsat"}
[ -x "$GRIM" ] || { echo "build first: cargo build --release -p grim-tools --bin grim-encode" >&2; exit 2; }
python3 -c "import ortools" 2>/dev/null || { echo "pip install ortools" >&2; exit 2; }
OUT=${OUT:-benches/grid/results.csv}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "solver,size,seed,status,cpu_s,solve_cpu_s" > "$OUT"
for n in $SIZES; do
  json=instances/grid/dungeon-$n.json
  for s in $SEEDS; do
    # grim: the whole process (read, build, solve, check, print).
    if [[ " $SOLVERS " == *" grim "* ]]; then
    ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$GRIM" solve "$json" --seed "$s" > "$TMP/level" 2> "$TMP/err" )
    rc=$?
    read -r u sy < <(tail -1 "$TMP/t")
    cpu=$(python3 -c "print(f'{$u + $sy:.2f}')" 2>/dev/null || echo "$LIMIT")
    status=OK; [ $rc -eq 0 ] || status="EXIT$rc"
    [ $rc -eq 137 ] || [ $rc -eq 152 ] && { status=TIMEOUT; cpu=$LIMIT; }
    echo "grim,$n,$s,$status,$cpu," >> "$OUT"
    echo "grim   ${n}x$n seed $s: $status $cpu s" >&2
    fi
    # CP-SAT: the whole process, and the CPU time inside Solve() as the script measures it.
    if [[ " $SOLVERS " == *" cpsat "* ]]; then
    ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$TMP/t" python3 benches/grid/cpsat_dungeon.py "$json" --seed "$s" --quiet --time-limit 100000 > "$TMP/cp" 2>&1 )
    rc=$?
    read -r u sy < <(tail -1 "$TMP/t")
    cpu=$(python3 -c "print(f'{$u + $sy:.2f}')" 2>/dev/null || echo "$LIMIT")
    solve=$(sed -n 's/.*solve_cpu=\([0-9.]*\).*/\1/p' "$TMP/cp")
    status=OK; [ $rc -eq 0 ] || status="EXIT$rc"
    [ $rc -eq 137 ] || [ $rc -eq 152 ] && { status=TIMEOUT; cpu=$LIMIT; solve=""; }
    echo "cpsat,$n,$s,$status,$cpu,$solve" >> "$OUT"
    echo "cpsat  ${n}x$n seed $s: $status $cpu s (Solve $solve s)" >&2
    fi
  done
done
python3 benches/grid/summary.py "$OUT"
