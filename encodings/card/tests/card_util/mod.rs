//! Helpers shared by the cardinality and Problem tests: the testkit's independent unit
//! propagator over a `Cnf` (the propagation-strength oracle, not our solver's word), subset enumeration and a
//! counting sink.
#![allow(dead_code)]

use grim_encodings::{ClauseSink, Cnf, Lit, Var};

/// Unit propagation of `cnf` under `assumptions`, to fixpoint. `None` on a conflict (a clause
/// with every literal false, or contradictory assumptions), else the partial assignment
/// (`vals[v]`), indexed by variable.
pub fn propagate(cnf: &Cnf, assumptions: &[Lit]) -> Option<Vec<Option<bool>>> {
    grim_testkit::unit_propagate(&cnf.clauses, cnf.num_vars, assumptions)
}

/// The value of `lit` in a partial assignment from [`propagate`].
pub fn lit_value(vals: &[Option<bool>], lit: Lit) -> Option<bool> {
    vals.get(lit.var().index())
        .copied()
        .flatten()
        .map(|b| b == lit.is_positive())
}

/// Whether every clause of `cnf` is satisfied by the total assignment `model`.
pub fn satisfies(cnf: &Cnf, model: &[bool]) -> bool {
    cnf.clauses.iter().all(|c| {
        c.iter()
            .any(|l| model.get(l.var().index()).copied().unwrap_or(false) == l.is_positive())
    })
}

/// `n` fresh variables from `sink`, as positive literals.
pub fn fresh<S: ClauseSink>(sink: &mut S, n: usize) -> Vec<Lit> {
    (0..n).map(|_| sink.new_var().pos()).collect()
}

/// The assumptions fixing `lits` to the bits of `mask` (bit i set: `lits[i]` true).
pub fn fix(lits: &[Lit], mask: u32) -> Vec<Lit> {
    lits.iter()
        .enumerate()
        .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
        .collect()
}

/// Every subset of `0..n` with exactly `k` elements, as bit masks.
pub fn subsets(n: usize, k: usize) -> impl Iterator<Item = u32> {
    (0u32..1 << n).filter(move |m| m.count_ones() as usize == k)
}

/// The size-table oracle.
#[allow(unused_imports)] // not every test binary measures sizes
pub use grim_encodings::sink::Counting;

/// A sink writing to a live solver and to a `Cnf` copy, so answers can be re-checked against
/// the clauses without trusting the solver.
pub struct Tee {
    pub solver: grim_solver::Solver,
    pub cnf: Cnf,
}

impl Tee {
    pub fn new() -> Tee {
        Tee {
            solver: grim_solver::Solver::with_options(grim_solver::Options::aggressive()),
            cnf: Cnf::default(),
        }
    }
}

impl ClauseSink for Tee {
    fn new_var(&mut self) -> Var {
        let v = self.solver.new_var();
        self.cnf.num_vars = self.cnf.num_vars.max(v.index() + 1);
        v
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.solver.add_clause(lits);
        self.cnf.add_clause(lits);
    }
}

/// How many of `lits` are true when the variables `pool[i]` take the bits of `mask`
/// (variables outside the pool count as false). Literals are counted with multiplicity.
pub fn count_true(pool: &[Var], lits: &[Lit], mask: u32) -> usize {
    lits.iter()
        .filter(|l| {
            let bit = pool
                .iter()
                .position(|&v| v == l.var())
                .is_some_and(|i| mask >> i & 1 == 1);
            bit == l.is_positive()
        })
        .count()
}

/// Checks both ways, for every assignment of `pool`: with `extra` assumed, the clauses are
/// satisfiable iff `allowed(mask)`. A SAT answer's model is re-checked against the `Cnf`; an
/// UNSAT answer must be confirmed by our own unit propagation (so it is also the propagation
/// strength claim for total input assignments). Returns how many masks were allowed.
pub fn both_ways(
    tee: &mut Tee,
    pool: &[Var],
    extra: &[Lit],
    allowed: impl Fn(u32) -> bool,
) -> usize {
    let lits: Vec<Lit> = pool.iter().map(|v| v.pos()).collect();
    let mut sat = 0;
    for mask in 0u32..1 << pool.len() {
        let mut a = fix(&lits, mask);
        a.extend_from_slice(extra);
        let status = tee.solver.solve(&a, grim_solver::Budget::UNLIMITED);
        if allowed(mask) {
            assert_eq!(
                status,
                grim_solver::Status::Sat,
                "mask {mask:b}, extra {extra:?}"
            );
            let model = tee.solver.model().unwrap_or_default();
            assert!(
                satisfies(&tee.cnf, &model),
                "model fails the clauses, mask {mask:b}"
            );
            for &l in &a {
                assert_eq!(model.get(l.var().index()).copied(), Some(l.is_positive()));
            }
            sat += 1;
        } else {
            assert_eq!(
                status,
                grim_solver::Status::Unsat,
                "mask {mask:b}, extra {extra:?}"
            );
            assert!(
                propagate(&tee.cnf, &a).is_none(),
                "unit propagation misses the conflict, mask {mask:b}, extra {extra:?}"
            );
        }
    }
    sat
}

