#!/usr/bin/env python3
"""The CNF "WCNF's hard clauses, and at most K soft clauses unmet" (unit weights only).

An independent check of a proven soft optimum C: the CNF with K = C - 1 must be unsatisfiable
and with K = C satisfiable, answered by any SAT solver (CaDiCaL here), so the optimum does not
rest on grimoire's own lower bound. Each soft clause gets a fresh relaxation literal; the cap is
python-sat's totalizer (`pysat.card.CardEnc`).

Usage: wcnf_cap.py IN.wcnf K OUT.cnf
"""
import sys

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, WCNF


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    w = WCNF(from_file=sys.argv[1])
    k = int(sys.argv[2])
    if any(x != 1 for x in w.wght):
        sys.exit(f"{sys.argv[1]}: soft weights other than 1; this check counts unmet clauses")
    top = w.nv
    cnf = CNF(from_clauses=[list(c) for c in w.hard])
    relax = []
    for c in w.soft:
        top += 1
        relax.append(top)
        cnf.append(list(c) + [top])
    cnf.extend(CardEnc.atmost(lits=relax, bound=k, top_id=top, encoding=EncType.totalizer).clauses)
    cnf.to_file(sys.argv[3])


if __name__ == "__main__":
    main()
