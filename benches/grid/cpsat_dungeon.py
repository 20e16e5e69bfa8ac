#!/usr/bin/env python3
"""OR-Tools CP-SAT model of a grid.json level: the reference side of issue 4's benchmark.

It reads the same grid.json file that `grim-encode solve` reads, so both solvers answer the same
model, and builds it the way the issue describes the CP-SAT baseline:

* one Boolean per (cell, tile), ExactlyOne per cell; one Boolean per (layer, cell, value),
  ExactlyOne per cell and layer; a layer value's `requires` as an implication to the cell's tiles;
* adjacency: symmetric `forbid` pairs (or an `allow` list) as binary clauses on every 4-neighbour
  pair; `directional` rules as implications to the allowed tiles of the neighbour on that side;
* counts (of a tile, a class or `layer.value`; absolute, a ratio of the grid / of a `region`,
  or `per` another count) as linear constraints; the integer / fraction rule and the rounding
  (min rounds up, max rounds down) follow the contract: an exact linear form is used, which is
  the same thing for integer counts (count >= ceil(r*P)  <=>  count >= r*P);
* connectivity of a class with a single-commodity flow: a super source feeds exactly one root
  cell (the first class cell in row-major order when `root` is "any" -- a chain of "seen"
  Booleans breaks the root symmetry -- or the given cell), every class cell consumes one unit,
  flow runs only between class cells; sound and complete;
* seeded hints: per cell, row-major, one wished tile drawn from the tile weights with SplitMix64,
  the draw grim makes (see `wished_tiles`); every tile variable of the cell gets an AddHint (1
  for the wish, 0 for the others), and every layer variable the hint grim gives it (its first
  value, "nothing"). `--hints FILE` instead takes the `c phase` lines of a `grim-encode` output
  for every tile and layer variable, so CP-SAT gets exactly the hints grim gives those
  variables (grim also hints its auxiliary variables, which have no counterpart here);
* feasibility only (no objective), one worker.

Features the benchmark does not need (enclosure, paths, soft counts, soft preferences) are
rejected with a message rather than silently dropped, so a timing never answers a weaker model.

Usage:
    pip install ortools
    python3 benches/grid/cpsat_dungeon.py instances/grid/dungeon-12.json [--seed N]
        [--hints out.cnf] [--time-limit S] [--quiet]

Prints the level as glyph rows, re-checks it here (BFS connectivity, direct counting, adjacency)
and ends with one line `cpsat <file> seed=<s> status=<S> solve_cpu=<s> build_cpu=<s>
wall=<s>`; solve_cpu is the process CPU time spent inside Solve().
"""

import argparse
import json
import sys
import time
from collections import deque
from fractions import Fraction

from ortools.sat.python import cp_model

MASK64 = (1 << 64) - 1
ROOT_MODE = "first"
FLOW_MODE = "enforced"


