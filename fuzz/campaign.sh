#!/usr/bin/env bash
# Long fuzzing campaigns measured in CPU time: fuzz each TARGET until its libFuzzer process has
# used CPU_SECONDS of CPU, then stop it with SIGINT (libFuzzer prints its final statistics and
# exits 72). Logs go to fuzz/logs/TARGET.log; crashes to fuzz/artifacts/TARGET/.
#
# Usage: fuzz/campaign.sh CPU_SECONDS TARGET...      e.g. fuzz/campaign.sh 3600 wcnf_parse
#
# Why CPU time and not `-max_total_time` (wall clock): on a shared machine a fuzzer that waits
# for a core is not fuzzing; "an hour per target" should mean an hour of fuzzing. The fuzzer runs
# at nice 19, so it takes only the CPU nobody else wants. Run two campaigns side by side on two
# cores. Build first: `cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -a`.
# Do not pause a campaign with SIGSTOP (say, to benchmark): libFuzzer's -timeout alarm counts
# wall time, and on SIGCONT it reports the input it was on as a timeout (it happened: 1405 s on
# an api_sequence input that runs in 0.1 s). Let it run; nice 19 keeps it out of the way only
# within one session, since the kernel's autogroups share the CPU between sessions first.
set -u
cd "$(dirname "$0")"
cpu="${1:?usage: campaign.sh CPU_SECONDS TARGET...}"
shift
bin=target/x86_64-unknown-linux-gnu/release
mkdir -p logs
for t in "$@"; do
    if [ ! -x "$bin/$t" ]; then
        echo "$bin/$t is not built: cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -a" >&2
        exit 2
    fi
    log="logs/$t.log"
    mkdir -p "corpus/$t" "artifacts/$t"
    start=$(date +%s)
    echo "== $t start $(date -u +%FT%TZ) cpu-limit ${cpu}s" > "$log"
    nice -n 19 "$bin/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" -max_total_time=10000000 \
        -print_final_stats=1 >> "$log" 2>&1 &
    pid=$!
    used=0
    while kill -0 "$pid" 2> /dev/null; do
        sleep 15
        if [ -r "/proc/$pid/stat" ]; then
            # utime + stime, fields 14 and 15, in clock ticks.
            ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
            used=$((ticks / $(getconf CLK_TCK)))
            if [ "$used" -ge "$cpu" ]; then
                kill -INT "$pid"
            fi
        fi
    done
    wait "$pid"
    rc=$?
    echo "== $t end $(date -u +%FT%TZ) rc=$rc wall=$(($(date +%s) - start))s cpu=${used}s (last reading, at most 15 s old; limit ${cpu}s)" >> "$log"
    # 72 is libFuzzer's exit code after SIGINT; anything else is a crash or an error.
    if [ "$rc" -ne 72 ]; then
        echo "$t: exit $rc, see $log and artifacts/$t/" >&2
    fi
done
