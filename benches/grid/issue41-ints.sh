#!/usr/bin/env bash
# Issue 41, counts as integers: `grim-encode solve` with `--count-ints off` (the counters of
# families/counts/propagate.rs) and `--count-ints on` (families/counts/ints.rs), interleaved in
# the same run, CPU seconds (user + system).
#
#   cargo build --release -p grim-tools --bin grim-encode
#   benches/grid/issue41-ints.sh shipped     # instances/grid/*.json, seeds 1-5, default mode
#   benches/grid/issue41-ints.sh cases       # benches/grid/issue41{,-ints}/*.json, every --connectivity
#
# Prints one CSV row per run: spec,seed,mode,ints,exit,cpu_s. Exit 20 is "no level", 6 a
# budget, 124/137/152 the CPU limit (LIMIT s per run, default 20). The shipped runs also say on
# stderr when the two levels differ (the integer literals change the search, so they may).
set -u
cd "$(dirname "$0")/../.."
GRIM=${GRIM:-target/release/grim-encode}
LIMIT=${LIMIT:-20}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() { # file seed mode ints
  local seedarg=()
  [ "$2" != - ] && seedarg=(--seed "$2")
  ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$GRIM" solve "$1" "${seedarg[@]}" \
      --connectivity "$3" --count-ints "$4" > "$TMP/out.$4" 2> /dev/null )
  local rc=$?
  read -r u s < <(tail -1 "$TMP/t")
  local cpu
  cpu=$(python3 -c "print(f'{$u + $s:.2f}')" 2>/dev/null || echo "$LIMIT")
  echo "$(basename "$1" .json),$2,$3,$4,$rc,$cpu"
}
echo "spec,seed,mode,ints,exit,cpu_s"
case "${1:-shipped}" in
  shipped)
    for f in instances/grid/*.json; do
      for seed in 1 2 3 4 5; do
        for ints in off on; do run "$f" "$seed" propagator "$ints"; done
        cmp -s "$TMP/out.off" "$TMP/out.on" || echo "# $(basename "$f" .json) seed $seed: the levels differ" >&2
      done
    done ;;
  cases)
    for f in benches/grid/issue41/*.json benches/grid/issue41-ints/*.json; do
      for mode in propagator lazy eager; do
        for ints in off on; do run "$f" - "$mode" "$ints"; done
      done
    done ;;
esac
