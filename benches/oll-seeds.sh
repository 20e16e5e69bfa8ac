#!/usr/bin/env bash
# Measures the OLL optimiser over a set of WCNF instances under several engine seeds, through the
# `encodings/maxsat/tests/maxsat.rs` harness (one process per instance and seed, CPU seconds and exact
# conflict counts).
#
# Why seeds: on maxsat-main a change of the engine's initial variable order alone (`seed`) moves
# the 52-instance CPU sum by 20% (148.5 / 176.9 / 185.8 s for seeds 0 / 1 / 2) and single
# instances by 2x, so a one-seed comparison cannot see a 5% effect. Compare means over seeds.
#
# Usage: benches/oll-seeds.sh [-s "0 1 2"] [-o OLL_OPTS] [-j JOBS] [-t CPU_LIMIT] SETFILE [OUTDIR]
#   SETFILE  one .wcnf or .wcnf.gz path per line, relative to the set file's directory's parent
#            when not absolute (so ../shared/bench/sets/maxsat-main.txt works as it is);
#   -o       harness options, e.g. "exhaust_phases=0" or "reduce_interval=1000" (OLL switches
#            and any engine option, comma-separated); the seed is appended;
#   -j       seeds run in parallel (default 1: clean timing; 2 on this 2-core machine costs a
#            few percent of CPU time per run and leaves conflicts unchanged);
#   -t       CPU seconds per run (default 120; a run that hits it counts as 2x the limit).
# Prints one line per seed (CPU sum, conflict sum, runs that did not finish) and the means;
# per-instance lines go to OUTDIR/seed-N.txt (default: a fresh temporary directory).
set -uo pipefail
seeds="0 1 2"; opts=""; jobs=1; limit=120
while getopts "s:o:j:t:" flag; do
  case $flag in
    s) seeds=$OPTARG ;;
    o) opts=$OPTARG ;;
    j) jobs=$OPTARG ;;
    t) limit=$OPTARG ;;
    *) echo "usage: oll-seeds.sh [-s SEEDS] [-o OLL_OPTS] [-j JOBS] [-t LIMIT] SETFILE [OUTDIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
set_file=${1:?usage: oll-seeds.sh [-s SEEDS] [-o OLL_OPTS] [-j JOBS] [-t LIMIT] SETFILE [OUTDIR]}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
set_file=$(realpath "$set_file")
base=$(dirname "$(dirname "$set_file")")
cd "$(dirname "$0")/.."
harness=$(cargo test --release -p grim-maxsat --test maxsat --no-run 2>&1 |
  grep -o 'target/release/deps/maxsat-[0-9a-f]*' | head -1)
[[ -x $harness ]] || { echo "oll-seeds.sh: could not build the harness" >&2; exit 1; }
harness=$(realpath "$harness")

# The harness reads plain WCNF: unpack once.
plain=$(mktemp -d); trap 'rm -rf "$plain"' EXIT
files=()
while read -r f; do
  [[ -z $f || $f == \#* ]] && continue
  [[ $f == /* ]] || f="$base/$f"
  name=$(basename "$f" .gz)
  zcat -f "$f" >"$plain/$name" || { echo "oll-seeds.sh: cannot read $f" >&2; exit 1; }
  files+=("$plain/$name")
done <"$set_file"

run_seed() {
  local seed=$1 o="seed=$1" t
  [[ -n $opts ]] && o="$opts,seed=$1"
  : >"$out/seed-$seed.txt"
  for f in "${files[@]}"; do
    t=$(mktemp)
    /usr/bin/time -o "$t" -f "%U %S" bash -c 'ulimit -t "$1"; shift; exec env "$@"' _ "$limit" \
      OLL_OPTS="$o" OLL_FILES="$f" "$harness" --ignored --nocapture bench >"$t.out" 2>/dev/null
    local cpu status conflicts
    cpu=$(tail -1 "$t" | awk '{print $1 + $2}')
    status=$(grep -o 'wcnf: [A-Za-z]* cost Some([0-9]*)' "$t.out" | sed 's/wcnf: //; s/ cost Some//')
    conflicts=$(grep -o 'conflicts: [0-9]*, prop' "$t.out" | grep -o '[0-9]*')
    if [[ -z $status ]]; then cpu=$((2 * limit)); status=UNFINISHED; conflicts=0; fi
    printf "%-32s %8.2f %-18s %s\n" "$(basename "$f" .wcnf)" "$cpu" "$status" "$conflicts" \
      >>"$out/seed-$seed.txt"
    rm -f "$t" "$t.out"
  done
}

for s in $seeds; do
  run_seed "$s" &
  while (($(jobs -r | wc -l) >= jobs)); do sleep 1; done
done
wait
for s in $seeds; do
  awk -v s="$s" '{t += $2; c += $4; u += ($3 == "UNFINISHED")}
    END {printf "seed %s: CPU %.1f s, conflicts %d, unfinished %d, over %d\n", s, t, c, u, NR}' \
    "$out/seed-$s.txt"
done | tee "$out/summary.txt"
awk '{t += $4; c += $7; n++} END {printf "mean: CPU %.1f s, conflicts %.0f\n", t / n, c / n}' \
  "$out/summary.txt" | tee -a "$out/summary.txt"
echo "per-instance lines: $out"
