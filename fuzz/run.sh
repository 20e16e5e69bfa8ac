#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 60), one after the other, then
# replays the saved regression inputs. Exits non-zero at the first crash; libFuzzer leaves the
# crashing input in fuzz/artifacts/TARGET/ (copy it to fuzz/regressions/ with a telling name).
#
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
#
# cargo-fuzz needs nightly-only compiler flags (sanitizers, coverage instrumentation);
# RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them. `-a` keeps debug assertions on, so
# the engine's own invariant checks (and its model check) run under the fuzzer too.
set -euo pipefail

cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(dimacs_parse wcnf_parse solve_vs_bruteforce api_sequence oll_vs_bruteforce card_vs_enumeration grid_json_parse propagator_sequence)
fi

if ! command -v cargo-fuzz > /dev/null; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi

export RUSTC_BOOTSTRAP=1
for target in "${targets[@]}"; do
    # Replay the regressions of this target first: a fixed bug must stay fixed.
    shopt -s nullglob
    regressions=(regressions/"$target"-*)
    shopt -u nullglob
    if [ "${#regressions[@]}" -gt 0 ]; then
        echo "== $target: replaying ${#regressions[@]} regression input(s)"
        # A hang is a failure too: libFuzzer's own limit is 20 minutes per input.
        cargo fuzz run -a "$target" "${regressions[@]}" -- -timeout=60
    fi
    echo "== $target: fuzzing for ${seconds}s"
    mkdir -p "corpus/$target"
    if [ "$target" = grid_json_parse ] && [ -z "$(ls -A corpus/grid_json_parse)" ]; then
        cp ../instances/grid/*.json corpus/grid_json_parse/
        # Small specs of their own (at most 36 cells: the target solves only those).
        cp seeds/grid_json_parse/*.json corpus/grid_json_parse/
    fi
    if [ "$target" = wcnf_parse ] && [ -z "$(ls -A corpus/wcnf_parse)" ]; then
        find ../instances -name "*.wcnf*" -size -8k -exec cp {} corpus/wcnf_parse/ \; || true
    fi
    if [ "$target" = dimacs_parse ] && [ -z "$(ls -A corpus/dimacs_parse)" ]; then
        # Seed the parser with the small corpus instances (plain and gzip, edge cases
        # included): libFuzzer mutates real DIMACS far faster than it invents it.
        find ../instances -name '*.cnf*' -size -8k -exec cp {} corpus/dimacs_parse/ \;
    fi
    cargo fuzz run -a "$target" "corpus/$target" -- -max_total_time="$seconds" -print_final_stats=1
done
