#!/usr/bin/env bash
# Rebuilds the WCNF corpus in instances/wcnf/ with grim-gen and writes instances/OPTIMA, the
# optimum of every instance as RC2 (python-sat, the MaxSAT reference) computes it. See
# instances/README.md.
#
# Usage: instances/regenerate-wcnf.sh        (needs cargo, python3 with python-sat, xz, bzip2)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
python3 -c 'import pysat.examples.rc2' 2>/dev/null || {
  echo "regenerate-wcnf.sh: python-sat is not installed (pip install python-sat)" >&2; exit 1; }
cargo build -q --release -p grim-tools --bin grim-gen --manifest-path "$root/Cargo.toml"
gen="$root/target/release/grim-gen"
out="$here/wcnf"
mkdir -p "$out"
rm -f "$out"/*.wcnf "$out"/*.wcnf.xz "$out"/*.wcnf.bz2
"$gen" maxsat --vars 30 --hard 40 --soft 60 --max-weight 9 --seed 1 > "$out/maxsat-v30-s1.wcnf"
"$gen" maxsat --vars 40 --hard 60 --soft 80 --max-weight 1 --seed 2 > "$out/maxsat-unweighted-v40-s2.wcnf"
"$gen" vertex-cover --vertices 30 --edges 60 --seed 3 > "$out/vertex-cover-v30-e60-s3.wcnf"
"$gen" maxcut --vertices 16 --edge-probability 0.4 --max-weight 5 --seed 4 > "$out/maxcut-v16-s4.wcnf"
"$gen" wis --vertices 30 --edge-probability 0.2 --max-weight 9 --seed 5 > "$out/wis-v30-s5.wcnf"
"$gen" set-cover --elements 40 --sets 25 --seed 6 > "$out/set-cover-e40-s25-s6.wcnf"
"$gen" lex --vars 12 --clauses 150 --levels 3 --seed 7 > "$out/lex-v12-s7.wcnf"
# Hard clauses that contradict each other: no solution at all.
printf 'c hand-written: the hard clauses are unsatisfiable\nh 1 0\nh -1 2 0\nh -2 0\n3 1 0\n' \
  > "$out/edge-hard-unsat.wcnf"
# The same instance in the old format, and two compressed copies (xz and bzip2 by content).
printf 'c hand-written: old format, TOP 10\np wcnf 3 4 10\n10 1 2 0\n10 -1 -2 0\n4 1 0\n3 2 0\n' \
  > "$out/edge-old-format.wcnf"
xz -9 -k -c "$out/maxsat-v30-s1.wcnf" > "$out/maxsat-v30-s1-copy.wcnf.xz"
bzip2 -9 -k -c "$out/wis-v30-s5.wcnf" > "$out/wis-v30-s5-copy.wcnf.bz2"

{
  echo "# Optima of the WCNF corpus: one line per instance, 'PATH OPTIMUM' (or 'PATH UNSAT'),"
  echo "# PATH relative to this directory, OPTIMUM as computed by RC2 (python-sat)."
  echo "# Written by regenerate-wcnf.sh; see README.md."
  for f in $(cd "$here" && ls wcnf/* | sort); do
    cost=$(python3 - "$here/$f" <<'PY'
import bz2, lzma, sys
from pysat.formula import WCNF
from pysat.examples.rc2 import RC2
path = sys.argv[1]
opener = lzma.open if path.endswith('.xz') else bz2.open if path.endswith('.bz2') else open
with opener(path, 'rt') as f:
    text = f.read()
w = WCNF(from_string=text)
with RC2(w) as rc2:
    model = rc2.compute()
    print('UNSAT' if model is None else rc2.cost)
PY
)
    echo "$f $cost"
  done
} > "$here/OPTIMA"
cat "$here/OPTIMA"
