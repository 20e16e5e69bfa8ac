#!/usr/bin/env bash
# Compares two grim-encode binaries on every shipped grid spec, seeds 0-9: the export
# (CNF/WCNF bytes), `solve` in every connectivity mode, and `--preferences soft` solves.
# Stdout, stderr and the exit code must be the same bytes; `solve --stats` (propagator mode)
# must report the same rounds, cuts, conflicts and model size (its wall-clock is dropped).
# Lazy and eager solves get --time LIMIT; a pair that times out (exit 6) in both is listed,
# not compared (what a timer stops at is not deterministic); a timeout in one only is a
# difference.
#
#   benches/grid/no-change.sh BEFORE/grim-encode AFTER/grim-encode OUT.txt [LIMIT]
#
# One line per run: the case, the verdict (SAME, TIMEOUT-BOTH, DIFF), the exit codes and the
# CPU seconds (user+sys) before/after. Run one at a time on a quiet machine.
set -u
before=$1 after=$2 out=$3 limit=${4:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$out"

# run TAG BIN ARGS...: stdout, stderr, exit code and CPU time into $tmp/TAG.*
run() {
    local tag=$1 bin=$2
    shift 2
    /usr/bin/time -f '%U %S' -o "$tmp/$tag.time" "$bin" "$@" > "$tmp/$tag.out" 2> "$tmp/$tag.err"
    echo $? > "$tmp/$tag.rc"
}

cpu() { tail -n 1 "$1" | awk '{printf "%.2f", $1 + $2}'; }

# compare NAME STATS ARGS...: both binaries on ARGS; STATS=1 strips the wall-clock.
compare() {
    local name=$1 stats=$2
    shift 2
    run b "$before" "$@"
    run a "$after" "$@"
    if [ "$stats" = 1 ]; then
        for t in a b; do sed -i 's/; [0-9.]* s wall-clock in all//' "$tmp/$t.err"; done
    fi
    local rb ra verdict
    rb=$(cat "$tmp/b.rc") ra=$(cat "$tmp/a.rc")
    if [ "$rb" = 6 ] && [ "$ra" = 6 ]; then
        verdict=TIMEOUT-BOTH
    elif cmp -s "$tmp/b.out" "$tmp/a.out" && cmp -s "$tmp/b.err" "$tmp/a.err" && [ "$rb" = "$ra" ]; then
        verdict=SAME
    else
        verdict=DIFF
    fi
    printf '%-58s %-12s rc=%s/%s cpu=%s/%s\n' "$name" "$verdict" "$rb" "$ra" \
        "$(cpu "$tmp/b.time")" "$(cpu "$tmp/a.time")" | tee -a "$out"
}

for spec in instances/grid/*.json; do
    s=$(basename "$spec" .json)
    for seed in 0 1 2 3 4 5 6 7 8 9; do
        compare "$s seed=$seed export" 0 "$spec" --seed "$seed"
        compare "$s seed=$seed solve propagator" 0 solve "$spec" --seed "$seed"
        compare "$s seed=$seed solve propagator --stats" 1 solve "$spec" --seed "$seed" --stats
        compare "$s seed=$seed solve lazy" 0 solve "$spec" --seed "$seed" --connectivity lazy --time "$limit"
        compare "$s seed=$seed solve eager" 0 solve "$spec" --seed "$seed" --connectivity eager --time "$limit"
    done
done
for s in showcase-12 enclosure-soft-12; do
    for seed in 0 1 2 3 4 5 6 7 8 9; do
        compare "$s seed=$seed solve --preferences soft" 0 solve "instances/grid/$s.json" --seed "$seed" --preferences soft
        compare "$s seed=$seed export --preferences soft" 0 "instances/grid/$s.json" --seed "$seed" --preferences soft
    done
done
