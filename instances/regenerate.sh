#!/usr/bin/env bash
# Rebuilds the CNF corpus in instances/cnf/ with grim-gen and writes instances/MANIFEST, the
# expected answer of every instance as established by two external solvers (MiniSat and
# CaDiCaL; PicoSAT too when installed). See instances/README.md.
#
# Usage:
#   instances/regenerate.sh           regenerate the generated instances, re-verify every
#                                     instance (hand-written ones included), rewrite MANIFEST
#   instances/regenerate.sh --check   regenerate nothing; verify that MANIFEST matches what the
#                                     external solvers answer and that regenerating would
#                                     reproduce every generated file byte for byte
#
# Needs: cargo (builds grim-gen in release mode), gzip, minisat, cadical
#   (Debian: apt-get install -y minisat cadical picosat).
# The generators are deterministic (seeded SplitMix64), so a rerun must leave `git diff
# instances/` empty; a difference means a generator changed and the corpus with it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cnf_dir="$here/cnf"
manifest="$here/MANIFEST"
check_only=0
if [[ "${1:-}" == "--check" ]]; then
  check_only=1
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--check]" >&2
  exit 2
fi

for tool in minisat cadical gzip; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "regenerate.sh: '$tool' is not installed (apt-get install -y minisat cadical picosat gzip)" >&2
    exit 1
  fi
done

# Per-solver time limit in seconds. Every instance is meant to take well under a second.
limit=20

echo "building grim-gen (release)..." >&2
(cd "$root" && cargo build --quiet --release -p grim-tools --bin grim-gen)
gen="$root/target/release/grim-gen"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The generated part of the corpus: NAME then grim-gen arguments. A NAME in `gzipped` is
# stored as NAME.cnf.gz (gzip -n: no file name or time stamp, so the bytes are reproducible).
generated=(
  "php-5                   php --holes 5"
  "php-6                   php --holes 6"
  "php-7                   php --holes 7"
  "php-8                   php --holes 8"
  "ksat3-n50-r3.5-s1       ksat --vars 50 --clauses 175 --k 3 --seed 1"
  "ksat3-n100-r3.5-s1      ksat --vars 100 --clauses 350 --k 3 --seed 1"
  "ksat3-n150-r3.5-s1      ksat --vars 150 --clauses 525 --k 3 --seed 1"
  "ksat3-n50-r5.5-s1       ksat --vars 50 --clauses 275 --k 3 --seed 1"
  "ksat3-n100-r5.5-s1      ksat --vars 100 --clauses 550 --k 3 --seed 1"
  "ksat3-n150-r5.5-s1      ksat --vars 150 --clauses 825 --k 3 --seed 1"
  "ksat3-n50-r4.26-s1      ksat --vars 50 --clauses 213 --k 3 --seed 1"
  "ksat3-n50-r4.26-s3      ksat --vars 50 --clauses 213 --k 3 --seed 3"
  "ksat3-n100-r4.26-s1     ksat --vars 100 --clauses 426 --k 3 --seed 1"
  "ksat3-n100-r4.26-s2     ksat --vars 100 --clauses 426 --k 3 --seed 2"
  "ksat3-n100-r4.26-s3     ksat --vars 100 --clauses 426 --k 3 --seed 3"
  "ksat3-n100-r4.26-s4     ksat --vars 100 --clauses 426 --k 3 --seed 4"
  "ksat3-n150-r4.26-s1     ksat --vars 150 --clauses 639 --k 3 --seed 1"
  "ksat3-n150-r4.26-s2     ksat --vars 150 --clauses 639 --k 3 --seed 2"
  "ksat3-n150-r4.26-s3     ksat --vars 150 --clauses 639 --k 3 --seed 3"
  "ksat3-n150-r4.26-s4     ksat --vars 150 --clauses 639 --k 3 --seed 4"
  "ksat4-n40-m320-s1       ksat --vars 40 --clauses 320 --k 4 --seed 1"
  "ksat4-n40-m600-s1       ksat --vars 40 --clauses 600 --k 4 --seed 1"
  "ksat5-n30-m450-s1       ksat --vars 30 --clauses 450 --k 5 --seed 1"
  "ksat5-n30-m900-s1       ksat --vars 30 --clauses 900 --k 5 --seed 1"
  "parity-v14-e24-sat      parity --vertices 14 --edges 24 --max-degree 4 --seed 1"
  "parity-v14-e24-unsat    parity --vertices 14 --edges 24 --max-degree 4 --unsat --seed 1"
  "parity-v22-e38-sat      parity --vertices 22 --edges 38 --max-degree 4 --seed 1"
  "parity-v22-e38-unsat    parity --vertices 22 --edges 38 --max-degree 4 --unsat --seed 1"
  "color-planted-v60-k3    color --vertices 60 --colors 3 --edge-probability 0.15 --planted --seed 1"
  "color-planted-v100-k4   color --vertices 100 --colors 4 --edge-probability 0.2 --planted --seed 1"
  "color-v50-k3-p0.08      color --vertices 50 --colors 3 --edge-probability 0.08 --seed 1"
  "color-v40-k3-p0.12      color --vertices 40 --colors 3 --edge-probability 0.12 --seed 1"
  "color-v30-k3-p0.3       color --vertices 30 --colors 3 --edge-probability 0.3 --seed 1"
  "color-complete-v5-k4    color --vertices 5 --colors 4 --edge-probability 1"
  "ordering-6              ordering --n 6"
  "ordering-8              ordering --n 8"
  "ordering-10             ordering --n 10"
  "ordering-12             ordering --n 12"
  "queens-2                queens --n 2"
  "queens-3                queens --n 3"
  "queens-4                queens --n 4"
  "queens-8                queens --n 8"
  "queens-16               queens --n 16"
  "latin-o5-s1             latin --order 5 --givens 0.4 --seed 1"
  "latin-o7-s2             latin --order 7 --givens 0.4 --seed 2"
  "latin-o9-s3             latin --order 9 --givens 0.42 --seed 3"
)
gzipped=" php-6 ksat3-n150-r4.26-s4 "

