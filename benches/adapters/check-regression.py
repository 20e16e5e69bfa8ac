#!/usr/bin/env python3
"""Check a MaxSAT adapter against the MaxSAT Evaluation regression suite's known answers.

    check-regression.py [--timeout SEC] CMD [CSV ...]

CMD is an adapter command line ({} = the instance, appended when absent), e.g.
benches/adapters/evalmaxsat.sh. The CSV files default to every *.csv of
../shared/bench/instances/maxsat/regression (run from /work/main); each lists instances with
their best known cost (BestOValue), satisfiability and whether that cost is certified.

Every answer goes through compare.py's own checks (the model satisfies the hard clauses, the `o`
cost is the model's cost), then against the CSV: UNSATISFIABLE must match, an OPTIMUM FOUND cost
must equal a certified optimum and must not exceed any best known cost. A timeout or `s UNKNOWN`
is counted, not failed. Exit status 1 when any answer is wrong.
"""
import argparse, csv, glob, importlib.util, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench"))


def load_compare():
    spec = importlib.util.spec_from_file_location("compare", os.path.join(BENCH, "compare.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rows(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("c ")]
    for r in csv.DictReader(lines, skipinitialspace=True):
        yield r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("cmd")
    ap.add_argument("csv", nargs="*")
    a = ap.parse_args()
    cmp = load_compare()
    files = a.csv or sorted(glob.glob(os.path.join(BENCH, "instances/maxsat/regression/*.csv")))
    counts = {"ok": 0, "unsolved": 0, "wrong": 0}
    cpu_total = 0.0
    for table in files:
        base = os.path.dirname(table)
        for r in rows(table):
            path = os.path.join(base, r["WCNFFile"].strip())
            if not os.path.exists(path):
                continue
            what, text, cpu = cmp.run(a.cmd, path, a.timeout)
            cpu_total += cpu
            status, cost, model = cmp.parse_output(text) if what == "done" else ("ERROR", None, {})
            verdict, real = cmp.check(cmp.parse_instance(path), status, cost, model)
            best, sat, cert = r["BestOValue"].strip(), r["Satisfiable"].strip(), r["CertifiedResult"].strip()
            if verdict == "ok" and status == "UNSATISFIABLE" and sat != "UNSATISFIABLE":
                verdict = f"WRONG: UNSAT, expected {sat} {best}"
            if verdict == "ok" and status == "OPTIMUM FOUND":
                if sat == "UNSATISFIABLE":
                    verdict = f"WRONG: OPTIMUM {real}, expected UNSAT"
                elif best not in ("", "None"):
                    if real > int(best) or (cert == "YES" and real != int(best)):
                        verdict = f"WRONG: OPTIMUM {real}, best known {best} (certified {cert})"
            if verdict != "ok":
                counts["wrong"] += 1
                print(f"{os.path.relpath(path, BENCH)}: {verdict}", flush=True)
            elif status in ("OPTIMUM FOUND", "UNSATISFIABLE") and cpu <= a.timeout:
                counts["ok"] += 1
            else:
                counts["unsolved"] += 1
                print(f"{os.path.relpath(path, BENCH)}: unsolved ({status}, {cpu:.1f}s)", flush=True)
    print(f"{a.cmd}: right {counts['ok']}, unsolved {counts['unsolved']}, wrong {counts['wrong']}, "
          f"CPU {cpu_total:.0f}s")
    return 1 if counts["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