class SplitMix64:
    """splitmix64 (Steele, Lea & Flood, OOPSLA 2014), as in
    encodings/levels/src/families/preferences/mod.rs."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def wished_tiles(spec, seed):
    """One wished tile per cell, row-major, exactly as grim draws it (encodings/levels/src/
    families/preferences/mod.rs): every cell takes one 64-bit number; r = number % (sum of
    the weights of the tiles the cell allows); the first tile whose cumulative weight exceeds r. (The benchmark
    grids have no mask, pins or `allowed`, so every cell allows every tile.)"""
    weights = [int(t.get("weight", 1)) for t in spec["tiles"]]
    total = sum(weights)
    rng = SplitMix64(seed)
    wishes = []
    for _ in range(spec["width"] * spec["height"]):
        draw = rng.next_u64()
        if total == 0:
            wishes.append(draw % len(weights))
            continue
        r = draw % total
        for i, w in enumerate(weights):
            if r < w:
                wishes.append(i)
                break
            r -= w
    return wishes


def die(msg):
    print(f"cpsat_dungeon: {msg}", file=sys.stderr)
    sys.exit(2)


class Model:
    def __init__(self, spec):
        self.spec = spec
        self.w = spec["width"]
        self.h = spec["height"]
        self.n = self.w * self.h
        self.tiles = spec["tiles"]
        self.tile_index = {t["name"]: i for i, t in enumerate(self.tiles)}
        self.layers = spec.get("layers") or []
        self.m = cp_model.CpModel()
        self.x = [[self.m.NewBoolVar(f"x{c}_{t}") for t in range(len(self.tiles))]
                  for c in range(self.n)]
        for c in range(self.n):
            self.m.AddExactlyOne(self.x[c])
        self.y = []
        for li, layer in enumerate(self.layers):
            vals = layer["values"]
            ys = [[self.m.NewBoolVar(f"y{li}_{c}_{v}") for v in range(len(vals))]
                  for c in range(self.n)]
            for c in range(self.n):
                self.m.AddExactlyOne(ys[c])
                for v, val in enumerate(vals):
                    req = val.get("requires")
                    if req:
                        ts = self.tileset(req)
                        self.m.AddBoolOr([self.x[c][t] for t in ts] + [ys[c][v].Not()])
            self.y.append(ys)

    # --- names ---------------------------------------------------------------------------
    def tileset(self, names):
        if isinstance(names, str):
            names = [names]
        out = set()
        for name in names:
            found = False
            if name in self.tile_index:
                out.add(self.tile_index[name])
                found = True
            for i, t in enumerate(self.tiles):
                if name in (t.get("classes") or []):
                    out.add(i)
                    found = True
            if not found:
                die(f"unknown tile or class {name!r}")
        return sorted(out)

    def indicator(self, name, c):
        """A linear expression (0/1) for "cell c is `name`" (tile, class or layer.value)."""
        if "." in name:
            lname, vname = name.split(".", 1)
            for li, layer in enumerate(self.layers):
                if layer["name"] == lname:
                    for v, val in enumerate(layer["values"]):
                        if val["name"] == vname:
                            return self.y[li][c][v]
            die(f"unknown layer value {name!r}")
        return sum(self.x[c][t] for t in self.tileset(name))

    def literal(self, name, c):
        ts = self.tileset(name)
        if len(ts) == 1:
            return self.x[c][ts[0]]
        b = self.m.NewBoolVar(f"in_{name}_{c}")
        self.m.Add(sum(self.x[c][t] for t in ts) == 1).OnlyEnforceIf(b)
        self.m.Add(sum(self.x[c][t] for t in ts) == 0).OnlyEnforceIf(b.Not())
        return b

    def cell(self, x, y):
        return y * self.w + x

    def neighbours(self, c):
        x, y = c % self.w, c // self.w
        for d, (dx, dy) in (("N", (0, -1)), ("E", (1, 0)), ("S", (0, 1)), ("W", (-1, 0))):
            nx, ny = x + dx, y + dy
            if 0 <= nx < self.w and 0 <= ny < self.h:
                yield d, self.cell(nx, ny)

    # --- rules ---------------------------------------------------------------------------
    def adjacency(self):
        adj = self.spec.get("adjacency") or {}
        k = len(self.tiles)
        ok = [[True] * k for _ in range(k)]
        if adj.get("allow") is not None:
            ok = [[False] * k for _ in range(k)]
            for a, b in adj["allow"]:
                for t in self.tileset(a):
                    for u in self.tileset(b):
                        ok[t][u] = ok[u][t] = True
        for a, b in adj.get("forbid") or []:
            for t in self.tileset(a):
                for u in self.tileset(b):
                    ok[t][u] = ok[u][t] = False
        for c in range(self.n):
            for d, nb in self.neighbours(c):
                if d not in ("E", "S"):
                    continue
                for t in range(k):
                    for u in range(k):
                        if not ok[t][u]:
                            self.m.AddBoolOr([self.x[c][t].Not(), self.x[nb][u].Not()])
        for rule in adj.get("directional") or []:
            ts = self.tileset(rule["tile"])
            d = rule["dir"]
            if "allow" in rule:
                allowed = set(self.tileset(rule["allow"]))
            else:
                allowed = set(range(k)) - set(self.tileset(rule.get("forbid", [])))
            for c in range(self.n):
                for dd, nb in self.neighbours(c):
                    if dd != d:
                        continue
                    for t in ts:
                        # t at c, its d-neighbour must be allowed (and, derived, the
                        # opposite direction reads the same constraint from nb's side).
                        for u in range(k):
                            if u not in allowed:
                                self.m.AddBoolOr([self.x[c][t].Not(), self.x[nb][u].Not()])

    def counts(self):
        for i, cnt in enumerate(self.spec.get("counts") or []):
            if cnt.get("weight") is not None:
                die(f"counts[{i}]: soft counts are not modelled here (feasibility benchmark)")
            cells = range(self.n)
            if "region" in cnt:
                r = cnt["region"]
                cells = [self.cell(x, y) for y in range(r["y"], r["y"] + r["h"])
                         for x in range(r["x"], r["x"] + r["w"])]
            expr = sum(self.indicator(cnt["of"], c) for c in cells)
            if "per" in cnt:
                base = sum(self.indicator(cnt["per"], c) for c in cells)
            else:
                base = len(cells)
            for key, sense in (("min", ">="), ("max", "<=")):
                if key not in cnt:
                    continue
                v = cnt[key]
                if isinstance(v, float):  # a ratio of `base`
                    f = Fraction(repr(v))
                    lhs = f.denominator * expr
                    rhs = f.numerator * base
                else:
                    lhs, rhs = expr, v
                if sense == ">=":
                    self.m.Add(lhs >= rhs)
                else:
                    self.m.Add(lhs <= rhs)

    def connectivity(self):
        for i, conn in enumerate(self.spec.get("connectivity") or []):
            name = conn["class"]
            inc = [self.literal(name, c) for c in range(self.n)]
            cap = self.n
            root = [self.m.NewBoolVar(f"root{i}_{c}") for c in range(self.n)]
            r = conn.get("root", "any")
            if r == "any" and ROOT_MODE == "free":
                # any class cell may be the root: at most one root, roots are class cells.
                self.m.AddAtMostOne(root)
                for c in range(self.n):
                    self.m.AddImplication(root[c], inc[c])
            elif r == "any":
                # root = first class cell in row-major order: seen_c = seen_{c-1} or in_c.
                prev = None
                for c in range(self.n):
                    if prev is None:
                        self.m.Add(root[c] == inc[c])
                        seen = inc[c]
                    else:
                        # root_c <-> in_c and not prev
                        self.m.AddBoolOr([root[c].Not(), inc[c]])
                        self.m.AddBoolOr([root[c].Not(), prev.Not()])
                        self.m.AddBoolOr([root[c], inc[c].Not(), prev])
                        seen = self.m.NewBoolVar(f"seen{i}_{c}")
                        self.m.AddBoolOr([seen.Not(), prev, inc[c]])
                        self.m.AddImplication(prev, seen)
                        self.m.AddImplication(inc[c], seen)
                    prev = seen
            else:
                rc = self.cell(r["x"], r["y"])
                for c in range(self.n):
                    self.m.Add(root[c] == (1 if c == rc else 0))
                self.m.Add(inc[rc] == 1)
            flow = {}
            for c in range(self.n):
                for _, nb in self.neighbours(c):
                    f = self.m.NewIntVar(0, cap, f"f{i}_{c}_{nb}")
                    if FLOW_MODE == "linear":
                        self.m.Add(f <= cap * inc[c])
                        self.m.Add(f <= cap * inc[nb])
                    else:
                        self.m.Add(f == 0).OnlyEnforceIf(inc[c].Not())
                        self.m.Add(f == 0).OnlyEnforceIf(inc[nb].Not())
                    flow[(c, nb)] = f
            supply = []
            for c in range(self.n):
                s = self.m.NewIntVar(0, cap, f"s{i}_{c}")
                if FLOW_MODE == "linear":
                    self.m.Add(s <= cap * root[c])
                else:
                    self.m.Add(s == 0).OnlyEnforceIf(root[c].Not())
                supply.append(s)
                inflow = sum(flow[(nb, c)] for _, nb in self.neighbours(c))
                outflow = sum(flow[(c, nb)] for _, nb in self.neighbours(c))
                self.m.Add(s + inflow - outflow == inc[c])

    def hints(self, seed, hint_file):
        if hint_file is None:
            for c, t0 in enumerate(wished_tiles(self.spec, seed)):
                for t in range(len(self.tiles)):
                    self.m.AddHint(self.x[c][t], 1 if t == t0 else 0)
            # As grim does: every layer hinted to its first value ("nothing").
            for ys in self.y:
                for c in range(self.n):
                    for v, var in enumerate(ys[c]):
                        self.m.AddHint(var, 1 if v == 0 else 0)
            return
        # grim-encode comments: "c cell X Y TILE VAR", "c layer LAYER X Y VALUE VAR" and
        # "c phase LIT LIT ...". Hints on grim's auxiliary variables have no counterpart here.
        var_of = {}
        phases = {}
        layer_index = {l["name"]: li for li, l in enumerate(self.layers)}
        with open(hint_file) as f:
            for line in f:
                p = line.split()
                if len(p) >= 6 and p[0] == "c" and p[1] == "cell":
                    var_of[int(p[5])] = self.x[self.cell(int(p[2]), int(p[3]))][
                        self.tile_index[p[4]]]
                elif len(p) >= 7 and p[0] == "c" and p[1] == "layer" and p[2] in layer_index:
                    li = layer_index[p[2]]
                    names = [v["name"] for v in self.layers[li]["values"]]
                    var_of[int(p[6])] = self.y[li][self.cell(int(p[3]), int(p[4]))][
                        names.index(p[5])]
                elif len(p) >= 2 and p[0] == "c" and p[1] == "phase":
                    for lit in p[2:]:
                        lit = int(lit)
                        if lit != 0:
                            phases[abs(lit)] = lit > 0
                elif line and line[0] != "c":
                    break
        hinted = 0
        for var, cp_var in var_of.items():
            if var in phases:
                self.m.AddHint(cp_var, 1 if phases[var] else 0)
                hinted += 1
        if hinted == 0:
            die(f"{hint_file}: no 'c phase' hint on a 'c cell' or 'c layer' variable")


def check(spec, level, model):
    """An independent re-check of the answer (adjacency, requires, counts, connectivity)."""
    w, h = spec["width"], spec["height"]
    tiles, layers = level
    errs = []
    adj = spec.get("adjacency") or {}
    bad = set()
    for a, b in adj.get("forbid") or []:
        for t in model.tileset(a):
            for u in model.tileset(b):
                bad.add((t, u))
                bad.add((u, t))
    for c in range(w * h):
        for d, nb in model.neighbours(c):
            if (tiles[c], tiles[nb]) in bad:
                errs.append(f"forbidden pair at {c % w},{c // w} {d}")
    for li, layer in enumerate(model.layers):
        for c in range(w * h):
            req = layer["values"][layers[li][c]].get("requires")
            if req and tiles[c] not in model.tileset(req):
                errs.append(f"{layer['name']} requirement broken at {c % w},{c // w}")

    def members(name):
        if "." in name:
            lname, vname = name.split(".", 1)
            li = [l["name"] for l in model.layers].index(lname)
            vi = [v["name"] for v in model.layers[li]["values"]].index(vname)
            return [c for c in range(w * h) if layers[li][c] == vi]
        ts = set(model.tileset(name))
        return [c for c in range(w * h) if tiles[c] in ts]

    for i, cnt in enumerate(spec.get("counts") or []):
        if "region" in cnt:
            continue
        k = len(members(cnt["of"]))
        base = len(members(cnt["per"])) if "per" in cnt else w * h
        for key in ("min", "max"):
            if key not in cnt:
                continue
            v = cnt[key]
            bound = Fraction(repr(v)) * base if isinstance(v, float) else v
            if (key == "min" and k < bound) or (key == "max" and k > bound):
                errs.append(f"counts[{i}] {key}: {k} vs {float(bound)}")
    for conn in spec.get("connectivity") or []:
        cls = set(members(conn["class"]))
        if not cls:
            continue
        start = min(cls)
        seen = {start}
        q = deque([start])
        while q:
            c = q.popleft()
            for _, nb in model.neighbours(c):
                if nb in cls and nb not in seen:
                    seen.add(nb)
                    q.append(nb)
        if seen != cls:
            errs.append(f"{conn['class']}: {len(seen)} of {len(cls)} cells connected")
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("grid_json")
    ap.add_argument("--seed", type=int, help="overrides preferences.seed")
    ap.add_argument("--hints", help="take the hints from a grim-encode output's 'c phase' lines")
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--root", choices=["first", "free"], default="first",
                    help="root 'any': the first class cell in row-major order (default) or a "
                    "free choice among the class cells")
    ap.add_argument("--flow", choices=["enforced", "linear"], default="enforced",
                    help="flow capacities as enforced `f == 0` constraints (default) or as "
                    "linear `f <= cap * x` rows")
    ap.add_argument("--no-hints", action="store_true",
                    help="diagnostics only: solve without the seeded hints")
    ap.add_argument("--quiet", action="store_true", help="do not print the level")
    args = ap.parse_args()
    global ROOT_MODE, FLOW_MODE
    ROOT_MODE = args.root
    FLOW_MODE = args.flow

    with open(args.grid_json) as f:
        spec = json.load(f)
    for feature in ("enclosure", "paths", "mask", "pins", "allowed"):
        if spec.get(feature):
            die(f"{feature}: not modelled by this benchmark script")
    prefs = spec.get("preferences") or {}
    if prefs.get("mode", "hint") != "hint":
        die("preferences.mode: only 'hint' is modelled (feasibility benchmark)")
    seed = args.seed if args.seed is not None else int(prefs.get("seed", 0))

    t0 = time.process_time()
    model = Model(spec)
    model.adjacency()
    model.counts()
    model.connectivity()
    if (prefs or args.hints) and not args.no_hints:
        model.hints(seed, args.hints)
    build = time.process_time() - t0

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = args.time_limit
    solver.parameters.random_seed = 0
    w0 = time.perf_counter()
    c0 = time.process_time()
    status = solver.Solve(model.m)
    solve_cpu = time.process_time() - c0
    wall = time.perf_counter() - w0
    name = solver.StatusName(status)
    ok = True
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        n = model.n
        tiles = [next(t for t in range(len(model.tiles)) if solver.Value(model.x[c][t]))
                 for c in range(n)]
        layers = [[next(v for v in range(len(l["values"])) if solver.Value(model.y[li][c][v]))
                   for c in range(n)] for li, l in enumerate(model.layers)]
        errs = check(spec, (tiles, layers), model)
        if not args.quiet:
            for y in range(model.h):
                row = ""
                for x in range(model.w):
                    c = y * model.w + x
                    g = model.tiles[tiles[c]]["glyph"]
                    for li, l in enumerate(model.layers):
                        if layers[li][c] != 0:
                            g = l["values"][layers[li][c]]["glyph"]
                    row += g
                print(row)
        if errs:
            ok = False
            print("c CHECK FAILED: " + "; ".join(errs[:5]))
        else:
            print("c level re-checked: adjacency, requires, counts, connectivity hold")
    print(f"cpsat {args.grid_json} seed={seed} status={name} solve_cpu={solve_cpu:.3f} "
          f"build_cpu={build:.3f} wall={wall:.3f}")
    sys.exit(0 if ok and status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 1)


if __name__ == "__main__":
    main()
