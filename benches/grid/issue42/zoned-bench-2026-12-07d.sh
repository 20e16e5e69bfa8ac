#!/bin/sh
# benches/results/issue42-zoned-2026-12-07d.md: seeds 1-5 of each SPEC, the binaries
# /tmp/h42z-BIN (release grim-encode builds) interleaved per seed, CPU s user+sys under
# `ulimit -t CAP`. BIN: base = main fd68d48; c2 = d4eec75 (scratch past 128), c3 = 66f140e
# (c2 + gates); c2b = 80682b7 with main's locks part (scratch past 1,024); c4 = 80682b7.
# usage: bench.sh CAP "bins" specs...
CAP=$1; BINS=$2; shift 2
echo "spec,seed,bin,cpu_s,conflicts,exit"
for spec in "$@"; do for seed in 1 2 3 4 5; do for b in $BINS; do
  out=$( { /usr/bin/time -f 'cpu %U %S' sh -c "ulimit -t $CAP; /tmp/h42z-$b solve $spec --seed $seed --stats >/tmp/h42z/lvl-$b 2>/tmp/h42z/err-$b; echo rc \$?" ; } 2>&1 )
  cpu=$(echo "$out" | awk '/^cpu/ {printf "%.2f", $2 + $3}')
  rc=$(echo "$out" | awk '/^rc/ {print $2}')
  c=$(sed -n 's/.* \([0-9]*\) conflicts\{0,1\};.*/\1/p' /tmp/h42z/err-$b)
  echo "$(basename $spec .json),$seed,$b,$cpu,$c,$rc"
done; done; done
