#!/usr/bin/env python3
"""Compare two grim-sat binaries run for run: the "no change in behaviour" check of refactoring
issues (issue 18, issue 45; results in benches/results/*no-change*.md).

Each instance is run by BEFORE and then AFTER with `--stats --opt seed=0 --time LIMIT`, one run
at a time. A pair is SAME when the exit codes match, the `s` line, every `o` line, every `c LB`
line and the md5 of the `v` lines match, every other `c` line before the statistics matches once
times are masked, and every statistics line of BEFORE appears in AFTER with the same value
(rates and times masked). AFTER may print statistics lines BEFORE did not (a counter that
gained a line), which are counted and named, never a difference.

    benches/no-change.py --before BASE/grim-sat --after target/release/grim-sat \\
        --root /work/shared/bench /work/shared/bench/sets/sat-quick.txt ...

A run that reaches LIMIT (`c stopped by the time limit`: wall-clock time, so on a loaded machine a
run of a few CPU seconds can reach it) depends on the clock; the pair is reported as TIMEOUT, not
compared, and should be run again on a quieter machine (`--only NAME` runs one instance).
"""

import argparse
import hashlib
import os
import re
import resource
import subprocess
import sys

TIME = re.compile(r"\d+(\.\d+)? s\b")
RATE = re.compile(r"\s*\([0-9.e+-]+/s\)")


def run(binary, path, limit):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [binary, "--stats", "--opt", "seed=0", "--time", str(limit), path],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc.returncode, proc.stdout, cpu


def digest(out):
    """What must match, what is compared as a subset, and the figures for the table."""
    head, stats, v = [], {}, hashlib.md5()
    in_stats = False
    status, last_o, conflicts = "-", "-", "-"
    for line in out.splitlines():
        if line.startswith("v"):
            v.update(line.encode() + b"\n")
        elif line.startswith("s "):
            status = line[2:]
            head.append(line)
        elif line.startswith("o "):
            last_o = line[2:]
            head.append(line)
        elif line.startswith("c ---- statistics"):
            in_stats = True
        elif in_stats and line.startswith("c "):
            text = RATE.sub("", line[2:]).rstrip()
            parts = text.rsplit(None, 1)
            if len(parts) == 2 and not TIME.search(text):
                name, value = parts[0].strip(), parts[1]
                stats[name] = value
                if name == "conflicts":
                    conflicts = value
        elif line.startswith("c "):
            head.append(TIME.sub("T s", line))
        else:
            head.append(line)
    return head, stats, v.hexdigest(), status, last_o, conflicts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--root", default=".", help="instance paths are relative to this")
    ap.add_argument("--time", type=float, default=60)
    ap.add_argument("--only", action="append", help="run only instances whose path has this")
    ap.add_argument("sets", nargs="+", help="files of instance paths, one a line")
    args = ap.parse_args()
    same = total = timeouts = 0
    cpu_b = cpu_a = 0.0
    for set_file in args.sets:
        for rel in open(set_file).read().split():
            if args.only and not any(o in rel for o in args.only):
                continue
            path = os.path.join(args.root, rel)
            rc_b, out_b, t_b = run(args.before, path, args.time)
            rc_a, out_a, t_a = run(args.after, path, args.time)
            cpu_b += t_b
            cpu_a += t_a
            total += 1
            hb, sb, mb, status, o_b, c_b = digest(out_b)
            ha, sa, ma, _, o_a, c_a = digest(out_a)
            name = os.path.basename(rel).replace(".gz", "")
            stopped = "c stopped by the time limit"
            if stopped in out_b or stopped in out_a:
                verdict = "TIMEOUT"
                timeouts += 1
            else:
                missing = [k for k in sb if sa.get(k) != sb[k]]
                extra = [k for k in sa if k not in sb]
                ok = rc_b == rc_a and hb == ha and mb == ma and not missing
                same += ok
                verdict = "SAME" if ok else "DIFF " + ",".join(missing[:4])
                if ok and extra:
                    verdict += " (+%d lines: %s)" % (len(extra), ", ".join(extra))
            print(
                "%-40s %-12s rc=%d/%d o=%s/%s confl=%s/%s model%s stats%s cpu=%.2f/%.2f %s"
                % (
                    name[:40],
                    status[:12],
                    rc_b,
                    rc_a,
                    o_b,
                    o_a,
                    c_b,
                    c_a,
                    "==" if mb == ma else "!=",
                    "==" if all(sa.get(k) == sb[k] for k in sb) else "!=",
                    t_b,
                    t_a,
                    verdict,
                ),
                flush=True,
            )
    print(
        "%d/%d identical (%d timeouts not compared); CPU before %.2f s, after %.2f s"
        % (same, total - timeouts, timeouts, cpu_b, cpu_a)
    )
    return 0 if same == total - timeouts else 1


if __name__ == "__main__":
    sys.exit(main())
