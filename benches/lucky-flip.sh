#!/bin/bash
# lucky_flip on/off: CPU to the first conflict (lucky phase included) and the answer, per instance.
# Usage: bash benches/lucky-flip.sh > OUT.csv (from the repository; needs ../shared/bench).
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
G="$ROOT/target/release/grim-sat"
cd "$ROOT/../shared/bench"
echo "file,flip_on_cpu,flip_on_answer,flip_on_flips,flip_off_cpu,flip_off_answer"
for f in $(cat sets/sat-main.txt sets/sat-industrial.txt); do
  /usr/bin/time -o /tmp/t.on -f "cpu %U %S" timeout 120 $G --conflicts 1 --stats $f > /tmp/l.on 2>&1; on=$(awk "/^cpu/{printf \"%.2f\",\$2+\$3}" /tmp/t.on)
  /usr/bin/time -o /tmp/t.off -f "cpu %U %S" timeout 120 $G --conflicts 1 --stats --opt lucky_flip=false $f > /tmp/l.off 2>&1; off=$(awk "/^cpu/{printf \"%.2f\",\$2+\$3}" /tmp/t.off)
  a1=$(grep -m1 "^s " /tmp/l.on | cut -c3-); a2=$(grep -m1 "^s " /tmp/l.off | cut -c3-)
  fl=$(grep -i "lucky.flips\|lucky_flips" /tmp/l.on | head -1 | grep -o "[0-9]*" | head -1)
  echo "$(basename $f),$on,$a1,$fl,$off,$a2"
done
