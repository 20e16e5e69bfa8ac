#!/usr/bin/env bash
# Issue 41, counts as integers, before/after in one run: `grim-encode solve` from two builds
# (BEFORE: a build of the commit before the order literals were deferred, e.g. main's; AFTER:
# this tree's), each with `--count-ints off` and `on`, interleaved per seed; CPU seconds (user +
# system) and the engine's conflicts (`--stats`).
#
#   cargo build --release -p grim-tools --bin grim-encode
#   BEFORE=/path/to/old/grim-encode benches/grid/issue41-ints-b.sh shipped  # instances/grid, seeds 1-5
#   BEFORE=... benches/grid/issue41-ints-b.sh cases    # benches/grid/issue41{,-ints}/*.json, every --connectivity
#   INTS=on BEFORE=... benches/grid/issue41-ints-b.sh big  # the 64x64 and 128x128 specs, seeds 1-3
# (INTS: the --count-ints values to run, default "off on").
#
# Prints CSV: spec,seed,mode,build,ints,exit,cpu_s,conflicts. Exit 20 is "no level", 137 the
# CPU limit (LIMIT s per run, default 20). A build without BEFORE runs AFTER only.
set -u
cd "$(dirname "$0")/../.."
AFTER=${AFTER:-target/release/grim-encode}
BEFORE=${BEFORE:-}
LIMIT=${LIMIT:-20}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() { # file seed mode build-name binary ints
  local seedarg=()
  [ "$2" != - ] && seedarg=(--seed "$2")
  ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$5" solve "$1" "${seedarg[@]}" \
      --connectivity "$3" --count-ints "$6" --stats > /dev/null 2> "$TMP/err" )
  local rc=$?
  read -r u s < <(tail -1 "$TMP/t")
  local cpu conf
  cpu=$(python3 -c "print(f'{$u + $s:.2f}')" 2>/dev/null || echo "$LIMIT")
  conf=$(grep -o '[0-9]* conflicts' "$TMP/err" | head -1 | cut -d' ' -f1)
  echo "$(basename "$1" .json),$2,$3,$4,$6,$rc,$cpu,${conf:--}"
}
builds() { # file seed mode
  for ints in ${INTS:-off on}; do
    [ -n "$BEFORE" ] && run "$1" "$2" "$3" before "$BEFORE" "$ints"
    run "$1" "$2" "$3" after "$AFTER" "$ints"
  done
}
echo "spec,seed,mode,build,ints,exit,cpu_s,conflicts"
case "${1:-shipped}" in
  shipped)
    for f in instances/grid/*.json; do
      for seed in 1 2 3 4 5; do builds "$f" "$seed" propagator; done
    done ;;
  big)
    for f in instances/grid/*-6[34].json instances/grid/*-128.json; do
      for seed in 1 2 3; do builds "$f" "$seed" propagator; done
    done ;;
  cases)
    for f in benches/grid/issue41/*.json benches/grid/issue41-ints/*.json; do
      for mode in propagator lazy eager; do builds "$f" - "$mode"; done
    done ;;
esac
