#!/usr/bin/env python3
"""Run a MaxSAT solver shipped compiled in the `hermax` PyPI package on one WCNF file and print
the answer the MaxSAT Evaluation way, for ../shared/bench/compare.py.

    hermax_adapter.py SOLVER FILE        SOLVER: evalmaxsat | uwrmaxsat

Benchmark oracle only: grimoire never depends on this script or on hermax (hermax 1.2.10 from
PyPI was used to write and validate it: EvalMaxSAT "latest" and UWrMaxSat 1.4 competition
version, SCIP disabled in hermax's build). Both run single-threaded, in the configuration the
hermax bindings compile in: the bindings expose no option at all, so there is nothing to tune.

The bindings are driven directly (hermax.core.evalmaxsat_latest / urmaxsat_comp_py) rather than
through hermax's IPAMIR-style wrapper classes, because those key soft unit clauses by literal
("last weight wins"), which would silently change the cost of a WCNF that repeats a soft unit.
This script does the WCNF-level normalisation itself, each step cost-preserving:
  * a soft clause of weight 0 and any tautology (hard or soft) is dropped;
  * duplicate literals in a clause are merged;
  * an empty soft clause is always falsified: its weight goes to a constant offset;
  * an empty hard clause makes the instance UNSATISFIABLE (no solver call);
  * soft units on the same literal are merged (weights added); soft units on x and -x with
    weights a >= b become a soft unit x of weight a - b plus b in the offset;
  * an instance with no soft clause left gets one neutral soft unit on a fresh variable (the
    UWrMaxSat binding crashes on hard-only input; the fresh variable never costs anything).

Input: plain or gzip/bzip2/xz-compressed WCNF, old (`p wcnf NV NC [TOP]`, a clause is hard when
its weight >= TOP) or new (`h` marks hard clauses, no header) format; clauses may span lines.

Output: `o COST` (the solver's own cost plus the offset), `s OPTIMUM FOUND`, and `v 0101...`
(new-format 0/1 model over variables 1..N, N = the largest variable of the file or its header);
or `s UNSATISFIABLE`; or `s UNKNOWN` with a `c` line saying why: bad input, a solver error,
or weights beyond what the solver computes with (see WEIGHT_SUM_LIMIT; a single weight from 2^63
up is refused by the bindings themselves).
The script recomputes the cost of the model and checks the hard clauses, and says so in a `c`
line when the solver's claim does not hold; the `o` line stays the solver's claim so that
compare.py, which checks every answer itself, reports it as WRONG. Anything the native solver
prints goes to stderr, so stdout carries only these lines. Exit status: always 0, like the RC2
adapter (compare.py reads the `s` line, not the exit status).
"""
import bz2
import ctypes
import gzip
import lzma
import os
import sys


class BadInput(Exception):
    """The file is not a WCNF this script can read."""


class OutOfRange(Exception):
    """The weights do not fit the solver's arithmetic, so its answer could not be trusted."""


# The sum of all soft weights must stay below this, per solver. Both bindings take weights as
# signed 64-bit integers. UWrMaxSat adds them up in signed 64 bits: on the MSE regression
# instance MSE22Unique/e0829ae6... (weights summing to 1.3e19) it claims an optimum of 3.2e18
# where 2.8e18 is known, so a sum from 2^63 up is refused. EvalMaxSAT keeps its costs
# unsigned and the binding returns them cast to signed 64 bits, which this script undoes; its
# answers on the regression instances with sums between 2^63 and 2^64 all check out.
WEIGHT_SUM_LIMIT = {"evalmaxsat": 1 << 64, "uwrmaxsat": 1 << 63}


def open_text(path):
    """Open `path` for reading text, decompressing by magic number rather than by name."""
    with open(path, "rb") as f:
        magic = f.read(6)
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rt")
    if magic[:3] == b"BZh":
        return bz2.open(path, "rt")
    if magic == b"\xfd7zXZ\x00":
        return lzma.open(path, "rt")
    return open(path)


def parse_wcnf(path):
    """Return (num_vars, hard clauses, soft [(weight, clause)]).

    Mirrors compare.py's reading (hard = `h` or weight >= TOP) so both sides mean the same
    instance. One clause per line is the fast path; a clause split over lines still works.
    """
    hard, soft = [], []
    top, header_vars, max_var = None, 0, 0
    pending, weight = [], None  # a clause whose `0` has not been seen yet
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if not s or s[0] == "c" or s[0] == "%":
                continue
            if s[0] == "p":
                t = s.split()
                if len(t) < 4 or t[1] != "wcnf":
                    raise BadInput(f"not a WCNF header: {s[:60]}")
                header_vars = int(t[2])
                if len(t) > 4:
                    top = int(t[4])
                continue
            toks = s.split()
            try:
                if weight is None and len(toks) >= 2 and toks[-1] == "0":
                    # Fast path: a whole clause on one line.
                    w = None if toks[0] == "h" else int(toks[0])
                    lits = list(map(int, toks[1:-1]))
                    if 0 not in lits:
                        m = max(map(abs, lits), default=0)
                        if m > max_var:
                            max_var = m
                        if w is None or (top is not None and w >= top):
                            hard.append(lits)
                        else:
                            soft.append((w, lits))
                        continue
                for tok in toks:
                    if weight is None:
                        weight = "h" if tok == "h" else int(tok)
                        continue
                    v = int(tok)
                    if v:
                        pending.append(v)
                        max_var = max(max_var, abs(v))
                        continue
                    if weight == "h" or (top is not None and weight >= top):
                        hard.append(pending)
                    else:
                        soft.append((weight, pending))
                    pending, weight = [], None
            except ValueError:
                raise BadInput(f"not an integer in: {s[:60]}") from None
    if weight is not None:
        raise BadInput("the last clause has no terminating 0")
    for w, _ in soft:
        if w < 0:
            raise BadInput(f"negative weight {w}")
    return max(header_vars, max_var), hard, soft


