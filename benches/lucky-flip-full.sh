#!/bin/bash
# lucky_flip on/off over whole runs (the flips' undo re-inserts variables into the decision
# heap, so the search after a failed lucky phase may differ): CPU s and answer per instance,
# LIMIT s of CPU each (ulimit -t). Usage: bash benches/lucky-flip-full.sh SET [LIMIT] > OUT.csv
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
G="$ROOT/target/release/grim-sat"
SET=${1:-sets/sat-quick.txt}
LIMIT=${2:-20}
cd "$ROOT/../shared/bench"
echo "file,on_cpu,on_answer,off_cpu,off_answer"
for f in $(cat "$SET"); do
  row="$(basename "$f")"
  for opt in lucky_flip=true lucky_flip=false; do
    ( ulimit -t "$LIMIT"; /usr/bin/time -o /tmp/lf.t -f "%U %S" "$G" --opt "$opt" "$f" > /tmp/lf.out 2>/dev/null )
    cpu=$(tail -1 /tmp/lf.t | awk '{printf "%.2f", $1 + $2}')
    ans=$(grep -m1 "^s " /tmp/lf.out | cut -c3-)
    row="$row,$cpu,${ans:-none}"
  done
  echo "$row"
done
