//! The incremental API against a reference model: clauses added between solves, assumptions,
//! failed cores, budgets, the terminate flag, phases, and the IPASIR state rules (a model and a
//! failed set live until the next `add_clause` or `solve`).
//!
//! Two kinds of test:
//! - seeded random *sequences* (add clauses, solve under random assumptions, add more, solve
//!   again …) where every answer is compared with a fresh solver built on the accumulated
//!   clauses and with brute force;
//! - a hand-written proptest *state machine*: random legal sequences of every API call, each
//!   checked against a reference model of the state (the accumulated clauses, the last answer,
//!   the terminate flag, the variable count) with brute force as the oracle.
//!
//! Everything stays at ≤ 12 variables so brute force is 4096 assignments, and runs under the
//! default options and under `Options::aggressive()` (restart, reduce, rephase and mode switch
//! every few conflicts), so learned clauses kept across calls meet those paths.

use grim_solver::{Budget, Lit, Options, Solver, Status, Var};
use grim_testkit::{
    Answer, SplitMix64 as Rng, check_answer, lit, satisfiable as brute_force, vars_of,
};
use proptest::prelude::*;

/// The most variables any test here uses: brute force enumerates 2^12 assignments.
const MAX_VARS: u32 = 12;

/// The option sets every test runs under: the default schedule (with the model check on,
/// as in tests it is anyway), the aggressive one, the aggressive one with a seeded variable
/// order, and the aggressive one without minimisation, stable mode, walking or elimination.
fn configs() -> Vec<(&'static str, Options)> {
    vec![
        (
            "default",
            Options {
                check_model: true,
                ..Options::default()
            },
        ),
        ("aggressive", Options::aggressive()),
        (
            "aggressive+seed",
            Options {
                seed: 0x5eed,
                ..Options::aggressive()
            },
        ),
        (
            "aggressive, no minimise/stable/walk/eliminate",
            Options {
                minimize: false,
                stable: false,
                walk_effort: 0.0,
                eliminate: false,
                ..Options::aggressive()
            },
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// (a) Seeded random incremental sequences.
// ---------------------------------------------------------------------------------------------

fn random_clause(rng: &mut Rng, vars: u32) -> Vec<Lit> {
    // Mostly ternary, some binary, one in forty a unit; now and then a duplicate literal
    // or a tautology, which the engine must merge or drop.
    let len = match rng.below(40) {
        0 => 1,
        1..=8 => 2,
        _ => 3,
    };
    let mut c: Vec<Lit> = (0..len)
        .map(|_| lit(rng.below(vars as u64) as u32, rng.coin()))
        .collect();
    if rng.below(40) == 0 {
        c.push(c[0]);
    }
    if rng.below(60) == 0 {
        c.push(!c[0]);
    }
    c
}

/// A random 3-XOR constraint (x ⊕ y ⊕ z = parity) as its four clauses. Systems of these need
/// far more conflicts per variable than random 3-SAT (resolution has no Gaussian elimination),
/// which is what makes restarts and reductions fire on twelve variables.
fn random_xor(rng: &mut Rng, vars: u32) -> Vec<Vec<Lit>> {
    let mut vs = Vec::new();
    while vs.len() < 3 {
        let v = rng.below(vars as u64) as u32;
        if !vs.contains(&v) {
            vs.push(v);
        }
    }
    let parity = rng.coin();
    // Forbid every assignment of the wrong parity: one clause per sign pattern with an even
    // (or odd) number of negations.
    (0..8u32)
        .filter(|signs| (signs.count_ones() % 2 == 1) == parity)
        .map(|signs| {
            vs.iter()
                .enumerate()
                .map(|(i, &v)| lit(v, signs >> i & 1 == 1))
                .collect()
        })
        .collect()
}

fn random_assumptions(rng: &mut Rng, vars: u32) -> Vec<Lit> {
    let n = rng.below(6) as usize;
    (0..n)
        .map(|_| lit(rng.below(vars as u64) as u32, rng.coin()))
        .collect()
}

#[derive(Default, Debug)]
struct Tally {
    solves: u64,
    sat: u64,
    /// Unsat answers while the clauses alone are satisfiable: the core mattered.
    unsat_with_core: u64,
    /// Unsat answers once the clauses alone are unsatisfiable (one per sequence at most).
    unsat_from_clauses: u64,
    /// Unsat answers whose core is a strict subset of the (deduplicated) assumptions.
    strict_cores: u64,
    /// Conflicts over all solves of the incremental solvers.
    conflicts: u64,
    /// Learned-clause reductions and restarts over all incremental solvers: the schedule
    /// fired inside incremental use, so later calls met a reduced database.
    reductions: u64,
    restarts: u64,
    /// Variables eliminated before the first search, and restorations when an eliminated
    /// variable reappeared in a later clause or assumption: the incremental hazard of
    /// elimination, which these sequences hit all the time.
    eliminated: u64,
    restored: u64,
}

/// Runs one seeded sequence under `opts`: the variable count grows as the sequence goes,
/// clauses come in batches, and each batch is followed by one to three solves under random
/// assumptions. Every solve is checked against brute force and against a fresh solver.
///
/// The clause count ends near the 3-SAT threshold (3.5 to 5 clauses per variable), so most
/// sequences cross from SAT to UNSAT somewhere in the middle; once the clauses alone are
/// UNSAT the sequence stops, since every later answer is the same.
fn run_sequence(seed: u64, opts: &Options, tally: &mut Tally) {
    let mut rng = Rng::new(seed);
    let mut s = Solver::with_options(opts.clone());
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut final_vars = 5 + rng.below(MAX_VARS as u64 - 4) as u32; // 5..=12
    // One sequence in three is a 3-XOR system (0.8 to 1.1 equations per variable, four clauses
    // each), the rest random 3-SAT at 3.5 to 5 clauses per variable.
    let xor = rng.below(3) == 0;
    if xor {
        final_vars = final_vars.max(10);
    }
    let total = if xor {
        4 * (final_vars as u64 * (8 + rng.below(4)) / 10) as usize
    } else {
        (final_vars as u64 * (35 + rng.below(16)) / 10) as usize
    };
    let batches = 3 + rng.below(5) as usize;
    let mut vars = 3;
    for batch in 0..batches {
        // Grow the variable set: sometimes with new_var, sometimes just by using a variable.
        if batch > 0 {
            vars = (3 + (final_vars - 3) * batch as u32 / (batches as u32 - 1)).min(final_vars);
            if rng.coin() {
                while (s.num_vars() as u32) < vars {
                    s.new_var();
                }
            }
        }
        let upto = total * (batch + 1) / batches;
        while clauses.len() < upto {
            let new = if xor {
                random_xor(&mut rng, vars)
            } else {
                vec![random_clause(&mut rng, vars)]
            };
            for c in new {
                s.add_clause(&c);
                assert!(
                    s.model().is_none() && s.last_status().is_none(),
                    "answer survived add_clause"
                );
                clauses.push(c);
            }
        }
        // XOR systems get more solves per batch: they are where the conflicts are.
        let solves = if xor {
            4 + rng.below(12)
        } else {
            1 + rng.below(6)
        };
        for _ in 0..solves {
            let assumptions = random_assumptions(&mut rng, vars);
            let before = s.stats().clone();
            let status = s.solve(&assumptions, Budget::UNLIMITED);
            let answer = check_answer(&s, status, &clauses, &assumptions, false);
            tally.solves += 1;
            tally.conflicts += s.stats().conflicts - before.conflicts;
            tally.reductions += s.stats().reductions - before.reductions;
            tally.restarts += s.stats().restarts - before.restarts;
            tally.eliminated += s.stats().eliminated - before.eliminated;
            tally.restored += s.stats().restored - before.restored;

            // A fresh solver on the accumulated clauses must agree on the status.
            let mut fresh = Solver::with_options(opts.clone());
            for c in &clauses {
                fresh.add_clause(c);
            }
            let fresh_status = fresh.solve(&assumptions, Budget::UNLIMITED);
            assert_eq!(
                status, fresh_status,
                "incremental and fresh solvers disagree (seed {seed:#x}, batch {batch}) on {clauses:?} under {assumptions:?}"
            );
            check_answer(&fresh, fresh_status, &clauses, &assumptions, false);

            match answer {
                Answer::Sat(_) => tally.sat += 1,
                // The clauses alone are unsatisfiable (any core, empty or not, is right): every
                // later answer is the same, so the sequence ends here.
                Answer::Unsat(_) if !brute_force(&clauses, &[]) => {
                    tally.unsat_from_clauses += 1;
                    return;
                }
                // The clauses are satisfiable, so check_answer's "core unsatisfiable with the
                // clauses" guarantees the core is not empty.
                Answer::Unsat(core) => {
                    tally.unsat_with_core += 1;
                    let mut distinct = assumptions.clone();
                    distinct.sort();
                    distinct.dedup();
                    if core.len() < distinct.len() {
                        tally.strict_cores += 1;
                    }
                }
                Answer::Unknown => unreachable!("checked above"),
            }
        }
    }
}

#[test]
fn incremental_answers_match_a_fresh_solver_and_brute_force_at_every_step() {
    for (name, opts) in configs() {
        let mut tally = Tally::default();
        for seq in 0..3000u64 {
            run_sequence(0xC0FFEE ^ (seq * 0x1_0001), &opts, &mut tally);
        }
        eprintln!("{name}: {tally:?}");
        let enough = |what: &str, got: u64, min: u64| {
            assert!(
                got > min,
                "{name}: only {got} {what} (want > {min}): {tally:?}"
            );
        };
        enough("solves", tally.solves, 30_000);
        enough("SAT answers", tally.sat, 12_000);
        enough(
            "UNSAT answers whose core mattered (clauses alone SAT)",
            tally.unsat_with_core,
            12_000,
        );
        enough(
            "cores smaller than the assumptions",
            tally.strict_cores,
            10_000,
        );
        enough(
            "UNSAT answers from the clauses alone",
            tally.unsat_from_clauses,
            2_000,
        );
        if opts.eliminate {
            enough("eliminated variables", tally.eliminated, 1_000);
            enough(
                "restorations of an eliminated variable that reappeared",
                tally.restored,
                500,
            );
        }
        // Variable elimination before the first solve removes many tiny conflicts (4,669 left
        // at the time it landed, from 5,000+ without it).
        // 2,500, not 3,000: the aggressive schedule runs probing, subsumption and elimination
        // rounds every few conflicts, and they settle some sequences without a conflict.
        enough("conflicts", tally.conflicts, 2_500);
        if name.starts_with("aggressive") {
            enough("reductions inside incremental use", tally.reductions, 150);
            enough("restarts inside incremental use", tally.restarts, 10);
        }
    }
}

#[test]
fn the_same_assumptions_twice_in_a_row_give_the_same_status_and_a_valid_answer_each_time() {
    // Learned clauses from the first call must not change the second call's answer.
    let mut rng = Rng::new(0xA55);
    let mut repeats = 0;
    for (_, opts) in configs() {
        for _ in 0..200 {
            let vars = 6 + rng.below(7) as u32;
            let clauses: Vec<Vec<Lit>> = (0..vars * 4)
                .map(|_| random_clause(&mut rng, vars))
                .collect();
            let mut s = Solver::with_options(opts.clone());
            for c in &clauses {
                s.add_clause(c);
            }
            let assumptions = random_assumptions(&mut rng, vars);
            let first = s.solve(&assumptions, Budget::UNLIMITED);
            check_answer(&s, first, &clauses, &assumptions, false);
            let second = s.solve(&assumptions, Budget::UNLIMITED);
            check_answer(&s, second, &clauses, &assumptions, false);
            assert_eq!(first, second, "{clauses:?} under {assumptions:?}");
            repeats += 1;
        }
    }
    assert!(
        repeats > 780,
        "only {repeats} of 800 instances ran both solves"
    );
}

#[test]
fn a_conflict_budget_never_gives_a_wrong_answer_and_the_next_unlimited_solve_is_right() {
    let mut rng = Rng::new(0xB0D6E7);
    let mut unknown = 0;
    let mut decided = 0;
    for (_, opts) in configs() {
        for _ in 0..150 {
            let vars = 10 + rng.below(3) as u32;
            // Near the 3-SAT threshold so some calls need more than a handful of conflicts.
            let clauses: Vec<Vec<Lit>> = (0..vars * 43 / 10)
                .map(|_| {
                    let mut c = random_clause(&mut rng, vars);
                    while c.len() < 3 {
                        c.push(lit(rng.below(vars as u64) as u32, rng.coin()));
                    }
                    c
                })
                .collect();
            let mut s = Solver::with_options(opts.clone());
            for c in &clauses {
                s.add_clause(c);
            }
            let assumptions = random_assumptions(&mut rng, vars);
            for budget in [0, 1, 2, 3] {
                let st = s.solve(&assumptions, Budget::conflicts(budget));
                match check_answer(&s, st, &clauses, &assumptions, true) {
                    Answer::Unknown => unknown += 1,
                    _ => decided += 1,
                }
            }
            let st = s.solve(&assumptions, Budget::UNLIMITED);
            check_answer(&s, st, &clauses, &assumptions, false);
        }
    }
    eprintln!("{unknown} budgeted solves Unknown, {decided} decided");
    assert!(
        unknown > 300,
        "only {unknown} budgeted solves ran out: budgets are not exercised"
    );
    assert!(decided > 300, "only {decided} budgeted solves finished");
}

// ---------------------------------------------------------------------------------------------
// Regressions: each a minimal reproducer found by the tests above.
// ---------------------------------------------------------------------------------------------

/// Found by `incremental_answers_match_a_fresh_solver_and_brute_force_at_every_step`, fixed in
/// the engine by 79ca7be. x1 ∨ x2, x1 ∨ ¬x2 under the assumptions x3, x3, x3, x3: the four
/// assumption levels (three of them empty, the literal being already true) plus the decision
/// ¬x1 reach level 5, past the num_vars + 2 = 5 LBD level stamps the engine used to keep, and
/// learning the unit x1 panicked in `compute_lbd_of_learnt` instead of answering SAT.
#[test]
fn an_assumption_repeated_four_times_gets_an_answer_not_a_panic() {
    let x = |d: i64| Lit::from_dimacs(d).expect("non-zero");
    let mut s = Solver::new();
    s.add_clause(&[x(1), x(2)]);
    s.add_clause(&[x(1), x(-2)]);
    assert_eq!(
        s.solve(&[x(3), x(3), x(3), x(3)], Budget::UNLIMITED),
        Status::Sat
    );
    assert_eq!(s.value(x(1)), Some(true));
    assert_eq!(s.value(x(3)), Some(true));
    // The same with the clauses unsatisfiable: an empty core, not a panic.
    s.add_clause(&[x(-1), x(2)]);
    s.add_clause(&[x(-1), x(-2)]);
    assert_eq!(
        s.solve(&[x(3), x(3), x(3), x(3)], Budget::UNLIMITED),
        Status::Unsat
    );
    assert!(s.failed_assumptions().is_empty());
}

// ---------------------------------------------------------------------------------------------
// (b) A proptest state machine over the whole incremental API.
// ---------------------------------------------------------------------------------------------

/// One API call. Variables are indices below `MAX_VARS`; `bool` is "negative".
#[derive(Clone, Debug)]
enum Op {
    NewVar,
    AddClause(Vec<(u32, bool)>),
    /// `x ⊕ y ⊕ z = parity` as four `add_clause` calls (for conflicts on few variables);
    /// repeated variables give smaller, still correct, constraints.
    AddXor([u32; 3], bool),
    SetPhase(u32, bool),
    ClearPhase(u32),
    Solve {
        assumptions: Vec<(u32, bool)>,
        conflict_budget: Option<u64>,
    },
    Value(u32, bool),
    /// `failed(lit)` on any literal.
    Failed(u32, bool),
    /// `failed(a)` on the `i mod len`-th assumption of the last solve (any literal if none):
    /// random literals would almost never hit a core.
    FailedAssumption(usize),
    Terminate,
    Reset,
}

fn var_index() -> impl Strategy<Value = u32> {
    0..MAX_VARS
}

fn lits(max: usize) -> impl Strategy<Value = Vec<(u32, bool)>> {
    prop::collection::vec((var_index(), any::<bool>()), 0..=max)
}

fn op() -> impl Strategy<Value = Op> {
    // Weights out of ~320: the empty clause (which makes every later solve Unsat) turns up in
    // about one sequence in ten.
    prop_oneof![
        20 => Just(Op::NewVar),
        90 => prop::collection::vec((var_index(), any::<bool>()), 2..=4).prop_map(Op::AddClause),
        8 => (var_index(), any::<bool>()).prop_map(|l| Op::AddClause(vec![l])),
        25 => ([var_index(), var_index(), var_index()], any::<bool>()).prop_map(|(v, p)| Op::AddXor(v, p)),
        1 => Just(Op::AddClause(Vec::new())),
        20 => (var_index(), any::<bool>()).prop_map(|(v, n)| Op::SetPhase(v, n)),
        10 => var_index().prop_map(Op::ClearPhase),
        60 => (lits(5), prop::option::weighted(0.3, prop_oneof![Just(0u64), 1..4u64, 4..30u64])).prop_map(|(assumptions, conflict_budget)| {
            Op::Solve { assumptions, conflict_budget }
        }),
        30 => (var_index(), any::<bool>()).prop_map(|(v, n)| Op::Value(v, n)),
        15 => (var_index(), any::<bool>()).prop_map(|(v, n)| Op::Failed(v, n)),
        20 => (0..5usize).prop_map(Op::FailedAssumption),
        4 => Just(Op::Terminate),
        15 => Just(Op::Reset),
    ]
}

fn to_lits(pairs: &[(u32, bool)]) -> Vec<Lit> {
    pairs.iter().map(|&(v, n)| lit(v, n)).collect()
}

/// The reference model of a solver's observable state.
#[derive(Default)]
struct Model {
    clauses: Vec<Vec<Lit>>,
    num_vars: usize,
    /// The answer of the last solve, until the next `add_clause` or `solve` discards it.
    last: Option<Answer>,
    /// The assumptions of the last solve.
    last_assumptions: Vec<Lit>,
    terminated: bool,
}

/// `failed(l)` must say whether `l` is in the reference core of the last answer.
fn check_failed(s: &Solver, m: &Model, l: Lit, step: usize, counts: &mut Counts) {
    let expected = matches!(&m.last, Some(Answer::Unsat(core)) if core.contains(&l));
    assert_eq!(
        s.failed(l),
        expected,
        "step {step}: failed({l:?}) after {:?}",
        m.last
    );
    counts.failed_true += expected as u64;
}

/// Runs `ops` on a solver with `opts`, checking every call against the reference model.
/// Panics (with the values) at the first disagreement.
fn run_ops(opts: &Options, ops: &[Op], counts: &mut Counts) {
    let mut s = Solver::with_options(opts.clone());
    let t = s.terminator();
    let mut m = Model::default();
    for (step, op) in ops.iter().enumerate() {
        match op {
            Op::NewVar => {
                // Keep brute force small: past MAX_VARS variables the call is skipped.
                if m.num_vars < MAX_VARS as usize {
                    let v = s.new_var();
                    assert_eq!(v.index(), m.num_vars, "step {step}: new_var numbering");
                    m.num_vars += 1;
                }
            }
            Op::AddClause(pairs) => {
                let c = to_lits(pairs);
                s.add_clause(&c);
                m.num_vars = m.num_vars.max(vars_of(&[], &c) as usize);
                m.clauses.push(c);
                m.last = None;
            }
            Op::AddXor(vs, parity) => {
                for signs in (0..8u32).filter(|signs| (signs.count_ones() % 2 == 1) == *parity) {
                    let c: Vec<Lit> = vs
                        .iter()
                        .enumerate()
                        .map(|(i, &v)| lit(v, signs >> i & 1 == 1))
                        .collect();
                    s.add_clause(&c);
                    m.num_vars = m.num_vars.max(vars_of(&[], &c) as usize);
                    m.clauses.push(c);
                }
                m.last = None;
            }
            Op::SetPhase(v, n) => {
                s.set_phase(lit(*v, *n));
                m.num_vars = m.num_vars.max(*v as usize + 1);
            }
            Op::ClearPhase(v) => s.clear_phase(Var::new(*v).expect("small")),
            Op::Solve {
                assumptions,
                conflict_budget,
            } => {
                let a = to_lits(assumptions);
                let budget = conflict_budget.map_or(Budget::UNLIMITED, Budget::conflicts);
                let st = s.solve(&a, budget);
                m.num_vars = m.num_vars.max(vars_of(&[], &a) as usize);
                let may_be_unknown = conflict_budget.is_some() || m.terminated;
                let answer = check_answer(&s, st, &m.clauses, &a, may_be_unknown);
                match &answer {
                    Answer::Sat(_) => counts.sat += 1,
                    Answer::Unsat(core) if core.is_empty() => counts.unsat_empty_core += 1,
                    Answer::Unsat(_) => counts.unsat_with_core += 1,
                    Answer::Unknown if m.terminated => counts.unknown_terminated += 1,
                    Answer::Unknown => counts.unknown_budget += 1,
                }
                m.last = Some(answer);
                m.last_assumptions = a;
            }
            Op::Value(v, n) => {
                let l = lit(*v, *n);
                let expected = match &m.last {
                    Some(Answer::Sat(model)) => model.get(*v as usize).map(|&b| b != *n),
                    _ => None,
                };
                assert_eq!(
                    s.value(l),
                    expected,
                    "step {step}: value({l:?}) after {:?}",
                    m.last
                );
                counts.values_some += expected.is_some() as u64;
            }
            Op::Failed(v, n) => check_failed(&s, &m, lit(*v, *n), step, counts),
            Op::FailedAssumption(i) => {
                let l = match m.last_assumptions.get(i % m.last_assumptions.len().max(1)) {
                    Some(&l) => l,
                    None => lit(0, false),
                };
                check_failed(&s, &m, l, step, counts);
            }
            Op::Terminate => {
                t.terminate();
                m.terminated = true;
            }
            Op::Reset => {
                t.reset();
                m.terminated = false;
            }
        }
        assert_eq!(
            s.num_vars(),
            m.num_vars,
            "step {step}: num_vars after {op:?}"
        );
        let expect_model_len = match &m.last {
            Some(Answer::Sat(model)) if model.len() == m.num_vars => Some(model.clone()),
            _ => None,
        };
        assert_eq!(
            s.model(),
            expect_model_len,
            "step {step}: model() after {op:?}"
        );
    }
    counts.conflicts += s.stats().conflicts;
}

/// What the state machine exercised, summed over the cases (shrinking runs included).
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    sat: u64,
    unsat_with_core: u64,
    unsat_empty_core: u64,
    unknown_budget: u64,
    unknown_terminated: u64,
    values_some: u64,
    failed_true: u64,
    conflicts: u64,
}

fn options_choice() -> impl Strategy<Value = (usize, u64)> {
    (0..4usize, prop_oneof![Just(0u64), 1..1000u64])
}

fn build_options((which, seed): (usize, u64)) -> Options {
    let (_, mut o) = configs().swap_remove(which);
    o.seed = seed;
    o
}

/// 256 cases (about a second at the test profile's opt-level 2); `PROPTEST_CASES=N` asks for
/// more when hunting.
fn proptest_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256)
}

