#!/usr/bin/env python3
"""OR-Tools CP-SAT model of issue 42's grid.json specs: the reference side of its benchmark.

It extends `cpsat_dungeon.py`'s model (tiles, layers and `requires`, adjacency, counts,
connectivity by a single-commodity flow) with what the issue-42 specs use, each modelled
directly from `encodings/levels/src/FORMAT.md`:

* `mask` and `pins`: the cell's tile variables outside its domain fixed to 0;
* `runs` (hard): every window of `max + 1` consecutive cells of a row/column of the region has a
  cell outside `of` (a clause);
* `dead_ends` (hard): per cell, `dead(c) <-> in(c) and (class neighbours == 1)`, counted
  between `min` and `max` (`max: 0` is `in(c) -> neighbours != 1`);
* `separation` (hard, Manhattan): per cell, `sel(c) -> no selected cell after c in its diamond`
  (one enforced linear constraint per cell, every close pair once);
* `symmetry` (hard): tile (and layer) variables equal to their image's;
* `acyclic` (hard, whole grid) with a `connectivity` rule on the same class: a connected graph
  is a tree iff it has one edge fewer than cells, so `edges == cells - 1` (edge `e = in(c) and
  in(d)` per 4-neighbour pair); without connectivity it is not modelled;
* `paths` with a fixed `from` cell: `max_length` by a unit flow from `from` to one `to` cell
  (a chosen sink), arcs leaving only `from` or `through` cells, at most `max_length` arcs in
  all (a flow decomposes into a walk and cycles, so the walk is no longer; the shortest walk is
  such a flow); `min_length` by distance labels `d(c) in [0, min]`: `d(from) = 0`,
  `d(n) <= d(c) + 1` across every step out of a `from`/`through` cell, and `d(t) >= min` for
  every `to` cell (labels below the true distance always exist, and a short walk forces one
  below `min`); the walk's existence comes with `max_length`, or the connectivity of `through`
  when both ends hold it (the cave and maze specs), otherwise the flow without a bound.

Not modelled (rejected with a message, so a timing never answers a weaker model): `chokepoints`
(articulation cells have no compact CP-SAT form), `locks`, `enclosure`, walking separation,
soft rules, soft preferences.

Hints: per cell, row-major, the wished tile grim draws (SplitMix64 over the tiles the cell's
domain allows, `preferences/mod.rs`), made equal along hard symmetry orbits as grim's hint mode
does; every layer variable hinted to its first value. (grim's layer wishes and its separation
decisions have no counterpart here.) Feasibility only, one worker.

Usage:
    python3 benches/grid/cpsat_vocab.py SPEC.json [--seed N] [--time-limit S] [--quiet]

Re-checks the level here (counts, adjacency, connectivity, runs, dead ends, separation,
symmetry, acyclicity, path lengths by BFS) and ends with one line `cpsat <file> seed=<s>
status=<S> solve_cpu=<s> build_cpu=<s> wall=<s> check=<ok|FAILED|->`.
"""

import argparse
import json
import os
import sys
import time
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpsat_dungeon as base  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

UNSUPPORTED = ("chokepoints", "locks", "enclosure", "allowed")


def die(msg):
    print(f"cpsat_vocab: {msg}", file=sys.stderr)
    sys.exit(2)


