#!/usr/bin/env bash
# Issue 41, anytime soft solving: for seeds 0..N-1 of a soft spec, `grim-encode solve -v`
# (the anytime schedule, grim_levels::solve_soft_anytime) under a wall-clock limit; from its
# "a level of cost C, no level costs less than L; S s CPU" lines: the CPU seconds (of the
# process, from its start) to the first level, the cost of the best level by 0.1 s and 1 s of
# CPU, and the last lower bound. Then the default solve (no -v) under the same limit for the
# cost it ends with.
#
# Usage: [ENC=grim-encode binary] benches/grid/anytime.sh [SPEC=instances/grid/cave-64.json] [N=5] [TIME=8]
set -euo pipefail
cd "$(dirname "$0")/../.."
SPEC=${1:-instances/grid/cave-64.json}
N=${2:-5}
LIMIT=${3:-8}
ENC=${ENC:-target/release/grim-encode}
extra=()
grep -q '"mode": *"soft"' "$SPEC" || extra=(--preferences soft)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "seed,first_level_cpu_s,first_cost,cost_at_0.1s,cost_at_1s,best_cost,cpu_s,lower_bound,default_cost,default_lower_bound,default_cpu_s"
for ((s = 0; s < N; s++)); do
  /usr/bin/time -f '%U %S' -o "$TMP/t" "$ENC" solve "$SPEC" --seed "$s" "${extra[@]}" -v \
    --time "$LIMIT" >/dev/null 2>"$TMP/e" || true
  cpu=$(tail -1 "$TMP/t" | awk '{printf "%.2f", $1 + $2}')
  row=$(awk -v lim="$LIMIT" '
    /a level of cost/ {
      c = $7 + 0; t = $(NF - 2) + 0
      if (first == "") { first = t; fc = c }
      if (t <= 0.1) c01 = c
      if (t <= 1.0) c1 = c
      best = c
    }
    /no level costs less than/ { n = split($0, w, "less than "); split(w[n], v, /[;,]/); lb = v[1] + 0 }
    /proven least/ { lb = best }
    END { printf "%s,%s,%s,%s,%s", first, fc, (c01 == "" ? "-" : c01), (c1 == "" ? "-" : c1), best; printf ",LB%s", lb }' "$TMP/e")
  lb=${row##*,LB}
  row=${row%,LB*}
  /usr/bin/time -f '%U %S' -o "$TMP/t" "$ENC" solve "$SPEC" --seed "$s" "${extra[@]}" \
    --time "$LIMIT" >/dev/null 2>"$TMP/e" || true
  dcpu=$(tail -1 "$TMP/t" | awk '{printf "%.2f", $1 + $2}')
  dcost=$(sed -n 's/.*costs \([0-9]*\), and no level costs less than \([0-9]*\).*/\1,\2/p; s/.*cost \([0-9]*\) (proven.*/\1,\1/p' "$TMP/e" | tail -1)
  echo "$s,$row,$cpu,$lb,${dcost:--,-},$dcpu"
done
