#!/usr/bin/env python3
# A shuffled pigeonhole PHP(h+1, h): variables renamed, each variable's polarity flipped with
# probability 1/2, literals and clauses shuffled (seeded). Usage: shuffle-php.py HOLES SEED > FILE.cnf
# The issue-16 factoring figures use HOLES 9 and 10, SEED 1.
import random, sys
h = int(sys.argv[1]); seed = int(sys.argv[2])
rng = random.Random(seed)
p = h + 1
var = lambda i, j: i * h + j + 1
cls = [[var(i, j) for j in range(h)] for i in range(p)]
for j in range(h):
    for a in range(p):
        for b in range(a + 1, p):
            cls.append([-var(a, j), -var(b, j)])
n = p * h
perm = list(range(1, n + 1)); rng.shuffle(perm)
flip = [rng.random() < 0.5 for _ in range(n + 1)]
out = []
for c in cls:
    c = [(perm[abs(l) - 1] if l > 0 else -perm[abs(l) - 1]) for l in c]
    c = [(-l if flip[abs(l)] else l) for l in c]
    rng.shuffle(c); out.append(c)
rng.shuffle(out)
print(f"p cnf {n} {len(out)}")
for c in out: print(" ".join(map(str, c)) + " 0")