class Vocab(base.Model):
    def __init__(self, spec):
        super().__init__(spec)
        glyph = {t["glyph"]: i for i, t in enumerate(self.tiles)}
        k = len(self.tiles)
        self.domain = [[True] * k for _ in range(self.n)]
        for y, row in enumerate(spec.get("mask") or []):
            for x, ch in enumerate(row):
                if ch != "?":
                    if ch not in glyph:
                        die(f"mask[{y}]: unknown glyph {ch!r}")
                    self.domain[self.cell(x, y)] = [t == glyph[ch] for t in range(k)]
        for p in spec.get("pins") or []:
            t = self.tile_index[p["tile"]]
            c = self.cell(p["x"], p["y"])
            self.domain[c] = [u == t and self.domain[c][u] for u in range(k)]
        for c in range(self.n):
            for t in range(k):
                if not self.domain[c][t]:
                    self.m.Add(self.x[c][t] == 0)
        self.lit_cache = {}

    def lit(self, name, c):
        key = (name if isinstance(name, str) else tuple(name), c)
        if key not in self.lit_cache:
            self.lit_cache[key] = self.literal(name, c)
        return self.lit_cache[key]

    def sel(self, name, c):
        """A Boolean for "cell c holds `name`" (tile, class or layer.value)."""
        if isinstance(name, str) and "." in name:
            return self.indicator(name, c)
        return self.lit(name, c)

    def region(self, r):
        if r is None:
            return 0, 0, self.w, self.h
        return r["x"], r["y"], r["w"], r["h"]

    def runs(self):
        for i, rule in enumerate(self.spec.get("runs") or []):
            if rule.get("weight") is not None:
                die(f"runs[{i}]: soft runs are not modelled")
            x0, y0, w, h = self.region(rule.get("region"))
            k = rule["max"]
            axis = rule.get("axis", "both")
            lines = []
            if axis in ("row", "both"):
                lines += [[self.cell(x, y) for x in range(x0, x0 + w)] for y in range(y0, y0 + h)]
            if axis in ("column", "both"):
                lines += [[self.cell(x, y) for y in range(y0, y0 + h)] for x in range(x0, x0 + w)]
            for line in lines:
                for s in range(len(line) - k):
                    self.m.AddBoolOr([self.sel(rule["of"], c).Not() for c in line[s:s + k + 1]])

    def dead_ends(self):
        for i, rule in enumerate(self.spec.get("dead_ends") or []):
            if rule.get("weight") is not None:
                die(f"dead_ends[{i}]: soft dead ends are not modelled")
            cls = rule["class"]
            lo, hi = rule.get("min", 0), rule.get("max")
            dead = []
            for c in range(self.n):
                nbs = sum(self.lit(cls, nb) for _, nb in self.neighbours(c))
                if hi == 0 and lo == 0:
                    self.m.Add(nbs != 1).OnlyEnforceIf(self.lit(cls, c))
                    continue
                one = self.m.NewBoolVar(f"one{i}_{c}")
                self.m.Add(nbs == 1).OnlyEnforceIf(one)
                self.m.Add(nbs != 1).OnlyEnforceIf(one.Not())
                d = self.m.NewBoolVar(f"dead{i}_{c}")
                self.m.AddMultiplicationEquality(d, [one, self.lit(cls, c)])
                dead.append(d)
            if dead:
                self.m.Add(sum(dead) >= lo)
                if hi is not None:
                    self.m.Add(sum(dead) <= hi)

    def separation(self):
        for i, rule in enumerate(self.spec.get("separation") or []):
            if rule.get("weight") is not None or rule.get("metric", "manhattan") != "manhattan":
                die(f"separation[{i}]: only hard Manhattan separation is modelled")
            d = rule["min_distance"]
            sel = [self.sel(rule["of"], c) for c in range(self.n)]
            for c in range(self.n):
                x, y = c % self.w, c // self.w
                close = []
                for dy in range(0, d):
                    span = d - 1 - dy
                    yy = y + dy
                    if yy >= self.h:
                        break
                    for xx in range(max(0, x - span), min(self.w, x + span + 1)):
                        if dy == 0 and xx <= x:
                            continue
                        close.append(sel[self.cell(xx, yy)])
                if close:
                    self.m.Add(sum(close) == 0).OnlyEnforceIf(sel[c])

    def symmetry(self):
        for i, rule in enumerate(self.spec.get("symmetry") or []):
            if rule.get("weight") is not None:
                die(f"symmetry[{i}]: soft symmetry is not modelled")
            for c, d in orbit_pairs(self.spec, rule):
                for t in range(len(self.tiles)):
                    self.m.Add(self.x[c][t] == self.x[d][t])
                if rule.get("layer"):
                    li = [l["name"] for l in self.layers].index(rule["layer"])
                    for a, b in zip(self.y[li][c], self.y[li][d]):
                        self.m.Add(a == b)

    def acyclic(self):
        connected = {json.dumps(c["class"]) for c in self.spec.get("connectivity") or []}
        for i, rule in enumerate(self.spec.get("acyclic") or []):
            if rule.get("weight") is not None or rule.get("region") is not None:
                die(f"acyclic[{i}]: only hard whole-grid acyclic is modelled")
            cls = rule["class"]
            if json.dumps(cls) not in connected:
                die(f"acyclic[{i}]: modelled only with a connectivity rule on its class")
            edges = []
            for c in range(self.n):
                for d, nb in self.neighbours(c):
                    if d in ("E", "S"):
                        e = self.m.NewBoolVar(f"edge{i}_{c}_{nb}")
                        self.m.AddMultiplicationEquality(e, [self.lit(cls, c), self.lit(cls, nb)])
                        edges.append(e)
            cells = [self.lit(cls, c) for c in range(self.n)]
            self.m.Add(sum(edges) == sum(cells) - 1)

    def ends(self, end):
        if isinstance(end, dict):
            c = self.cell(end["x"], end["y"])
            return [(c, None)]
        return [(c, self.sel(end, c)) for c in range(self.n)]

    def paths(self):
        for i, rule in enumerate(self.spec.get("paths") or []):
            if not isinstance(rule["from"], dict):
                die(f"paths[{i}]: only a fixed `from` cell is modelled")
            s = self.cell(rule["from"]["x"], rule["from"]["y"])
            thr = rule["through"]
            tos = self.ends(rule["to"])
            lo, hi = rule.get("min_length"), rule.get("max_length")
            conn = {json.dumps(c["class"]) for c in self.spec.get("connectivity") or []}
            fixed_to = isinstance(rule["to"], dict)
            exists = fixed_to and json.dumps(thr) in conn
            if hi is not None or not exists:
                self.walk_flow(i, s, thr, tos, hi)
            if lo:
                self.floor(i, s, thr, tos, lo)

    def walk_flow(self, i, s, thr, tos, hi):
        arc = {}
        for c in range(self.n):
            for _, nb in self.neighbours(c):
                a = self.m.NewBoolVar(f"arc{i}_{c}_{nb}")
                if c != s:
                    self.m.AddImplication(a, self.lit(thr, c))
                arc[(c, nb)] = a
        sink = {}
        for c, to in tos:
            t = self.m.NewBoolVar(f"sink{i}_{c}")
            if to is not None:
                self.m.AddImplication(t, to)
            sink[c] = t
        self.m.AddExactlyOne(sink.values())
        for c in range(self.n):
            out = sum(arc[(c, nb)] for _, nb in self.neighbours(c))
            inn = sum(arc[(nb, c)] for _, nb in self.neighbours(c))
            self.m.Add(inn + (1 if c == s else 0) == out + sink.get(c, 0))
        if hi is not None:
            self.m.Add(sum(arc.values()) <= hi)

    def floor(self, i, s, thr, tos, lo):
        d = [self.m.NewIntVar(0, lo, f"dist{i}_{c}") for c in range(self.n)]
        self.m.Add(d[s] == 0)
        for c in range(self.n):
            for _, nb in self.neighbours(c):
                if c == s:
                    self.m.Add(d[nb] <= 1)
                else:
                    self.m.Add(d[nb] <= d[c] + 1).OnlyEnforceIf(self.lit(thr, c))
        for c, to in tos:
            if to is None:
                self.m.Add(d[c] >= lo)
            else:
                self.m.Add(d[c] >= lo).OnlyEnforceIf(to)

    def hints(self, seed, hint_file=None):
        wishes = wished_tiles(self.spec, self.domain, seed)
        for c, t0 in enumerate(wishes):
            for t in range(len(self.tiles)):
                self.m.AddHint(self.x[c][t], 1 if t == t0 else 0)
        for ys in self.y:
            for c in range(self.n):
                for v, var in enumerate(ys[c]):
                    self.m.AddHint(var, 1 if v == 0 else 0)


