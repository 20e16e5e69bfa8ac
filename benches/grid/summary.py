#!/usr/bin/env python3
"""The results table of benches/grid/README.md from one or more run.sh CSVs.

Per grid size: grim's whole-process CPU seconds, CP-SAT's CPU seconds inside Solve() and for
the whole process (median; min-max), and the ratio of the medians CP-SAT Solve() / grim --
the comparison most favourable to CP-SAT (its Python start-up and model building are left
out, grim's parsing, building and checking are counted). A run stopped by the CPU limit counts
as the limit (so a median with a timeout in it is a lower bound, marked with ">").
Usage: summary.py results.csv [more.csv ...]
"""
import csv
import statistics
import sys

rows = [r for path in sys.argv[1:] for r in csv.DictReader(open(path))]
sizes = sorted({int(r["size"]) for r in rows})


def times(solver, n, key):
    out = []
    for r in rows:
        if r["solver"] != solver or int(r["size"]) != n:
            continue
        timeout = r["status"] != "OK"
        value = r[key] or r["cpu_s"]  # a timeout has no Solve() time: the limit stands for it
        out.append((float(value), timeout))
    return out


def med(v):
    if not v:
        return None, False
    m = statistics.median([t for t, _ in v])
    # A lower bound when at least half of the runs at or above the median timed out.
    lower = any(to and t >= m for t, to in v)
    return m, lower


def cell(v):
    if not v:
        return "-"
    m, lower = med(v)
    ts = [t for t, _ in v]
    bad = sum(1 for _, to in v if to)
    s = f"{'>' if lower else ''}{m:.2f} ({min(ts):.2f}-{max(ts):.2f})"
    return s + (f", {bad} of {len(v)} stopped at the limit" if bad else "")


print("| dungeon | runs | grim CPU s, median (min-max) | CP-SAT Solve() CPU s | CP-SAT process CPU s | CP-SAT Solve() / grim |")
print("| --- | --- | --- | --- | --- | --- |")
for n in sizes:
    g = times("grim", n, "cpu_s")
    cs = times("cpsat", n, "solve_cpu_s")
    cp = times("cpsat", n, "cpu_s")
    gm, glow = med(g)
    cm, clow = med(cs)
    ratio = "-"
    if gm and cm is not None:
        ratio = f"{'>' if clow and not glow else ''}{cm / gm:.1f}x"
    runs = max(len(g), len(cs))
    print(f"| {n}x{n} | {runs} seeds | {cell(g)} | {cell(cs)} | {cell(cp)} | {ratio} |")
