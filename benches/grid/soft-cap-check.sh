#!/usr/bin/env bash
# Issue 41: the proven optima of `grim-encode solve` on a unit-weight soft spec, checked by an
# outside SAT solver. For each seed: C = grim-encode's proven cost; the exported WCNF with "at
# most C-1 wishes unmet" (benches/grid/wcnf_cap.py) must be UNSAT and with "at most C" SAT,
# both answered by CaDiCaL. Prints one line per seed with CaDiCaL's CPU s on the refutation.
#
# Usage: benches/grid/soft-cap-check.sh [SPEC=benches/grid/soft/site-12.json] [SEEDS="0 1 2 3 4"]
set -euo pipefail
cd "$(dirname "$0")/../.."
SPEC=${1:-benches/grid/soft/site-12.json}
SEEDS=${2:-"0 1 2 3 4"}
ENC=target/release/grim-encode
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
for s in $SEEDS; do
  c=$($ENC solve "$SPEC" --seed "$s" --preferences soft 2>&1 >/dev/null | sed -n 's/.*cost \([0-9]*\) (proven.*/\1/p')
  if [ -z "$c" ]; then echo "seed $s: no proven cost"; fail=1; continue; fi
  $ENC "$SPEC" --seed "$s" --preferences soft -o "$TMP/s.wcnf" 2>/dev/null
  python3 benches/grid/wcnf_cap.py "$TMP/s.wcnf" $((c - 1)) "$TMP/below.cnf"
  python3 benches/grid/wcnf_cap.py "$TMP/s.wcnf" "$c" "$TMP/at.cnf"
  below=$( { /usr/bin/time -f "%U %S" cadical -q "$TMP/below.cnf" | head -1; } 2>&1 | tr "\n" " " || true)
  at=$(cadical -q "$TMP/at.cnf" | head -1 || true)
  echo "seed $s cost $c: at most $((c - 1)) unmet: $below| at most $c: $at"
  case "$below$at" in *UNSATISFIABLE*"s SATISFIABLE"*) ;; *) fail=1 ;; esac
done
exit $fail
