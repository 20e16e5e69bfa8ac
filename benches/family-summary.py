#!/usr/bin/env python3
"""PAR-2 and solved counts per half and per family of a set with a SOURCES file (issue 44's
development set), from compare.py CSVs.

    family-summary.py --sources benches/instances/sat-dev/SOURCES --timeout 60 \
        [--kissat-sources] NAME=FILE.csv[:SOLVER] ... > summary.md

Each NAME=FILE.csv[:SOLVER] takes the rows of SOLVER (default: the CSV's only solver) from a
compare.py CSV. `--kissat-sources` adds a column `kissat` from the SOURCES file's screening
times (`kissat_cpu_s`; over the timeout counts as unsolved), so that the screening run is the
Kissat run of the comparison. The first column is the base of the ratios. A run over the
timeout is unsolved (PAR-2: twice the timeout). Why a script: the same table for every
technique's on/off run, computed the same way.
"""
import argparse, csv, sys
from collections import defaultdict


def read_sources(path):
    rows = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows[f[0]] = {"family": f[1], "half": f[2], "kissat": f[5]}
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sources", required=True)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--kissat-sources", action="store_true")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    src = read_sources(a.sources)
    t = a.timeout
    times = {}  # name -> instance -> cpu or None
    names = []
    for spec in a.runs:
        name, rest = spec.split("=", 1)
        path, _, solver = rest.partition(":")
        d = {}
        for r in csv.DictReader(open(path)):
            if solver and r["solver"] != solver:
                continue
            ok = r["solved"] == "True" and float(r["cpu_s"]) <= t
            d[r["instance"]] = float(r["cpu_s"]) if ok else None
        times[name] = d
        names.append(name)
    if a.kissat_sources:
        d = {}
        for inst, s in src.items():
            try:
                v = float(s["kissat"])
            except ValueError:
                v = None
            d[inst] = v if v is not None and v <= t else None
        times["kissat"] = d
        names.append("kissat")
    insts = [i for i in src if all(i in times[n] for n in names)]
    missing = [i for i in src if i not in insts]
    if missing:
        print(f"<!-- not in every run (left out): {', '.join(missing)} -->")

    def par2(n, group):
        return sum(times[n][i] if times[n][i] is not None else 2 * t for i in group)

    def solved(n, group):
        return sum(times[n][i] is not None for i in group)

    base = names[0]
    for title, key in (("half", "half"), ("family", "family")):
        groups = defaultdict(list)
        for i in insts:
            groups[src[i][key]].append(i)
        print(f"\n### PAR-2 by {title} ({t:g} s CPU; ratio to {base})\n")
        head = "| " + title + " | n | " + " | ".join(f"{n} PAR-2 (solved)" for n in names)
        head += " | " + " | ".join(f"{n}/{base}" for n in names[1:]) + " |"
        print(head)
        print("|" + "---|" * (2 + 2 * len(names) - 1))
        order = sorted(groups) if key == "half" else sorted(groups, key=lambda g: (src[groups[g][0]]["half"], g))
        for g in order:
            grp = groups[g]
            label = g if key == "half" else f"{g} ({src[grp[0]]['half'][0]})"
            cells = [f"{par2(n, grp):.1f} ({solved(n, grp)})" for n in names]
            b = par2(base, grp)
            ratios = [f"{par2(n, grp) / b:.2f}" if b else "-" for n in names[1:]]
            print(f"| {label} | {len(grp)} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
        if key == "half":
            cells = [f"{par2(n, insts):.1f} ({solved(n, insts)})" for n in names]
            b = par2(base, insts)
            ratios = [f"{par2(n, insts) / b:.2f}" for n in names[1:]]
            print(f"| all | {len(insts)} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    sys.exit(main())
