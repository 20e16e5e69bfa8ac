#!/usr/bin/env bash
# Issue 15's benchmark: `grim-encode solve` with the grid propagator (the default) against the
# cut loop (`--connectivity lazy`) and OR-Tools CP-SAT (cpsat_dungeon.py, one worker, dungeons
# only), in one session, CPU seconds of the whole process (user + system, /usr/bin/time).
#
#   pip install ortools; cargo build --release -p grim-tools --bin grim-encode
#   benches/grid/propagator.sh            # writes benches/grid/propagator-results.csv
#
# Environment: GRIM (the grim-encode binary), OUT (the CSV), LIMIT (CPU s per run of the cut
# loop and CP-SAT, default 60; the propagator gets 120). A run that hits its limit is TIMEOUT.
set -u
cd "$(dirname "$0")/../.."
GRIM=${GRIM:-target/release/grim-encode}
OUT=${OUT:-benches/grid/propagator-results.csv}
LIMIT=${LIMIT:-60}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "solver,spec,seed,status,cpu_s" > "$OUT"
run() { # solver spec seed limit command...
  local solver=$1 spec=$2 seed=$3 limit=$4; shift 4
  ( ulimit -t "$limit"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$@" > /dev/null 2> "$TMP/err" )
  local rc=$? u sy
  read -r u sy < <(tail -1 "$TMP/t")
  local cpu; cpu=$(python3 -c "print(f'{$u + $sy:.2f}')" 2>/dev/null || echo "$limit")
  local status=OK; [ $rc -eq 0 ] || status="EXIT$rc"
  if [ $rc -eq 137 ] || [ $rc -eq 152 ]; then status=TIMEOUT; cpu=$limit; fi
  echo "$solver,$spec,$seed,$status,$cpu" >> "$OUT"
  echo "$solver $spec seed $seed: $status $cpu s" >&2
}
grim() { # spec seeds lazy-seeds extra-args
  local spec=$1 seeds=$2 lazy=$3; shift 3
  for s in $seeds; do run propagator "$(basename "$spec" .json)$*" "$s" 120 "$GRIM" solve "$spec" --seed "$s" "$@"; done
  for s in $lazy; do run cut-loop "$(basename "$spec" .json)$*" "$s" "$LIMIT" "$GRIM" solve "$spec" --seed "$s" --connectivity lazy "$@"; done
}
cpsat() { # spec seeds
  python3 -c "import ortools" 2>/dev/null || return 0
  for s in $2; do run cp-sat "$(basename "$1" .json)" "$s" "$LIMIT" python3 benches/grid/cpsat_dungeon.py "$1" --seed "$s" --quiet --time-limit 100000; done
}
G=instances/grid
grim $G/dungeon-32.json "1 2 3 4 5" "1 2 3 4 5";   cpsat $G/dungeon-32.json "1 2 3"
grim $G/dungeon-64.json "1 2 3 4 5" "1 2 3";       cpsat $G/dungeon-64.json "1"
grim $G/dungeon-128.json "1 2 3" ""
grim $G/cave-64.json "1 2 3 4 5" "1"
grim benches/grid/keep-connected-16.json "1" "1"
grim $G/showcase-12.json "0 1 2 3 4 5 6 7 8 9" "0 1 2" --preferences soft
grim $G/enclosure-soft-12.json "0 1 2 3 4 5 6 7 8 9" "0"
