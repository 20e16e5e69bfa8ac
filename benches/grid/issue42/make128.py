#!/usr/bin/env python3
"""Writes the 128x128 versions of issue 42's 64x64 benchmark specs (instances/grid/) beside this
script: the same tiles and rules, with every size-bound number scaled — coordinates, regions and
path bounds by 2 (min_length capped, see CAP), absolute counts by 4 (ratios and the one exit unchanged), the arena's spawn distance 24 -> 44
(48 would exceed the reader's cap of 2^25 close pairs), the mazes' lattice regrown at 127x127.
Usage: python3 benches/grid/issue42/make128.py (from the repository root)."""
import json
import os

SRC = "instances/grid"
OUT = os.path.dirname(os.path.abspath(__file__))
# The reader refuses a min_length whose export layers exceed 2^22 layer-cells: 256 steps at
# 128x128, 260 at 127x127 (so maze-far and cave-far get 256/260, not 400).
CAP = 1 << 22


def load(name):
    with open(os.path.join(SRC, name + ".json")) as f:
        return json.load(f)


def save(name, spec):
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(spec, f, indent=1)
        f.write("\n")


def cave(name, out):
    s = load(name)
    n = 128
    s["comment"] = f"{name}.json at 128x128 (benches/grid/issue42/make128.py): " + s["comment"]
    s["width"] = s["height"] = n
    s["mask"] = ["#" * n] + ["#" + "?" * (n - 2) + "#" for _ in range(n - 2)] + ["#" * n]
    for p in s.get("pins", []):
        p["x"], p["y"] = p["x"], p["y"] * 2
    for c in s["counts"]:
        for k in ("min", "max"):
            # Amounts of material scale with the area; the one exit stays one.
            if isinstance(c.get(k), int) and c["of"] != "exit":
                c[k] *= 4
        if "region" in c:
            r = c["region"]
            c["region"] = {"x": r["x"] * 2, "y": 1, "w": n - 1 - r["x"] * 2, "h": n - 2}
    for c in s.get("connectivity", []):
        if isinstance(c["root"], dict):
            c["root"]["y"] *= 2
    for p in s.get("paths", []):
        p["from"]["y"] *= 2
        for k in ("max_length", "min_length"):
            if k in p:
                p[k] = min(p[k] * 2, CAP // (n * n))
    for r in s.get("runs", []):
        r["region"] = {"x": 1, "y": 1, "w": n - 2, "h": n - 2}
    save(out, s)


def maze(name, out):
    s = load(name)
    n = 127
    s["comment"] = f"{name}.json at 127x127 (benches/grid/issue42/make128.py): " + s["comment"]
    s["width"] = s["height"] = n
    rows = []
    for y in range(n):
        if y == 0 or y == n - 1:
            rows.append("#" * n)
        elif y % 2 == 1:
            row = "".join("." if x % 2 == 1 else "?" for x in range(1, n - 1))
            left = "." if y == 1 else "#"
            right = "." if y == n - 2 else "#"
            rows.append(left + row + right)
        else:
            rows.append("#" + "".join("?" if x % 2 == 1 else "#" for x in range(1, n - 1)) + "#")
    s["mask"] = rows
    for p in s["paths"]:
        p["to"] = {"x": n - 1, "y": n - 2}
        if "min_length" in p:
            p["min_length"] = min(p["min_length"] * 2, CAP // (n * n))
    save(out, s)


def arena(name, out):
    s = load(name)
    s["comment"] = f"{name}.json at 128x128 (benches/grid/issue42/make128.py; spawns 44 apart): " + s["comment"]
    s["width"] = s["height"] = 128
    for c in s["counts"]:
        if c["of"] == "items.spawn":
            pass  # still four spawn points
    for r in s["separation"]:
        if r["of"] == "items.spawn":
            r["min_distance"] = 44
    save(out, s)


cave("cave-runs-64", "cave-runs-128")
cave("cave-no-dead-ends-64", "cave-no-dead-ends-128")
cave("cave-loops-64", "cave-loops-128")
cave("cave-far-64", "cave-far-128")
maze("maze-perfect-63", "maze-perfect-127")
maze("maze-far-63", "maze-far-127")
arena("arena-spawns-64", "arena-spawns-128")
arena("arena-mirrored-64", "arena-mirrored-128")