def orbit_pairs(spec, rule):
    """(cell, image) for every cell of the rule's region (FORMAT.md, `symmetry`)."""
    w = spec["width"]
    r = rule.get("region") or {"x": 0, "y": 0, "w": w, "h": spec["height"]}
    kind = rule["kind"]
    for y in range(r["y"], r["y"] + r["h"]):
        for x in range(r["x"], r["x"] + r["w"]):
            lx, ly = x - r["x"], y - r["y"]
            ix, iy = {
                "vertical": (r["w"] - 1 - lx, ly),
                "horizontal": (lx, r["h"] - 1 - ly),
                "rotate_180": (r["w"] - 1 - lx, r["h"] - 1 - ly),
                "rotate_90": (r["w"] - 1 - ly, lx),
            }[kind]
            c, d = y * w + x, (r["y"] + iy) * w + r["x"] + ix
            if c != d:
                yield c, d


def wished_tiles(spec, domain, seed):
    """grim's tile wishes (preferences/mod.rs): one draw per cell, row-major, among the tiles
    the cell's domain allows by weight; then, in hint mode, each cell of a hard symmetry orbit
    takes the wish of the orbit's first cell when its domain allows it."""
    weights = [int(t.get("weight", 1)) for t in spec["tiles"]]
    rng = base.SplitMix64(seed)
    n = spec["width"] * spec["height"]
    wishes = []
    for c in range(n):
        draw = rng.next_u64()
        allowed = [t for t in range(len(weights)) if domain[c][t]]
        total = sum(weights[t] for t in allowed)
        if total == 0:
            wishes.append(allowed[draw % len(allowed)])
            continue
        r = draw % total
        for t in allowed:
            if r < weights[t]:
                wishes.append(t)
                break
            r -= weights[t]
    parent = list(range(n))

    def root(c):
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for rule in spec.get("symmetry") or []:
        if rule.get("weight") is None:
            for c, d in orbit_pairs(spec, rule):
                a, b = root(c), root(d)
                parent[max(a, b)] = min(a, b)
    for c in range(n):
        f = root(c)
        if f != c and domain[c][wishes[f]]:
            wishes[c] = wishes[f]
    return wishes