/// The state machine, driven by proptest's runner by hand (not the `proptest!` macro) so the
/// test can assert afterwards that the interesting cases happened. A failure is shrunk and
/// reported with the minimal sequence of calls.
#[test]
fn random_api_call_sequences_agree_with_the_reference_model_and_brute_force() {
    use proptest::test_runner::{Config, RngSeed, TestRunner};
    let mut config = Config {
        cases: proptest_cases(),
        failure_persistence: None,
        ..Config::default()
    };
    // A fixed seed unless `PROPTEST_RNG_SEED` asks for another: the coverage assertions below
    // count rare events (a `failed()` call naming a core literal: 14–17 per 256 cases over
    // seeds 1–6), and a random seed once drew 10 and failed CI with no bug behind it.
    // Exploring other seeds stays one variable away.
    if matches!(config.rng_seed, RngSeed::Random) {
        config.rng_seed = RngSeed::Fixed(1);
    }
    let cases = config.cases as u64;
    let mut runner = TestRunner::new(config);
    let counts = std::cell::Cell::new(Counts::default());
    let strategy = (options_choice(), prop::collection::vec(op(), 1..80));
    let result = runner.run(&strategy, |(choice, ops)| {
        let mut c = counts.get();
        run_ops(&build_options(choice), &ops, &mut c);
        counts.set(c);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let c = counts.get();
    eprintln!("{cases} cases: {c:?}");
    // Each interesting outcome must happen often enough (per 256 cases) to mean something.
    let per_case = |n: u64| n * cases / 256;
    for (what, got, at_least) in [
        ("SAT answers", c.sat, 400),
        ("UNSAT answers with a core", c.unsat_with_core, 150),
        (
            "UNSAT answers from the clauses alone",
            c.unsat_empty_core,
            20,
        ),
        ("budgeted Unknown answers", c.unknown_budget, 10),
        ("terminated Unknown answers", c.unknown_terminated, 20),
        ("value() calls that had a model to read", c.values_some, 60),
        ("conflicts", c.conflicts, 50),
        (
            "failed() calls that named a core literal",
            c.failed_true,
            10,
        ),
    ] {
        assert!(got > per_case(at_least), "only {got} {what}: {c:?}");
    }
}