def clean(clause):
    """Return the clause without duplicate literals, or None if it is a tautology."""
    seen = set(clause)
    if len(seen) == len(clause) and not any(-l in seen for l in clause):
        return clause
    out = []
    for l in clause:
        if -l in seen:
            return None
        if l in seen:
            out.append(l)
            seen.discard(l)
    return out


def normalise(num_vars, hard, soft):
    """Return (hard, soft units {lit: w}, soft non-units [(w, clause)], offset) or None if an
    empty hard clause makes the instance unsatisfiable. See the module docstring."""
    hard_out = []
    for c in hard:
        c = clean(c)
        if c is None:
            continue
        if not c:
            return None
        hard_out.append(c)
    units, nonunits, offset = {}, [], 0
    for w, c in soft:
        if w == 0:
            continue
        c = clean(c)
        if c is None:
            continue
        if not c:
            offset += w
        elif len(c) == 1:
            units[c[0]] = units.get(c[0], 0) + w
        else:
            nonunits.append((w, c))
    for lit in [l for l in units if l > 0 and -l in units]:
        a, b = units[lit], units[-lit]
        offset += min(a, b)
        del units[lit], units[-lit]
        if a != b:
            units[lit if a > b else -lit] = abs(a - b)
    return hard_out, units, nonunits, offset


class StdoutToStderr:
    """Send whatever native code writes to file descriptor 1 to stderr for the duration."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        os.dup2(2, 1)

    def __exit__(self, *exc):
        # C stdio (and std::cout, synchronised with it) buffers: flush it while fd 1 is still
        # stderr, or EvalMaxSAT's intermediate `o` lines would reach stdout at exit.
        ctypes.CDLL(None).fflush(None)
        os.dup2(self.saved, 1)
        os.close(self.saved)


def solve(solver_name, num_vars, hard, units, nonunits, offset):
    """Return (optimal?, model as list of bools for 1..num_vars, solver's cost)."""
    total = offset + sum(units.values()) + sum(w for w, _ in nonunits)
    if total >= WEIGHT_SUM_LIMIT[solver_name]:
        raise OutOfRange(f"the soft weights sum to {total}, beyond {solver_name}'s range")
    if solver_name == "evalmaxsat":
        import hermax.core.evalmaxsat_latest as native

        s = native.EvalMaxSAT()
    else:
        import hermax.core.urmaxsat_comp_py as native

        s = native.UWrMaxSAT()
    n = num_vars
    if not units and not nonunits:
        n += 1
        units = {n: 1}  # neutral: the fresh variable n is free, set it true
    with StdoutToStderr():  # EvalMaxSAT already talks while clauses are added
        for _ in range(n):
            s.newVar()
        if solver_name == "evalmaxsat":
            s.setNInputVars(n)
        for c in hard:
            s.addClause(c, None)
        for lit, w in units.items():
            s.addClause([lit], w)
        for w, c in nonunits:
            s.addClause(c, w)
        r = s.solve()
    if solver_name == "evalmaxsat":
        if not r:
            return False, None, None
        model = [bool(s.getValue(i)) for i in range(1, num_vars + 1)]
        # The cost is unsigned inside, returned as signed 64 bits; total < 2^64 makes this exact.
        cost = int(s.getCost())
        return True, model, cost + (1 << 64) if cost < 0 else cost
    else:
        if int(r) == 20:
            return False, None, None
        if int(r) != 30:
            raise RuntimeError(f"UWrMaxSat returned status {int(r)}")
        # None = left unassigned (the variable occurs nowhere that matters): false will do.
        model = [s.getValue(i) is True for i in range(1, num_vars + 1)]
    return True, model, int(s.getCost())


def main(argv):
    if len(argv) != 3 or argv[1] not in ("evalmaxsat", "uwrmaxsat"):
        print("c usage: hermax_adapter.py evalmaxsat|uwrmaxsat FILE")
        print("s UNKNOWN")
        return 0
    solver_name, path = argv[1], argv[2]
    try:
        num_vars, hard, soft = parse_wcnf(path)
        norm = normalise(num_vars, hard, soft)
        if norm is None:
            print("c empty hard clause")
            print("s UNSATISFIABLE", flush=True)
            return 0
        hard_n, units, nonunits, offset = norm
        optimal, model, cost = solve(solver_name, num_vars, hard_n, units, nonunits, offset)
    except (OSError, BadInput, OutOfRange, ValueError, TypeError, OverflowError, RuntimeError) as e:
        print(f"c {solver_name}: {type(e).__name__}: {e}")
        print("s UNKNOWN", flush=True)
        return 0
    if not optimal:
        print("s UNSATISFIABLE", flush=True)
        return 0
    cost += offset
    value = lambda l: model[l - 1] if l > 0 else not model[-l - 1]
    broken = sum(1 for c in hard if not any(value(l) for l in c))
    real = sum(w for w, c in soft if not any(value(l) for l in c))
    if broken:
        print(f"c WARNING: the model falsifies {broken} hard clauses")
    if real != cost:
        print(f"c WARNING: the solver claims cost {cost}, its model costs {real}")
    print(f"o {cost}")
    print("s OPTIMUM FOUND")
    print("v " + "".join("1" if b else "0" for b in model), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