/// Asserts unit-propagation strength of a hard `lo ≤ Σ ≤ hi` over distinct positive `inputs`
/// with `extra` assumed: `hi` true inputs force the rest false, `hi + 1` conflict; `n − lo` false
/// inputs force the rest true, `n − lo + 1` conflict. Only for satisfiable bounds.
pub fn propagation_strength(
    cnf: &Cnf,
    inputs: &[Lit],
    extra: &[Lit],
    lo: usize,
    hi: usize,
    what: &str,
) {
    let n = inputs.len();
    let pick = |mask: u32, neg: bool| -> Vec<Lit> {
        let mut a: Vec<Lit> = (0..n)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| if neg { !inputs[i] } else { inputs[i] })
            .collect();
        a.extend_from_slice(extra);
        a
    };
    // `set` inputs given the value `!forced` force every other input to `forced`; one more
    // given it is a conflict.
    let side = |set: usize, forced: bool| {
        let given = !forced;
        for mask in subsets(n, set) {
            let Some(vals) = propagate(cnf, &pick(mask, forced)) else {
                panic!("{what}: n {n} lo {lo} hi {hi}: {set} {given} inputs {mask:b} conflict");
            };
            for (i, &x) in inputs.iter().enumerate() {
                if mask >> i & 1 == 0 {
                    assert_eq!(
                        lit_value(&vals, x),
                        Some(forced),
                        "{what}: n {n} lo {lo} hi {hi} mask {mask:b}: input {i} not forced {forced}"
                    );
                }
            }
        }
        for mask in subsets(n, set + 1) {
            assert!(
                propagate(cnf, &pick(mask, forced)).is_none(),
                "{what}: n {n} lo {lo} hi {hi}: {} {given} inputs {mask:b} give no conflict",
                set + 1
            );
        }
    };
    if hi < n {
        side(hi, false);
    }
    if lo > 0 {
        side(n - lo, true);
    }
}

/// A fresh [`Tee`] with `n` new variables, and their positive literals: the inputs of one
/// encoder check.
pub fn with_inputs(n: usize) -> (Tee, Vec<Var>, Vec<Lit>) {
    let mut tee = Tee::new();
    let pool: Vec<Var> = (0..n).map(|_| tee.new_var()).collect();
    let inputs = pool.iter().map(|v| v.pos()).collect();
    (tee, pool, inputs)
}

/// Runs `check(n, bound, tee, pool, inputs)` on fresh inputs ([`with_inputs`]) for every
/// `n ≤ 8` and every `bound ≤ n + 1`: the loop of the tests of a structure built once with a
/// bound and then asked for its outputs (the sorted outputs, the sequential counter).
pub fn for_each_bound_up_to_8(mut check: impl FnMut(usize, usize, &mut Tee, &[Var], &[Lit])) {
    for n in 0..=8usize {
        for bound in 0..=n + 1 {
            let (mut tee, pool, inputs) = with_inputs(n);
            check(n, bound, &mut tee, &pool, &inputs);
        }
    }
}

/// [`check_between`] up to 8 inputs, asserting that it checked every (n, lo, hi).
pub fn check_between_up_to_8(what: &str, encode: impl Fn(&mut Tee, &[Lit], usize, usize)) {
    let checked = check_between(what, 8, encode);
    assert_eq!(checked, (0..=8).map(|n| (n + 2) * (n + 2)).sum::<usize>());
}

/// Checks a hard `between` encoder exhaustively for every `n ≤ max_n`, every `lo, hi ≤ n + 1`:
/// both ways, propagation strength, and the degenerate cases (vacuous: nothing emitted;
/// impossible: the empty clause). Returns the number of (n, lo, hi) checked.
pub fn check_between(
    what: &str,
    max_n: usize,
    encode: impl Fn(&mut Tee, &[Lit], usize, usize),
) -> usize {
    let mut checked = 0;
    for n in 0..=max_n {
        for lo in 0..=n + 1 {
            for hi in 0..=n + 1 {
                let (mut tee, pool, inputs) = with_inputs(n);
                encode(&mut tee, &inputs, lo, hi);
                if lo == 0 && hi >= n {
                    assert!(
                        tee.cnf.clauses.is_empty(),
                        "{what}: n {n} lo {lo} hi {hi} is vacuous but emitted clauses"
                    );
                    assert_eq!(tee.cnf.num_vars, n, "{what}: vacuous bound made variables");
                }
                if lo > hi || lo > n {
                    assert!(
                        tee.cnf.clauses.iter().any(Vec::is_empty),
                        "{what}: n {n} lo {lo} hi {hi} is impossible but no empty clause"
                    );
                }
                both_ways(&mut tee, &pool, &[], |m| {
                    let c = m.count_ones() as usize;
                    lo <= c && c <= hi
                });
                if lo <= hi && lo <= n {
                    propagation_strength(&tee.cnf, &inputs, &[], lo, hi, what);
                }
                checked += 1;
            }
        }
    }
    checked
}
