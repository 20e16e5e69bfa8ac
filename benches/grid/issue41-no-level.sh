#!/usr/bin/env bash
# Issue 41, "no level at once": `grim-encode solve` on the issue's contradicting specs
# (benches/grid/issue41/*.json: water max 30 vs min 40, enemies capped below half the floor,
# a root walled in by pins; 20x20, 12x12 and 64x64 versions) and the presolve-blind ones before
# the ratio-cycle and distance rules (benches/grid/issue41-ints/*.json) in every --connectivity mode,
# CPU seconds of the whole process (user + system). Exit 20 is "no level".
#
#   cargo build --release -p grim-tools --bin grim-encode
#   benches/grid/issue41-no-level.sh       # prints a markdown table
#
# Environment: GRIM (the grim-encode binary), LIMIT (CPU s per run, default 60).
set -u
cd "$(dirname "$0")/../.."
GRIM=${GRIM:-target/release/grim-encode}
LIMIT=${LIMIT:-60}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "| spec | mode | exit | CPU s | named |"
echo "|---|---|---|---|---|"
for f in benches/grid/issue41/*.json benches/grid/issue41-ints/*.json; do
  for mode in propagator lazy eager; do
    ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$GRIM" solve --connectivity "$mode" "$f" > /dev/null 2> "$TMP/err" )
    rc=$?
    read -r u s < <(tail -1 "$TMP/t")
    cpu=$(python3 -c "print(f'{$u + $s:.2f}')" 2>/dev/null || echo "$LIMIT")
    named=$(grep -o 'no level: .*' "$TMP/err" | sed 's/|/\\|/g' | cut -c1-160)
    echo "| $(basename "$f" .json) | $mode | $rc | $cpu | $named |"
  done
done
