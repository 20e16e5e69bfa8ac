#!/usr/bin/env bash
# Runs grim-sat (release) on a regression folder with an EXPECTED file (`NAME SAT|UNSAT` lines),
# checks every answer against EXPECTED and every model with grim-check, under the default
# options and under an aggressive schedule (rare techniques fire every few conflicts).
# Usage: benches/regression.sh DIR [TIMEOUT_SECONDS]
set -uo pipefail
dir=${1:?usage: regression.sh DIR [TIMEOUT]}
limit=${2:-60}
cd "$(dirname "$0")/.."
cargo build --release -q --bin grim-sat --bin grim-check
sat=target/release/grim-sat
check=target/release/grim-check
out=$(mktemp); trap 'rm -f "$out"' EXIT
aggressive=(--opt mode_initial=7 --opt mode_growth=1 --opt restart_min=1 --opt restart_margin=1
            --opt restart_luby_unit=2 --opt reduce_interval=5 --opt reduce_increment=1
            --opt rephase_interval=3)
pass=0; fail=0
while read -r name expected; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  for mode in default aggressive; do
    if [[ $mode == default ]]; then opts=(); else opts=("${aggressive[@]}"); fi
    timeout "$limit" "$sat" -q "${opts[@]}" "$dir/$name" >"$out"; rc=$?
    got=UNKNOWN
    [[ $rc == 10 ]] && got=SAT
    [[ $rc == 20 ]] && got=UNSAT
    ok=1
    if [[ $got != "$expected" ]]; then ok=0; fi
    if [[ $got == SAT ]] && ! "$check" "$dir/$name" "$out" >/dev/null; then ok=0; got="SAT(bad model)"; fi
    if ((ok)); then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name [$mode]: expected $expected, got $got (exit $rc)"; fi
  done
done <"$dir/EXPECTED"
echo "regression: $pass passed, $fail failed"
((fail == 0))
