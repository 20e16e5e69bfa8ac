#!/usr/bin/env python3
"""Size of the vertex-elimination acyclicity encoding (Rankooh & Rintanen, AAAI 2022) on a
W x H grid, against the parent-pointer ranks the acyclic family exports (issue 42).

Elimination: a directed edge variable per ordered pair of neighbours; eliminating v adds, for
every two distinct neighbours u, w of v in the current graph, the clause e(u,v) & e(v,w) ->
e(u,w) (a fill edge variable when u, w were not neighbours) and forbids e(u,v) & e(v,u). The
clause count depends on the order; row-major and greedy minimum degree are counted here.
Ranks: per directed grid edge one pointer variable, ceil(log2 cells) comparator variables and
3 clauses per bit plus 2 definition clauses; per cell at most 6 at-most-one clauses; per edge
one cover clause; per 2x2 block one clause.

Usage: benches/grid/acyclic-elimination.py [SIDE...]   (default 16 32 63)
"""
import math
import sys


def grid(w, h):
    adj = {(x, y): set() for x in range(w) for y in range(h)}
    for x in range(w):
        for y in range(h):
            for dx, dy in ((1, 0), (0, 1)):
                if x + dx < w and y + dy < h:
                    adj[(x, y)].add((x + dx, y + dy))
                    adj[(x + dx, y + dy)].add((x, y))
    return adj


def eliminate(adj, order_fn):
    adj = {v: set(n) for v, n in adj.items()}
    clauses = 0
    fill = 0
    alive = set(adj)
    while alive:
        v = order_fn(adj, alive)
        n = list(adj[v])
        k = len(n)
        clauses += k * (k - 1) + k  # transitivity per ordered pair, 2-cycles per neighbour
        for i in range(k):
            for j in range(i + 1, k):
                a, b = n[i], n[j]
                if b not in adj[a]:
                    adj[a].add(b)
                    adj[b].add(a)
                    fill += 1
        for u in n:
            adj[u].discard(v)
        del adj[v]
        alive.discard(v)
    return clauses, fill


def row_major(adj, alive):
    return min(alive, key=lambda p: (p[1], p[0]))


def min_degree(adj, alive):
    return min(alive, key=lambda p: (len(adj[p]), p[1], p[0]))


def ranks(w, h):
    cells = w * h
    bits = max(1, math.ceil(math.log2(cells)))
    directed = 2 * ((w - 1) * h + w * (h - 1))
    variables = cells * bits + directed * (1 + bits - 1)
    clauses = directed * (3 * bits + 2) + cells * 6 + directed // 2 + (w - 1) * (h - 1)
    return variables, clauses


for side in [int(a) for a in sys.argv[1:]] or [16, 32, 63]:
    g = grid(side, side)
    rv, rc = ranks(side, side)
    rm = eliminate(g, row_major)
    md = eliminate(g, min_degree) if side <= 32 else (None, None)
    print(f"{side}x{side}: ranks {rv} vars {rc} clauses; elimination row-major {rm[0]} clauses "
          f"({rm[1]} fill edges); min-degree {md[0]} clauses ({md[1]} fill edges)")
