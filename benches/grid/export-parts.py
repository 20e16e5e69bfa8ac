#!/usr/bin/env python3
"""Issue 40: where an exported CNF's bytes go, per part of the encoding.

    grim-encode SPEC --seed 1 -v -o X.cnf 2> X.parts   # the part table (variables, clauses)
    python3 benches/grid/export-parts.py X.cnf X.parts

The parts are made one after another (`GridModel::part`), so the file's clause lines are split
by the table's clause counts, in its order (a part named twice is listed once, summed, where it
first appears: the split assumes each name's clauses are contiguous, and says so when the
counts do not add up). Prints per part: variables, clauses, literals, bytes of its clause
lines; then what two pure-formatting changes would save: numbering the variables by how often
they occur (the most frequent get the shortest numbers) and the minus signs of the literals.
"""
import collections
import sys


def main(cnf, parts_file):
    parts = []
    for line in open(parts_file, encoding="utf-8"):
        f = line.split()
        if len(f) >= 4 and f[-1].endswith("%") and f[-2].isdigit() and f[-3].isdigit():
            parts.append((" ".join(f[:-3]), int(f[-3]), int(f[-2])))
    occ = collections.Counter()
    size = [0] * len(parts)
    lits = [0] * len(parts)
    neg = 0
    i, left, header, clauses = 0, parts[0][2], 0, 0
    with open(cnf, "rb") as fh:
        for line in fh:
            if line[:1] in (b"c", b"p"):
                header += len(line)
                continue
            while left == 0 and i + 1 < len(parts):
                i += 1
                left = parts[i][2]
            size[i] += len(line)
            left -= 1
            clauses += 1
            for t in line.split()[:-1]:
                v = int(t)
                occ[abs(v)] += 1
                lits[i] += 1
                neg += v < 0
    table = sum(p[2] for p in parts)
    if table != clauses:
        print(f"warning: the table counts {table} clauses, the file {clauses}")
    total = sum(size)
    print(f"clause lines {total / 1e6:.2f} MB, comments and header {header / 1e6:.2f} MB")
    print("| part | variables | clauses | literals | MB | share |")
    print("|---|---|---|---|---|---|")
    for (name, v, c), b, n in zip(parts, size, lits):
        print(f"| {name} | {v:,} | {c:,} | {n:,} | {b / 1e6:.2f} | {100 * b / total:.1f}% |")
    digits = sum(len(str(v)) * k for v, k in occ.items())
    ranked = sum(len(str(r + 1)) * k for r, k in enumerate(sorted(occ.values(), reverse=True)))
    print(f"variable numbers by frequency: {(digits - ranked) / 1e6:.2f} MB less; "
          f"minus signs: {neg / 1e6:.2f} MB; variables used {len(occ):,}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