def recheck(spec, model, tiles, layers):
    """An independent re-check of the answer, from FORMAT.md's definitions."""
    errs = base.check(spec, (tiles, layers), model)
    w, h, n = model.w, model.h, model.n

    def holds(name, c):
        if isinstance(name, str) and "." in name:
            lname, vname = name.split(".", 1)
            li = [l["name"] for l in model.layers].index(lname)
            return model.layers[li]["values"][layers[li][c]]["name"] == vname
        return tiles[c] in set(model.tileset(name))

    for c in range(n):
        if not model.domain[c][tiles[c]]:
            errs.append(f"domain broken at {c % w},{c // w}")
    for i, rule in enumerate(spec.get("runs") or []):
        x0, y0, rw, rh = model.region(rule.get("region"))
        axis = rule.get("axis", "both")
        lines = []
        if axis in ("row", "both"):
            lines += [[model.cell(x, y) for x in range(x0, x0 + rw)] for y in range(y0, y0 + rh)]
        if axis in ("column", "both"):
            lines += [[model.cell(x, y) for y in range(y0, y0 + rh)] for x in range(x0, x0 + rw)]
        for line in lines:
            run = 0
            for c in line:
                run = run + 1 if holds(rule["of"], c) else 0
                if run > rule["max"]:
                    errs.append(f"runs[{i}]: a run of {run}")
                    break
    for i, rule in enumerate(spec.get("dead_ends") or []):
        k = sum(1 for c in range(n) if holds(rule["class"], c)
                and sum(holds(rule["class"], nb) for _, nb in model.neighbours(c)) == 1)
        if k < rule.get("min", 0) or (rule.get("max") is not None and k > rule["max"]):
            errs.append(f"dead_ends[{i}]: {k}")
    for i, rule in enumerate(spec.get("separation") or []):
        cells = [c for c in range(n) if holds(rule["of"], c)]
        for a in range(len(cells)):
            for b in range(a + 1, len(cells)):
                p, q = cells[a], cells[b]
                if abs(p % w - q % w) + abs(p // w - q // w) < rule["min_distance"]:
                    errs.append(f"separation[{i}]: {p} and {q} too close")
    for i, rule in enumerate(spec.get("symmetry") or []):
        for c, d in orbit_pairs(spec, rule):
            if tiles[c] != tiles[d]:
                errs.append(f"symmetry[{i}]: cell {c} differs from {d}")
                break
    for i, rule in enumerate(spec.get("acyclic") or []):
        cells = [c for c in range(n) if holds(rule["class"], c)]
        edges = sum(1 for c in cells for d, nb in model.neighbours(c)
                    if d in ("E", "S") and holds(rule["class"], nb))
        comps = components(model, lambda c: holds(rule["class"], c))
        if edges != len(cells) - comps:
            errs.append(f"acyclic[{i}]: {edges} edges, {len(cells)} cells, {comps} pieces")
    for i, rule in enumerate(spec.get("paths") or []):
        s = model.cell(rule["from"]["x"], rule["from"]["y"])
        dist = {s: 0}
        q = deque([s])
        while q:
            c = q.popleft()
            if c != s and not holds(rule["through"], c):
                continue
            for _, nb in model.neighbours(c):
                if nb not in dist:
                    dist[nb] = dist[c] + 1
                    q.append(nb)
        if isinstance(rule["to"], dict):
            targets = [model.cell(rule["to"]["x"], rule["to"]["y"])]
        else:
            targets = [c for c in range(n) if holds(rule["to"], c)]
        best = min((dist[c] for c in targets if c in dist), default=None)
        if best is None:
            errs.append(f"paths[{i}]: no walk")
        elif best < rule.get("min_length", 0) or best > rule.get("max_length", best):
            errs.append(f"paths[{i}]: shortest walk {best}")
    return errs


def components(model, inside):
    seen, k = set(), 0
    for c in range(model.n):
        if inside(c) and c not in seen:
            k += 1
            seen.add(c)
            q = deque([c])
            while q:
                u = q.popleft()
                for _, nb in model.neighbours(u):
                    if inside(nb) and nb not in seen:
                        seen.add(nb)
                        q.append(nb)
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("grid_json")
    ap.add_argument("--seed", type=int, help="overrides preferences.seed")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--quiet", action="store_true", help="do not print the level")
    args = ap.parse_args()
    with open(args.grid_json) as f:
        spec = json.load(f)
    for feature in UNSUPPORTED:
        if spec.get(feature):
            die(f"{feature}: not modelled by this benchmark script")
    for i, c in enumerate(spec.get("counts") or []):
        if c.get("weight") is not None:
            die(f"counts[{i}]: soft counts are not modelled")
    prefs = spec.get("preferences") or {}
    if prefs.get("mode", "hint") != "hint":
        die("preferences.mode: only 'hint' is modelled")
    seed = args.seed if args.seed is not None else int(prefs.get("seed", 0))

    t0 = time.process_time()
    model = Vocab(spec)
    model.adjacency()
    model.counts()
    model.connectivity()
    model.runs()
    model.dead_ends()
    model.separation()
    model.symmetry()
    model.acyclic()
    model.paths()
    if prefs:
        model.hints(seed)
    build = time.process_time() - t0

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = args.time_limit
    solver.parameters.random_seed = 0
    w0, c0 = time.perf_counter(), time.process_time()
    status = solver.Solve(model.m)
    solve_cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    name = solver.StatusName(status)
    verdict = "-"
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        tiles = [next(t for t in range(len(model.tiles)) if solver.Value(model.x[c][t]))
                 for c in range(model.n)]
        layers = [[next(v for v in range(len(l["values"])) if solver.Value(model.y[li][c][v]))
                   for c in range(model.n)] for li, l in enumerate(model.layers)]
        errs = recheck(spec, model, tiles, layers)
        verdict = "FAILED" if errs else "ok"
        if errs:
            print("c CHECK FAILED: " + "; ".join(errs[:5]))
        if not args.quiet:
            for y in range(model.h):
                print("".join(model.tiles[tiles[y * model.w + x]]["glyph"] for x in range(model.w)))
    print(f"cpsat {args.grid_json} seed={seed} status={name} solve_cpu={solve_cpu:.3f} "
          f"build_cpu={build:.3f} wall={wall:.3f} check={verdict}")
    sys.exit(0 if verdict == "ok" else 1)


if __name__ == "__main__":
    main()
