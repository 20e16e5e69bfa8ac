#!/usr/bin/env bash
# Certifies grim-sat's MaxSAT answers with VeriPB: for each WCNF (a folder's *.wcnf and
# *.wcnf.gz, or the files given; gzip is unpacked to a temporary file, as veripb reads plain
# text), `grim-sat --proof` writes a VeriPB proof and `veripb --wcnf` must print
# `s VERIFIED BOUNDS c <= obj <= c` with c the cost of grim's model (checked by grim-check), or
# `INF` for `s UNSATISFIABLE`. Files with a `p wcnf` header are skipped (veripb reads only the
# headerless format) and counted.
#
# With --overhead, every file is also solved without a proof twice — with the default options
# and with the options a proof turns off turned off by hand — and one line per file gives the
# CPU seconds (user + system) of the three runs and of veripb; the summary gives the median and
# worst ratio proof / no proof.
#
# With --no-check (with --overhead), veripb is not run: the proof-writing overhead alone (checking
# takes 5-40x grim's own time on maxsat-main).
#
# Usage: benches/veripb-check.sh [--overhead [--no-check]] [--timeout CPU_S] DIR_OR_FILES...
# Exits 0 when every solved answer was verified.
set -uo pipefail
overhead=0; nocheck=0; limit=60
while [[ ${1:-} == --* ]]; do
  case $1 in
    --overhead) overhead=1; shift ;;
    --no-check) nocheck=1; shift ;;
    --timeout) limit=$2; shift 2 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
(($#)) || { echo "usage: veripb-check.sh [--overhead] [--timeout S] DIR_OR_FILES..."; exit 2; }
files=()
for a in "$@"; do
  if [[ -d $a ]]; then
    shopt -s nullglob; files+=("$a"/*.wcnf "$a"/*.wcnf.gz "$a"/*/*.wcnf "$a"/*/*.wcnf.gz); shopt -u nullglob
  else files+=("$a"); fi
done
((nocheck)) || command -v veripb >/dev/null || { echo "veripb is not installed (cargo install veripb)"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && cargo build --release -q --bin grim-sat --bin grim-check) || exit 2
sat=$root/target/release/grim-sat
check=$root/target/release/grim-check
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The options a proof turns off (Oll::with_proof), for the second no-proof run.
off=(--opt am1=0 --opt symmetry=0 --opt bnb_ticks=0 --opt factor=0 --opt sle=0 --opt equiv=0 --opt merge_softs=0)
# The limit is CPU time (ulimit -t), not wall time: on a loaded machine a wall-clock limit cuts
# runs short by how busy the other processes are, not by what they cost. A wall guard of 20x
# stops a run that hangs without computing.
limited=(timeout $((limit * 20)) bash -c 'ulimit -t "$0"; exec "$@"' "$limit")
cpu() { tail -1 "$1" | awk '{printf "%.2f", $1 + $2}'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", (x + 0.01) / (y + 0.01) }'; }
median_worst() {
  sort -g | awk -v what="$1" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s, CPU: median %.2f, worst %.2f over %d files\n", what, m, v[NR], NR }'
}
verified=0; failed=0; unsolved=0; skipped=0
ratios=(); ratios2=()
if ((overhead)); then
  printf '%-40s %8s %8s %8s %8s %6s %6s\n' file default off proof veripb p/def p/off
fi
for f in "${files[@]}"; do
  name=$(basename "$f")
  inst=$f
  if [[ $f == *.gz ]]; then inst=$tmp/${name%.gz}; gzip -dc "$f" > "$inst"; fi
  if grep -qm1 '^p wcnf' "$inst"; then skipped=$((skipped + 1)); continue; fi
  if ((overhead)); then
    /usr/bin/time -f '%U %S' -o "$tmp/t0" "${limited[@]}" "$sat" -q -n "$inst" > /dev/null 2>&1
    /usr/bin/time -f '%U %S' -o "$tmp/t1" "${limited[@]}" "$sat" -q -n "${off[@]}" "$inst" > /dev/null 2>&1
  fi
  /usr/bin/time -f '%U %S' -o "$tmp/t2" "${limited[@]}" "$sat" -q "$inst" --proof "$tmp/p.pbp" > "$tmp/out" 2>&1
  rc=$?
  if [[ $rc != 30 && $rc != 20 ]]; then
    unsolved=$((unsolved + 1))
    if ((overhead)); then
      echo "unsolved with the proof (exit $rc): $name (no proof: default $(cpu "$tmp/t0") s, off $(cpu "$tmp/t1") s)"
    else
      echo "unsolved (exit $rc): $name"
    fi
    continue
  fi
  if [[ $rc == 30 ]]; then
    "$check" "$inst" "$tmp/out" > /dev/null 2>&1 || { failed=$((failed + 1)); echo "FAIL (model): $name"; continue; }
    cost=$(grep '^o ' "$tmp/out" | tail -1 | cut -d' ' -f2)
    want="s VERIFIED BOUNDS $cost <= obj <= $cost"
  else
    want="s VERIFIED BOUNDS INF <= obj <= INF"
  fi
  if ((nocheck)); then
    echo "0 0" > "$tmp/t3"; echo "$want" > "$tmp/v"
  else
    /usr/bin/time -f '%U %S' -o "$tmp/t3" timeout $((10 * limit)) veripb --wcnf "$inst" "$tmp/p.pbp" > "$tmp/v" 2>&1
  fi
  if grep -qxF "$want" "$tmp/v"; then
    verified=$((verified + 1))
  else
    failed=$((failed + 1)); echo "FAIL (veripb): $name: $(grep -m1 -E 's VERIFIED|rror|Caused' "$tmp/v")"
    continue
  fi
  if ((overhead)); then
    a=$(cpu "$tmp/t0"); b=$(cpu "$tmp/t1"); c=$(cpu "$tmp/t2"); d=$(cpu "$tmp/t3")
    r=$(ratio "$c" "$a"); r2=$(ratio "$c" "$b")
    ratios+=("$r"); ratios2+=("$r2")
    printf '%-40s %8s %8s %8s %8s %6s %6s\n' "${name:0:40}" "$a" "$b" "$c" "$d" "$r" "$r2"
  fi
done
((nocheck)) && echo "(--no-check: veripb was not run; 'verified' counts the answers grim-check accepted)"
echo "verified $verified, failed $failed, unsolved $unsolved, skipped (p wcnf header) $skipped"
if ((overhead && ${#ratios[@]})); then
  printf '%s\n' "${ratios[@]}" | median_worst "proof / no proof (default options)"
  printf '%s\n' "${ratios2[@]}" | median_worst "proof / no proof (the proof's options)"
fi
((failed == 0))
