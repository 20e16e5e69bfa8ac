#!/usr/bin/env bash
# Runs grim-sat (release) on every WCNF listed in the CSV files of a MaxSAT Evaluation
# regression folder and checks each answer:
#   - the CSV's `Satisfiable` column: UNSATISFIABLE rows must get `s UNSATISFIABLE` (exit 20);
#     SATISFIABLE rows must get `s OPTIMUM FOUND` (exit 30);
#   - every model is checked with grim-check (hard clauses satisfied, recomputed cost equal to
#     the last `o` line);
#   - the proven optimum must equal the CSV's `BestOValue`. A lower cost on a row whose
#     `CertifiedResult` is NO is reported as BETTER (the model was checked, so the CSV's value
#     was only the best known), not as a failure; anything else that differs fails.
# CSV rows look like `DIR/name.wcnf, BestOValue, Satisfiable, CertifiedResult, Model`, paths
# relative to the CSV's folder; `c` lines and the header row are skipped. A WCNF under DIR that
# no CSV lists is still run: it must be solved (OPTIMUM FOUND or UNSATISFIABLE) and its model
# must pass grim-check.
#
# Usage: benches/maxsat-regression.sh DIR [TIMEOUT_SECONDS] [-- GRIM_SAT_OPTIONS...]
#   e.g. benches/maxsat-regression.sh ../shared/bench/instances/maxsat/regression 60
# Prints one line per failure and a summary; exits 0 when nothing failed.
set -uo pipefail
dir=${1:?usage: maxsat-regression.sh DIR [TIMEOUT] [-- GRIM_SAT_OPTIONS...]}
limit=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
[[ ${1:-} == -- ]] && shift
extra=("$@")
dir=$(cd "$dir" && pwd) || exit 2
cd "$(dirname "$0")/.."
cargo build --release -q --bin grim-sat --bin grim-check || exit 2
sat=$PWD/target/release/grim-sat
check=$PWD/target/release/grim-check
out=$(mktemp); trap 'rm -f "$out"' EXIT
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
pass=0; fail=0; better=0; total=0; unlisted=0
declare -A listed=()
start=$(date +%s.%N)
shopt -s nullglob
csvs=("$dir"/*.csv)
((${#csvs[@]})) || { echo "no CSV files in $dir"; exit 2; }
for csv in "${csvs[@]}"; do
  # `|| [[ -n $file ]]`: the last row may lack its newline.
  while IFS=, read -r file best satisfiable certified _model || [[ -n "${file:-}" ]]; do
    file=$(trim "$file")
    [[ -z "$file" || "$file" == c* || "$file" == WCNFFile ]] && { file=; continue; }
    listed[$file]=1
    best=$(trim "$best"); satisfiable=$(trim "$satisfiable"); certified=$(trim "$certified")
    total=$((total + 1))
    instance="$dir/$file"
    if [[ ! -f "$instance" ]]; then
      fail=$((fail + 1)); echo "FAIL $file: listed in $(basename "$csv") but missing"; continue
    fi
    timeout "$limit" "$sat" -q "${extra[@]}" "$instance" >"$out"; rc=$?
    cost=$(grep -E '^o ' "$out" | tail -n 1 | cut -d' ' -f2)
    verdict=ok
    case "$satisfiable" in
      UNSATISFIABLE)
        [[ $rc == 20 ]] || verdict="expected UNSATISFIABLE, got exit $rc" ;;
      SATISFIABLE)
        if [[ $rc != 30 ]]; then
          verdict="expected OPTIMUM FOUND ($best), got exit $rc${cost:+ (last o $cost)}"
        elif ! msg=$("$check" "$instance" "$out" 2>&1); then
          verdict="grim-check refused the answer: $msg"
        elif [[ "$best" != None && "$cost" != "$best" ]]; then
          if [[ "$certified" != YES && "$cost" =~ ^[0-9]+$ && "$best" =~ ^[0-9]+$ ]] &&
             python3 -c "import sys; sys.exit(0 if $cost < $best else 1)"; then
            verdict=better
          else
            verdict="optimum $cost, but the CSV says $best (certified: $certified)"
          fi
        fi ;;
      *) verdict="unknown Satisfiable column \`$satisfiable\`" ;;
    esac
    case "$verdict" in
      ok) pass=$((pass + 1)) ;;
      better) pass=$((pass + 1)); better=$((better + 1))
              echo "BETTER $file: optimum $cost below the CSV's uncertified $best (model checked)" ;;
      *) fail=$((fail + 1)); echo "FAIL $file: $verdict" ;;
    esac
    file=
  done <"$csv"
done
while IFS= read -r instance; do
  file=${instance#"$dir"/}
  [[ -n "${listed[$file]:-}" ]] && continue
  total=$((total + 1)); unlisted=$((unlisted + 1))
  timeout "$limit" "$sat" -q "${extra[@]}" "$instance" >"$out"; rc=$?
  if [[ $rc == 20 ]] || { [[ $rc == 30 ]] && "$check" "$instance" "$out" >/dev/null 2>&1; }; then
    pass=$((pass + 1))
    echo "UNLISTED $file: $(grep -E '^s ' "$out") $(grep -E '^o ' "$out" | tail -n 1) (no CSV row; model checked)"
  else
    fail=$((fail + 1)); echo "FAIL $file (no CSV row): exit $rc or the model failed grim-check"
  fi
done < <(find "$dir" -name '*.wcnf' -o -name '*.wcnf.gz' | sort)
seconds=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
echo "maxsat regression: $total instances ($unlisted not in a CSV), $pass passed ($better better than the CSV), $fail failed, ${seconds} s wall"
((fail == 0))
