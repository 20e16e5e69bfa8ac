#!/usr/bin/env bash
# EvalMaxSAT ("latest", as hermax 1.2.10 ships it) on one WCNF file: plain or compressed,
# old `p wcnf` or new `h` format.
# Prints the MaxSAT Evaluation way for ../shared/bench/compare.py: `o COST`, then
# `s OPTIMUM FOUND` / `s UNSATISFIABLE` / `s UNKNOWN`, then a new-format 0/1 `v` line.
# Single thread, the bindings' built-in (default) configuration: they expose no options.
# Runs hermax_adapter.py next to this file; needs `pip install hermax` (validated with 1.2.10).
# A benchmark oracle only: grimoire never depends on it.
# Exits 0 like RC2's adapter; a run killed by compare.py's CPU limit prints no `s` line, which
# compare.py counts as unsolved.
set -u
exec python3 "$(dirname "$0")/hermax_adapter.py" evalmaxsat "$1"
