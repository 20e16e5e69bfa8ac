#!/usr/bin/env bash
# Checks that DRAT proofs stay valid through every inprocessing technique (issue 16): runs
# grim-sat (release) on each instance with inprocessing forced on (probing, substitution,
# transitive reduction, subsumption, elimination and congruence-closure rounds every few conflicts, ITE/XOR gates, irredundant
# vivification, chronological backtracking on every backjump, random decision sequences and
# dynamic tier limits, factoring as by default), writes a
# binary DRAT proof, and has `rate` (strict: unit deletions are not skipped) verify every UNSAT
# answer. SAT answers have their model checked by grim-check; a run that ends in UNKNOWN (the
# time limit) is counted, not failed. Then the same run again with a binary LRAT proof
# (`--lrat`; the search is the same, the proof's format does not change it), which the test
# kit's LRAT checker (`lrat-check`, written from the format's definition, independent of the
# engine) must verify: two independent paths, DRAT through rate and LRAT through lrat-check,
# for each UNSAT answer. Exit status 1 if any proof is rejected, any checker run does not
# finish, or any model is wrong.
#
# Usage: benches/proof-check.sh [-t SOLVE_SECONDS] [-r RATE_SECONDS] INSTANCE...
#   e.g. benches/proof-check.sh ../shared/bench/instances/sat/regression/*.cnf.gz
# Why a separate schedule and not the default: the default fires most techniques a few times
# per run, on large instances only; forcing them every few conflicts puts every technique's
# proof steps (RAT clauses of factoring and elimination, substitution's equivalences, probing's
# hyper-binary resolvents, chrono's out-of-order units) into proofs of small instances too.
set -uo pipefail
solve_limit=60
rate_limit=600
while getopts "t:r:" o; do
  case $o in
    t) solve_limit=$OPTARG ;;
    r) rate_limit=$OPTARG ;;
    *) echo "usage: proof-check.sh [-t SOLVE_SECONDS] [-r RATE_SECONDS] INSTANCE..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
(($#)) || { echo "usage: proof-check.sh [-t SOLVE_SECONDS] [-r RATE_SECONDS] INSTANCE..." >&2; exit 2; }
command -v rate >/dev/null || { echo "proof-check: rate is not installed (cargo install rate)" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
(cd "$root" && cargo build --release -q --bin grim-sat --bin grim-check --bin lrat-check) || exit 2
sat="$root/target/release/grim-sat"
check="$root/target/release/grim-check"
lratcheck="$root/target/release/lrat-check"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
forced=(--opt probe_interval=4 --opt substitute_interval=4 --opt transred_interval=4 --opt subsume_interval=4
        --opt eliminate_interval=4 --opt eliminate_gates_ite_xor=1 --opt congruence=1 --opt congruence_interval=4
        --opt vivify_irredundant_share=0.3 --opt chrono_levels=0 --opt rephase_interval=3
        --opt reduce_interval=5 --opt reduce_increment=1
        --opt randec=true --opt reduce_tier1_relative=0.5 --opt reduce_tier2_relative=0.9)
verified=0; lrat_verified=0; sat_ok=0; unknown=0; fail=0
for f in "$@"; do
  name=$(basename "$f")
  proof="$tmp/proof.drat"
  start=$(date +%s.%N)
  timeout "$solve_limit" "$sat" -q "${forced[@]}" --binary-proof --proof "$proof" "$f" > "$tmp/out"
  rc=$?
  solve_s=$(echo "$(date +%s.%N) - $start" | bc)
  case $rc in
    20)
      bytes=$(stat -c %s "$proof")
      start=$(date +%s.%N)
      timeout "$rate_limit" rate "$f" "$proof" > "$tmp/rate" 2>&1
      rrc=$?
      rate_s=$(echo "$(date +%s.%N) - $start" | bc)
      if grep -q '^s VERIFIED' "$tmp/rate"; then
        verified=$((verified + 1))
        printf 'VERIFIED %s solve %.1fs proof %d bytes rate %.1fs\n' "$name" "$solve_s" "$bytes" "$rate_s"
      else
        fail=$((fail + 1))
        printf 'FAIL %s: rate did not verify the proof (exit %d after %.1fs): %s\n' \
          "$name" "$rrc" "$rate_s" "$(grep '^s ' "$tmp/rate" | head -1)"
      fi
      # The same run with a binary LRAT proof, checked by the test kit's LRAT checker.
      lrat="$tmp/proof.lrat"
      start=$(date +%s.%N)
      timeout "$solve_limit" "$sat" -q "${forced[@]}" --lrat --binary-proof --proof "$lrat" "$f" > "$tmp/out2"
      lrc=$?
      lsolve_s=$(echo "$(date +%s.%N) - $start" | bc)
      if ((lrc != 20)); then
        fail=$((fail + 1))
        printf 'FAIL %s: the LRAT run answered exit %d, the DRAT run 20\n' "$name" "$lrc"
        continue
      fi
      lbytes=$(stat -c %s "$lrat")
      start=$(date +%s.%N)
      timeout "$rate_limit" "$lratcheck" "$f" "$lrat" > "$tmp/lrat" 2>&1
      crc=$?
      check_s=$(echo "$(date +%s.%N) - $start" | bc)
      if grep -q '^s VERIFIED' "$tmp/lrat"; then
        lrat_verified=$((lrat_verified + 1))
        printf 'LRAT-VERIFIED %s solve %.1fs proof %d bytes lrat-check %.1fs\n' "$name" "$lsolve_s" "$lbytes" "$check_s"
      else
        fail=$((fail + 1))
        printf 'FAIL %s: lrat-check did not verify the LRAT proof (exit %d after %.1fs): %s\n' \
          "$name" "$crc" "$check_s" "$(grep '^c ' "$tmp/lrat" | tail -1)"
      fi
      ;;
    10)
      if "$check" "$f" "$tmp/out" > /dev/null; then
        sat_ok=$((sat_ok + 1))
        printf 'SAT %s solve %.1fs (model checked)\n' "$name" "$solve_s"
      else
        fail=$((fail + 1))
        echo "FAIL $name: the model does not satisfy the formula"
      fi
      ;;
    *)
      unknown=$((unknown + 1))
      printf 'UNKNOWN %s (exit %d after %.1fs)\n' "$name" "$rc" "$solve_s"
      ;;
  esac
done
echo "proof-check: $verified UNSAT proofs verified by rate, $lrat_verified LRAT proofs of the same runs verified by lrat-check, $sat_ok SAT models checked, $unknown unknown, $fail failed"
((fail == 0))