# Writes the instance NAME generated by ARGS... to FILE (gzipped when NAME is listed above).
generate() {
  local name="$1" file="$2"
  shift 2
  # shellcheck disable=SC2068 # the arguments are words on purpose
  if [[ "$gzipped" == *" $name "* ]]; then
    "$gen" $@ | gzip -n -9 >"$file"
  else
    "$gen" $@ >"$file"
  fi
}

if [[ $check_only -eq 0 ]]; then
  mkdir -p "$cnf_dir"
  # Remove previously generated files (their names carry no `edge-` prefix); hand-written
  # edge cases stay.
  find "$cnf_dir" -maxdepth 1 -type f \( -name '*.cnf' -o -name '*.cnf.gz' \) ! -name 'edge-*' -delete
fi
for entry in "${generated[@]}"; do
  read -r name args <<<"$entry"
  ext=".cnf"
  [[ "$gzipped" == *" $name "* ]] && ext=".cnf.gz"
  if [[ $check_only -eq 0 ]]; then
    # shellcheck disable=SC2086
    generate "$name" "$cnf_dir/$name$ext" $args
  else
    # shellcheck disable=SC2086
    generate "$name" "$work/regen$ext" $args
    if ! cmp -s "$work/regen$ext" "$cnf_dir/$name$ext"; then
      echo "regenerate.sh: cnf/$name$ext differs from what 'grim-gen $args' writes now" >&2
      exit 1
    fi
  fi
done

# Runs SOLVER on the plain-text FILE and prints SAT, UNSAT or a description of the failure.
answer() {
  local solver="$1" file="$2" rc=0
  case "$solver" in
    minisat) timeout "$limit" minisat -verb=0 "$file" "$work/minisat.out" >/dev/null 2>&1 || rc=$? ;;
    cadical) timeout "$limit" cadical -q "$file" >/dev/null 2>&1 || rc=$? ;;
    picosat) timeout "$limit" picosat "$file" >/dev/null 2>&1 || rc=$? ;;
  esac
  case "$rc" in
    10) echo SAT ;;
    20) echo UNSAT ;;
    124) echo "timeout(${limit}s)" ;;
    *) echo "exit-$rc" ;;
  esac
}

solvers="minisat cadical"
command -v picosat >/dev/null 2>&1 && solvers="$solvers picosat"

lines=()
failures=0
sat=0
unsat=0
while IFS= read -r file; do
  rel="cnf/$(basename "$file")"
  plain="$work/instance.cnf"
  if [[ "$file" == *.gz ]]; then gzip -dc "$file" >"$plain"; else cp "$file" "$plain"; fi
  verdict=""
  report=""
  for solver in $solvers; do
    got="$(answer "$solver" "$plain")"
    report="$report $solver=$got"
    if [[ -z "$verdict" ]]; then
      verdict="$got"
    elif [[ "$verdict" != "$got" ]]; then
      verdict="DISAGREE"
    fi
  done
  # The generator's own claim (`c expected SAT by construction`) must agree as well.
  claim="$(sed -n 's/^c expected \(SAT\|UNSAT\) by construction$/\1/p' "$plain" | head -n 1)"
  if [[ -n "$claim" && "$claim" != "$verdict" ]]; then
    report="$report construction=$claim"
    verdict="DISAGREE"
  fi
  case "$verdict" in
    SAT) sat=$((sat + 1)) ;;
    UNSAT) unsat=$((unsat + 1)) ;;
    *)
      echo "regenerate.sh: $rel:$report" >&2
      failures=$((failures + 1))
      continue
      ;;
  esac
  lines+=("$rel $verdict")
done < <(find "$cnf_dir" -maxdepth 1 -type f \( -name '*.cnf' -o -name '*.cnf.gz' \) | LC_ALL=C sort)

if [[ $failures -gt 0 ]]; then
  echo "regenerate.sh: $failures instance(s) without an agreed answer; MANIFEST left unchanged" >&2
  exit 1
fi

{
  echo "# Expected answers of the corpus: one line per instance, 'PATH ANSWER', PATH relative to"
  echo "# this directory, ANSWER SAT or UNSAT as agreed by minisat and cadical (and picosat"
  echo "# when installed)."
  echo "# Written by regenerate.sh; see README.md."
  printf '%s\n' "${lines[@]}"
} >"$work/MANIFEST"

if [[ $check_only -eq 1 ]]; then
  if ! cmp -s "$work/MANIFEST" "$manifest"; then
    echo "regenerate.sh: MANIFEST differs from the solvers' answers:" >&2
    diff "$manifest" "$work/MANIFEST" >&2 || true
    exit 1
  fi
  echo "corpus ok: ${#lines[@]} instances ($sat SAT, $unsat UNSAT), answers agreed by $solvers" >&2
else
  cp "$work/MANIFEST" "$manifest"
  echo "wrote MANIFEST: ${#lines[@]} instances ($sat SAT, $unsat UNSAT), answers agreed by $solvers" >&2
fi
