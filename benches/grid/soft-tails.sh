#!/usr/bin/env bash
# Issue 41, "soft levels without heavy tails": the CPU-time distribution of proven soft optima.
#
# For each soft spec and seeds 0..N-1, runs `grim-encode solve SPEC --seed S` (adding
# `--preferences soft` where the file is not soft) under a per-run wall-clock limit (`--time`),
# records CPU seconds (user+sys, /usr/bin/time), the cost, the lower bound and whether the optimum
# was proven into a CSV, and prints p50/p95/max of CPU per spec (an unproven run counts at the CPU
# it used, so the tail is a lower bound on the truth; the `proven` column says how many finished).
# For the first R seeds it also exports the WCNF and runs grim-sat and RC2 (python-sat) on it
# under the same limit, so the three are compared on the same formula.
#
# Usage: benches/grid/soft-tails.sh [N=100] [TIME=5] [R=3] [OUT=benches/grid/soft-tails.csv]
# Environment: SPECS="a.json b.json" overrides the list; BUILD=0 skips the release build;
# ENC=path runs another grim-encode binary (a build of an older commit, for before/after);
# EXTRA="-v" adds arguments to every `grim-encode solve` (`-v`: the anytime schedule,
# `grim_levels::solve_soft_anytime`; its rows are named grim-encode-v).
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-100}
LIMIT=${2:-5}
R=${3:-3}
OUT=${4:-benches/grid/soft-tails.csv}
ENC=${ENC:-target/release/grim-encode}
SAT=target/release/grim-sat
if [ "${BUILD:-1}" != 0 ]; then
  cargo build --release -p grim-tools --bin grim-encode --bin grim-sat >&2
fi
SPECS=${SPECS:-"benches/grid/soft/site-12.json benches/grid/soft/site-12-15.json instances/grid/enclosure-soft-12.json instances/grid/showcase-12.json instances/grid/dungeon-12.json"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# RC2 on a WCNF, printing "cost proven(1/0)"; the wall-clock limit is applied by `timeout`.
rc2() {
  timeout "$LIMIT" python3 -c '
import sys
from pysat.formula import WCNF
from pysat.examples.rc2 import RC2
w = WCNF(from_file=sys.argv[1])
with RC2(w) as r:
    m = r.compute()
    print(r.cost if m is not None else "unsat", 1)
' "$1" 2>/dev/null || echo "- 0"
}

echo "spec,seed,solver,cpu_s,cost,lower_bound,proven" >"$OUT"
for spec in $SPECS; do
  extra=()
  grep -q '"mode": *"soft"' "$spec" || extra=(--preferences soft)
  name=$(basename "$spec" .json)
  for ((s = 0; s < N; s++)); do
    # shellcheck disable=SC2086 # EXTRA is a list of words
    /usr/bin/time -f '%U %S' -o "$TMP/t" "$ENC" solve "$spec" --seed "$s" "${extra[@]}" \
      --time "$LIMIT" ${EXTRA:-} >/dev/null 2>"$TMP/e" || true
    cpu=$(tail -1 "$TMP/t" | awk '{printf "%.3f", $1 + $2}')
    if grep -q 'proven least' "$TMP/e"; then
      cost=$(sed -n 's/.*: cost \([0-9]*\) (proven least.*/\1/p' "$TMP/e" | tail -1)
      lb=$cost
      proven=1
    else
      cost=$(sed -n 's/.*the level printed costs \([0-9]*\).*/\1/p' "$TMP/e" | tail -1)
      lb=$(sed -n 's/.*no level costs less than \([0-9]*\).*/\1/p' "$TMP/e" | tail -1)
      proven=0
    fi
    echo "$name,$s,grim-encode${EXTRA:+${EXTRA// /}},$cpu,${cost:--},${lb:--},$proven" >>"$OUT"
    if ((s < R)); then
      "$ENC" "$spec" --seed "$s" --preferences soft -o "$TMP/x.wcnf" 2>/dev/null
      /usr/bin/time -f '%U %S' -o "$TMP/t" "$SAT" --time "$LIMIT" "$TMP/x.wcnf" >"$TMP/o" 2>/dev/null || true
      cpu=$(tail -1 "$TMP/t" | awk '{printf "%.3f", $1 + $2}')
      cost=$(awk '/^o /{c=$2} END{print c}' "$TMP/o")
      proven=0
      grep -q '^s OPTIMUM FOUND' "$TMP/o" && proven=1
      echo "$name,$s,grim-sat-wcnf,$cpu,${cost:--},-,$proven" >>"$OUT"
      /usr/bin/time -f '%U %S' -o "$TMP/t" bash -c "$(declare -f rc2); LIMIT=$LIMIT rc2 $TMP/x.wcnf" >"$TMP/o" || true
      cpu=$(tail -1 "$TMP/t" | awk '{printf "%.3f", $1 + $2}')
      read -r cost proven <"$TMP/o"
      echo "$name,$s,rc2-wcnf,$cpu,$cost,-,$proven" >>"$OUT"
    fi
  done
done

python3 - "$OUT" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")
print(f"{'spec':24} {'solver':14} {'runs':>4} {'proven':>6} {'p50':>7} {'p95':>7} {'max':>7}")
keys = []
for r in rows:
    k = (r["spec"], r["solver"])
    if k not in keys:
        keys.append(k)
for k in keys:
    rs = [r for r in rows if (r["spec"], r["solver"]) == k]
    c = [float(r["cpu_s"]) for r in rs]
    pr = sum(r["proven"] == "1" for r in rs)
    print(f"{k[0]:24} {k[1]:14} {len(rs):4} {pr:6} {pct(c, .5):7.2f} {pct(c, .95):7.2f} {max(c):7.2f}")
PY
