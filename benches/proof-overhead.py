#!/usr/bin/env python3
"""Proof-writing overhead: each instance solved three times by the same grim-sat binary, with
no proof, with a binary DRAT proof and with a binary LRAT proof (`--lrat`), one process at a
time; the CPU time (user + system of the child) of each, and the ratios LRAT/none, DRAT/none
and LRAT/DRAT, with their median and worst over the instances all three runs answered UNSAT.

The proof's format does not change the search (the solver's statistics say so: the conflict
counts of the three runs are printed and must agree), so the ratios are the cost of writing.
Proofs go to a temporary directory and are deleted after each run.

Usage: benches/proof-overhead.py [--timeout SECONDS] [--opt NAME=VALUE]... GRIM_SAT INSTANCE...
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile


def child_cpu():
    """CPU seconds (user + system) of every child reaped so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("grim")
    ap.add_argument("instances", nargs="+")
    a = ap.parse_args()
    opts = [x for o in a.opt for x in ("--opt", o)]
    tmp = tempfile.mkdtemp(prefix="proof-overhead-")
    rows = []
    print(f"# {a.grim} {' '.join(opts)}; CPU seconds (user+sys); timeout {a.timeout:.0f} s")
    print("instance | none s | DRAT s | LRAT s | DRAT MB | LRAT MB | LRAT/none | DRAT/none | LRAT/DRAT | conflicts")
    for inst in a.instances:
        name = os.path.basename(inst)
        res = {}
        for kind in ["none", "drat", "lrat"]:
            proof = os.path.join(tmp, "proof")
            # Not -q: the statistics' conflict count shows that the three searched alike.
            cmd = [a.grim, "--stats", "-n", *opts]
            if kind != "none":
                cmd += ["--binary-proof", "--proof", proof]
            if kind == "lrat":
                cmd += ["--lrat"]
            cmd.append(inst)
            # One child at a time: the growth of the children's CPU time is this run's.
            before = child_cpu()
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            try:
                out, _ = proc.communicate(timeout=a.timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate()
            cpu = child_cpu() - before
            text = out.decode(errors="replace")
            m = re.search(r"conflicts\D+(\d+)", text)
            size = os.path.getsize(proof) / 1e6 if kind != "none" and os.path.exists(proof) else 0
            if os.path.exists(proof):
                os.remove(proof)
            res[kind] = (proc.returncode, cpu, size, int(m.group(1)) if m else -1)
        ok = all(r[0] == 20 for r in res.values())
        n, d, l = (res[k][1] for k in ["none", "drat", "lrat"])
        conf = "/".join(str(res[k][3]) for k in ["none", "drat", "lrat"])
        if ok:
            rows.append((l / n, d / n, l / d))
            print(f"{name} | {n:.2f} | {d:.2f} | {l:.2f} | {res['drat'][2]:.1f} | {res['lrat'][2]:.1f} | "
                  f"{l / n:.3f} | {d / n:.3f} | {l / d:.3f} | {conf}")
        else:
            codes = "/".join(str(res[k][0]) for k in ["none", "drat", "lrat"])
            print(f"{name} | {n:.2f} | {d:.2f} | {l:.2f} | - | - | - | - | - | exits {codes}, {conf}")
        sys.stdout.flush()
    os.rmdir(tmp)
    if rows:
        for k, label in enumerate(["LRAT/none", "DRAT/none", "LRAT/DRAT"]):
            xs = [r[k] for r in rows]
            print(f"{label}: median {statistics.median(xs):.3f}, worst {max(xs):.3f} "
                  f"over {len(xs)} instances")


if __name__ == "__main__":
    main()
