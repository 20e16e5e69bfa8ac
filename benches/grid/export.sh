#!/usr/bin/env bash
# Issue 40's benchmark: the exported CNF/WCNF (`grim-encode SPEC --seed S -o X`) handed to
# external solvers, beside the in-process solve (`grim-encode solve`). CPU seconds (user +
# system, /usr/bin/time) of the whole solver process, one run at a time; every answer is
# decoded and judged by `grim-encode decode` (every clause, then the referee), so a row is OK
# only when the level it names is valid.
#
#   cargo build --release -p grim-tools
#   benches/grid/export.sh                      # every shipped spec, seeds 1-3
#   SPECS="instances/grid/dungeon-32.json" SEEDS="1" LIMIT=20 benches/grid/export.sh
#
# Solvers: cadical (CaDiCaL on PATH, 1.5.3 on Debian), kissat404 (Kissat 4.0.4 through
# ../shared/bench/adapters/pysat-sat.py: its time includes Python's parse of the file), grim-sat;
# for WCNF exports RC2 (python-sat's, default configuration) and grim-sat. `inproc` is
# `grim-encode solve` on the spec (propagators, hints).
#
# Environment: GRIM_DIR (the release binaries, default target/release), OUT (the CSV, default
# benches/grid/export-results.csv), LIMIT (CPU s per solver run, default 60), SPECS, SEEDS,
# SOLVERS (default "inproc cadical kissat404 grim-sat"; "rc2" is used for WCNF instead of the
# SAT solvers). Prints a Markdown table (median CPU s over the seeds, max in brackets) at the end.
set -u
cd "$(dirname "$0")/../.."
BIN=${GRIM_DIR:-target/release}
OUT=${OUT:-benches/grid/export-results.csv}
LIMIT=${LIMIT:-60}
SEEDS=${SEEDS:-"1 2 3"}
SOLVERS=${SOLVERS:-"inproc cadical kissat404 grim-sat"}
ADAPT=../shared/bench/adapters
SPECS=${SPECS:-$(ls instances/grid/*.json | grep -v dungeon-128)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "spec,seed,format,bytes,vars,clauses,export_cpu_s,solver,status,cpu_s" > "$OUT"

cpu_of() { # time file -> "u+s"
  read -r u sy < <(tail -1 "$1")
  python3 -c "print(f'{$u + $sy:.2f}')" 2>/dev/null || echo "?"
}

# run NAME LIMIT OUTFILE cmd... : sets STATUS and CPU
run() {
  local limit=$2 out=$3; shift 3
  ( ulimit -t "$limit"; /usr/bin/time -f "%U %S" -o "$TMP/t" "$@" > "$out" 2> "$TMP/err" )
  RC=$?
  CPU=$(cpu_of "$TMP/t")
  if [ $RC -eq 137 ] || [ $RC -eq 152 ] || [ $RC -eq 124 ]; then STATUS=TIMEOUT; CPU=">$limit"; fi
}

for spec in $SPECS; do
  name=$(basename "$spec" .json)
  for seed in $SEEDS; do
    f="$TMP/$name-$seed.cnf"
    /usr/bin/time -f "%U %S" -o "$TMP/et" "$BIN/grim-encode" "$spec" --seed "$seed" -o "$f" 2> /dev/null
    ecpu=$(cpu_of "$TMP/et")
    if [ ! -s "$f" ]; then
      # The export refused the spec (a chokepoints rule too large for its exact encoding).
      echo "$name,$seed,refused,0,0,0,$ecpu,export,REFUSED,0" >> "$OUT"
      continue
    fi
    bytes=$(stat -c %s "$f")
    if grep -q '^p cnf' "$f"; then
      fmt=cnf; read -r _ _ vars clauses < <(grep -m1 '^p cnf' "$f")
    else
      # RC2 (python-sat) reads a file by its extension: a WCNF named .cnf fails at once.
      mv "$f" "${f%.cnf}.wcnf"; f=${f%.cnf}.wcnf
      fmt=wcnf; vars=$(grep -v '^c' "$f" | tr ' ' '\n' | grep -v '^h$' | awk 'NR>0{v=$1<0?-$1:$1; if(v>m)m=v} END{print m+0}')
      clauses=$(grep -vc '^c' "$f")
    fi
    for solver in $SOLVERS; do
      STATUS=""
      case "$solver" in
        inproc) run "$solver" "$LIMIT" "$TMP/out" "$BIN/grim-encode" solve "$spec" --seed "$seed" ;;
        cadical) [ $fmt = cnf ] || continue; run "$solver" "$LIMIT" "$TMP/out" cadical -q "$f" ;;
        kissat404) [ $fmt = cnf ] || continue; run "$solver" "$LIMIT" "$TMP/out" python3 "$ADAPT/pysat-sat.py" kissat404 "$f" ;;
        grim-sat) run "$solver" "$LIMIT" "$TMP/out" "$BIN/grim-sat" "$f" ;;
        # RC2's default configuration (python-sat's command line).
        rc2) [ $fmt = wcnf ] || continue; run "$solver" "$LIMIT" "$TMP/out" python3 -m pysat.examples.rc2 -vv --vnew "$f" ;;
      esac
      if [ -z "$STATUS" ]; then
        if [ "$solver" = inproc ]; then
          if [ $RC -eq 0 ]; then STATUS=OK; elif [ $RC -eq 20 ]; then STATUS=NOLEVEL; else STATUS="EXIT$RC"; fi
        elif grep -q '^s UNSATISFIABLE' "$TMP/out"; then STATUS=UNSAT
        elif grep -qE '^s (SATISFIABLE|OPTIMUM FOUND)' "$TMP/out"; then
          if "$BIN/grim-encode" decode "$spec" --seed "$seed" "$TMP/out" > /dev/null 2> "$TMP/derr"; then
            STATUS=OK
            cost=$(grep '^o ' "$TMP/out" | tail -1 | awk '{print $2}')
            [ -n "$cost" ] && STATUS="OK(o=$cost)"
          else STATUS=BADLEVEL; fi
        else STATUS="EXIT$RC"; fi
      fi
      echo "$name,$seed,$fmt,$bytes,$vars,$clauses,$ecpu,$solver,$STATUS,$CPU" >> "$OUT"
      echo "$name seed $seed ($bytes B): $solver $STATUS $CPU s" >&2
    done
  done
done

python3 - "$OUT" <<'EOF'
import csv, sys, statistics
rows = list(csv.DictReader(open(sys.argv[1])))
specs = list(dict.fromkeys(r["spec"] for r in rows))
solvers = list(dict.fromkeys(r["solver"] for r in rows))
print("| spec | MB | vars | clauses | " + " | ".join(solvers) + " |")
print("|---|---|---|---|" + "---|" * len(solvers))
for s in specs:
    rs = [r for r in rows if r["spec"] == s]
    cells = []
    for v in solvers:
        xs = [r for r in rs if r["solver"] == v]
        if not xs:
            cells.append("–"); continue
        bad = [r["status"] for r in xs if not r["status"].startswith("OK") and r["status"] not in ("UNSAT", "NOLEVEL")]
        t = [float(r["cpu_s"].lstrip(">")) for r in xs]
        lim = any(r["cpu_s"].startswith(">") for r in xs)
        txt = f"{statistics.median(t):.2f} ({max(t):.2f})" + (" ✗" + "/".join(sorted(set(bad))) if bad else "")
        cells.append(txt)
    r0 = rs[0]
    print(f"| {s} | {int(r0['bytes'])/1e6:.1f} | {r0['vars']} | {r0['clauses']} | " + " | ".join(cells) + " |")
EOF
