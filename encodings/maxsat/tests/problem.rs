//! The Problem API: degenerate cases, every constraint kind against exhaustive enumeration
//! (both ways, hard and soft), and `solve` against brute force on seeded random problems;
//! a streaming problem hands out the hard clauses a kept one would hold, in order.

use grim_maxsat::problem::{
    Constraint, Effort, HardClauseSink, HardStream, Outcome, Problem, Solution, SolveError,
};
use grim_maxsat::{Lit, MaxSatStatus, Oll, OllOptions, Var, Wcnf};
use grim_solver::{Budget, Solver, Status};
use grim_testkit::SplitMix64 as Rng;

/// The proven optimum of `p` with no budget (panics, naming the outcome, on anything else).
fn optimum(p: &Problem) -> Solution {
    match p.solve(Budget::UNLIMITED) {
        Ok(Outcome::Optimum(s)) => s,
        other => panic!("expected an optimum, got {other:?}"),
    }
}

/// The assignment (over all of `p`'s variables) giving `vars` the bits of `mask`, variable 0
/// true and everything else false.
fn assignment(p: &Problem, vars: &[Var], mask: u32) -> Vec<bool> {
    let mut a = vec![false; p.num_vars()];
    a[0] = true;
    for (i, v) in vars.iter().enumerate() {
        a[v.index()] = mask >> i & 1 == 1;
    }
    a
}

/// The least cost of `wcnf` with `vars` fixed to the bits of `mask` (`None`: hard clauses
/// unsatisfiable), by OLL on a copy with the values as hard units.
fn optimum_with(wcnf: &Wcnf, vars: &[Var], mask: u32) -> Option<u64> {
    let mut w = wcnf.clone();
    for (i, v) in vars.iter().enumerate() {
        w.hard.push(vec![v.lit(mask >> i & 1 == 1)]);
    }
    let mut oll = Oll::new(&w, OllOptions::default()).ok()?;
    match oll.solve(Budget::UNLIMITED, &mut |_| {}) {
        MaxSatStatus::Optimum => oll.best_cost(),
        MaxSatStatus::Unsatisfiable => None,
        other => panic!("unexpected {other:?}"),
    }
}

/// Whether the hard clauses of `wcnf` are satisfiable with `assumptions`.
fn hard_sat(wcnf: &Wcnf, assumptions: &[Lit]) -> bool {
    let mut s = Solver::new();
    for c in &wcnf.hard {
        s.add_clause(c);
    }
    match s.solve(assumptions, Budget::UNLIMITED) {
        Status::Sat => {
            let m = s.model().unwrap_or_default();
            assert!(wcnf.cost(&m).is_some(), "solver model breaks a hard clause");
            true
        }
        Status::Unsat => false,
        Status::Unknown => panic!("unlimited budget answered Unknown"),
    }
}

/// Asserts that `w`, the encoding of `p`, states one constraint that `holds` under the
/// [`assignment`] of `mask`: hard (`weight` `None`), the hard clauses with `vars` fixed are
/// satisfiable exactly when it holds and `check` agrees; soft, the optimum with `vars` fixed
/// is 0 when it holds and the weight when not, `unmet` agrees, and `check` accepts the
/// assignment either way. `what` names the case.
fn assert_encodes(
    p: &Problem,
    w: &Wcnf,
    vars: &[Var],
    mask: u32,
    holds: bool,
    weight: Option<u64>,
    what: &str,
) {
    let a = &assignment(p, vars, mask);
    match weight {
        None => {
            let fixed: Vec<Lit> = vars
                .iter()
                .enumerate()
                .map(|(i, v)| v.lit(mask >> i & 1 == 1))
                .collect();
            assert_eq!(hard_sat(w, &fixed), holds, "hard {what}");
            assert_eq!(p.check(a).is_ok(), holds, "hard {what}");
        }
        Some(c) => {
            let want = if holds { 0 } else { c };
            assert_eq!(optimum_with(w, vars, mask), Some(want), "soft {what}");
            assert_eq!(p.unmet(a), want, "soft {what}");
            assert!(p.check(a).is_ok(), "soft {what}");
        }
    }
}

// --- degenerate cases ------------------------------------------------------------------------

#[test]
fn an_empty_problem_is_solved_at_cost_zero_with_variable_zero_true() {
    let p = Problem::new();
    let s = optimum(&p);
    assert_eq!(s.cost(), 0);
    assert!(s.value(p.always_true()));
    assert!(!s.value(p.always_false()));
    assert!(s.unmet_wishes().is_empty());
    assert_eq!(p.constraints().len(), 1, "variable 0's unit only");
    assert_eq!(p.to_wcnf().hard, vec![vec![p.always_true()]]);
}

#[test]
fn the_empty_hard_clause_makes_the_rules_unsatisfiable() {
    let mut p = Problem::new();
    p.add_clause(&[], None);
    assert_eq!(p.solve(Budget::UNLIMITED), Ok(Outcome::Unsatisfiable));
    let mut p = Problem::new();
    p.add_clause(&[p.always_false()], None);
    assert_eq!(p.solve(Budget::UNLIMITED), Ok(Outcome::Unsatisfiable));
}

#[test]
fn the_empty_soft_clause_always_costs_its_weight() {
    let mut p = Problem::new();
    let x = p.new_var().pos();
    p.add_clause(&[x], Some(2));
    p.add_clause(&[], Some(7));
    let s = optimum(&p);
    assert_eq!(s.cost(), 7);
    assert_eq!(s.unmet_wishes(), &[2]);
    assert!(s.value(x));
}

#[test]
fn tautologies_are_dropped_and_constants_fold() {
    let mut p = Problem::new();
    let x = p.new_var().pos();
    let y = p.new_var().pos();
    let before = (p.to_wcnf(), p.constraints().len());
    p.add_clause(&[x, y, !x], None);
    p.add_clause(&[x, p.always_true()], Some(3));
    p.implies_any(x, &[y, x], None);
    p.implies_any(p.always_false(), &[y], None);
    assert_eq!(
        (p.to_wcnf(), p.constraints().len()),
        before,
        "nothing emitted, nothing recorded"
    );
    p.add_clause(&[x, x, p.always_false()], None);
    assert_eq!(
        p.to_wcnf().hard.last(),
        Some(&vec![x]),
        "duplicates merged, ⊥ dropped"
    );
}

#[test]
fn vacuous_counts_emit_nothing_and_impossible_ones_cost_or_fail() {
    let mut p = Problem::new();
    let xs: Vec<Lit> = (0..4).map(|_| p.new_var().pos()).collect();
    let before = (p.to_wcnf(), p.constraints().len());
    p.count(&xs, 0, 4, None);
    p.count(&xs, 0, 99, Some(5));
    p.count(&[], 0, 0, None);
    assert_eq!((p.to_wcnf(), p.constraints().len()), before);

    let mut soft = p.clone();
    soft.count(&xs, 5, 9, Some(4));
    soft.count(&xs, 3, 2, Some(6));
    assert_eq!(
        soft.to_wcnf().num_vars,
        p.to_wcnf().num_vars,
        "no variables for impossible counts"
    );
    let s = optimum(&soft);
    assert_eq!(s.cost(), 10);
    assert_eq!(s.unmet_wishes().len(), 2);

    let mut hard = p.clone();
    hard.count(&xs, 2, 1, None);
    assert_eq!(hard.solve(Budget::UNLIMITED), Ok(Outcome::Unsatisfiable));
    let mut hard = p;
    hard.count(&[], 1, 1, None);
    assert_eq!(hard.solve(Budget::UNLIMITED), Ok(Outcome::Unsatisfiable));
}

#[test]
fn conjunctions_fold_their_degenerate_cases() {
    let mut p = Problem::new();
    let x = p.new_var().pos();
    let y = p.new_var().pos();
    let n = p.num_vars();
    assert_eq!(p.conj(&[]), p.always_true());
    assert_eq!(p.conj(&[x]), x);
    assert_eq!(p.conj(&[x, x, p.always_true()]), x);
    assert_eq!(p.conj(&[x, y, !x]), p.always_false());
    assert_eq!(p.conj(&[y, p.always_false()]), p.always_false());
    assert_eq!(p.num_vars(), n, "no variable for a folded conjunction");
    let z = p.conj(&[x, y]);
    assert_eq!(p.num_vars(), n + 1);
    assert!(matches!(p.constraints().last(), Some(Constraint::Conj { out, .. }) if *out == z));
}

#[test]
fn weights_that_overflow_are_an_error_not_a_wrap() {
    let mut p = Problem::new();
    let x = p.new_var().pos();
    p.add_clause(&[x], Some(u64::MAX));
    p.add_clause(&[!x], Some(1));
    assert_eq!(p.solve(Budget::UNLIMITED), Err(SolveError::WeightOverflow));
    assert_eq!(p.unmet(&[true, true]), 1);
}

#[test]
fn a_budget_that_runs_out_says_so_and_is_not_unsatisfiability() {
    // Pigeons 8 into holes 7: unsatisfiable, but not within one conflict.
    let mut p = Problem::new();
    let holes = 7;
    let x: Vec<Vec<Lit>> = (0..holes + 1)
        .map(|_| (0..holes).map(|_| p.new_var().pos()).collect())
        .collect();
    for row in &x {
        p.add_clause(row, None);
    }
    for h in 0..holes {
        let col: Vec<Lit> = x.iter().map(|row| row[h]).collect();
        p.count(&col, 0, 1, None);
    }
    match p.solve(Budget::conflicts(1)) {
        Ok(Outcome::Stopped {
            best: None,
            lower_bound: 0,
        }) => {}
        other => panic!("expected a stop without a solution, got {other:?}"),
    }
    assert_eq!(p.solve(Budget::UNLIMITED), Ok(Outcome::Unsatisfiable));
}

#[test]
fn phase_hints_choose_among_equally_good_solutions() {
    for seed in 0..8u32 {
        let mut p = Problem::new();
        let xs: Vec<Var> = (0..6).map(|_| p.new_var()).collect();
        let lits: Vec<Lit> = xs.iter().map(|v| v.pos()).collect();
        p.count(&lits, 1, 1, None);
        let pick = (seed % 6) as usize;
        p.prefer(xs[(pick + 1) % 6], true);
        p.prefer(xs[(pick + 1) % 6], false); // a later hint replaces the earlier one
        p.prefer(xs[pick], true);
        assert!(p.phases().contains(&xs[pick].pos()));
        assert!(p.phases().contains(&xs[(pick + 1) % 6].neg()));
        let s = optimum(&p);
        assert!(
            s.value(xs[pick].pos()),
            "seed {seed}: the preferred cell is chosen"
        );
    }
}

// --- exhaustive enumeration ------------------------------------------------------------------

/// Literal lists over `vars` (and the constants) exercising multiplicity and complements.
fn literal_lists(p: &Problem, vars: &[Var]) -> Vec<Vec<Lit>> {
    let l = |i: usize, pos: bool| vars[i].lit(pos);
    let mut lists = vec![
        vec![],
        vec![l(0, true)],
        vars.iter().map(|v| v.pos()).collect(),
        vec![l(0, true), l(1, false), l(2, true), l(3, false)],
        vec![l(0, true), l(0, true), l(1, true)],
        vec![l(0, true), l(0, false), l(1, true), l(2, true)],
        vec![l(0, true), p.always_true(), l(1, true)],
        vec![p.always_false(), l(1, true), l(2, false), l(3, true)],
    ];
    lists.push(
        vars.iter()
            .map(|v| v.neg())
            .chain(vars.iter().map(|v| v.pos()))
            .take(6)
            .collect(),
    );
    lists
}

#[test]
fn counts_hold_both_ways_hard_and_cost_their_weight_soft() {
    let mut cases = 0;
    for weight in [None, Some(3)] {
        for lits_index in 0..9 {
            for lo in 0..=7usize {
                for hi in 0..=7usize {
                    let mut p = Problem::new();
                    let vars: Vec<Var> = (0..4).map(|_| p.new_var()).collect();
                    let lits = literal_lists(&p, &vars)[lits_index].clone();
                    p.count(&lits, lo, hi, weight);
                    let stated = Constraint::Count {
                        lits: lits.clone(),
                        lo,
                        hi,
                        weight,
                    };
                    let w = p.to_wcnf();
                    for mask in 0..16u32 {
                        let a = assignment(&p, &vars, mask);
                        let holds = stated.holds(&a);
                        let what = format!("count {lits:?} in [{lo}, {hi}], mask {mask:04b}");
                        assert_encodes(&p, &w, &vars, mask, holds, weight, &what);
                    }
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 2 * 9 * 64);
}

#[test]
fn conj_defines_its_output_both_ways() {
    let mut p0 = Problem::new();
    let vars: Vec<Var> = (0..4).map(|_| p0.new_var()).collect();
    for lits in literal_lists(&p0, &vars) {
        let mut p = p0.clone();
        let y = p.conj(&lits);
        let w = p.to_wcnf();
        for mask in 0..16u32 {
            let a = assignment(&p, &vars, mask);
            let value = |l: Lit| a[l.var().index()] == l.is_positive();
            let want = lits.iter().all(|&l| value(l));
            let mut fixed: Vec<Lit> = vars
                .iter()
                .enumerate()
                .map(|(i, v)| v.lit(mask >> i & 1 == 1))
                .collect();
            fixed.push(if want { y } else { !y });
            assert!(
                hard_sat(&w, &fixed),
                "conj {lits:?} mask {mask:04b}: y = {want} must extend"
            );
            if let Some(last) = fixed.last_mut() {
                *last = !*last;
            }
            assert!(
                !hard_sat(&w, &fixed),
                "conj {lits:?} mask {mask:04b}: y = {} must not",
                !want
            );
            // The referee agrees when y carries its defined value.
            let mut a = a.clone();
            if y.var().index() != 0 {
                a[y.var().index()] = want == y.is_positive();
            }
            assert!(p.check(&a).is_ok(), "conj {lits:?} mask {mask:04b}");
        }
    }
}

#[test]
fn implies_any_holds_both_ways_hard_and_costs_its_weight_soft() {
    let mut p0 = Problem::new();
    let vars: Vec<Var> = (0..4).map(|_| p0.new_var()).collect();
    for weight in [None, Some(4)] {
        for ms in literal_lists(&p0, &vars) {
            for premise in [
                vars[0].pos(),
                vars[3].neg(),
                p0.always_true(),
                p0.always_false(),
            ] {
                let mut p = p0.clone();
                p.implies_any(premise, &ms, weight);
                let w = p.to_wcnf();
                for mask in 0..16u32 {
                    let a = assignment(&p, &vars, mask);
                    let value = |l: Lit| a[l.var().index()] == l.is_positive();
                    let holds = !value(premise) || ms.iter().any(|&m| value(m));
                    let what = format!("{premise:?} → {ms:?}, mask {mask:04b}");
                    assert_encodes(&p, &w, &vars, mask, holds, weight, &what);
                }
            }
        }
    }
}

// --- solve against brute force ---------------------------------------------------------------

/// A random problem over `n` variables; returns it with the variables and the conjunction
/// outputs in creation order (each defined over earlier literals).
/// A conjunction output and its conjuncts.
type Conj = (Lit, Vec<Lit>);

fn random_problem(rng: &mut Rng, n: usize) -> (Problem, Vec<Var>, Vec<Conj>) {
    let mut p = Problem::new();
    let vars: Vec<Var> = (0..n).map(|_| p.new_var()).collect();
    let mut pool: Vec<Lit> = vars.iter().map(|v| v.pos()).collect();
    let mut conjs = Vec::new();
    let pick = |rng: &mut Rng, pool: &[Lit]| {
        let l = pool[rng.index(pool.len())];
        if rng.percent(50) { l } else { !l }
    };
    let constraints = 2 + rng.index(8);
    for _ in 0..constraints {
        let weight = if rng.percent(55) {
            Some(rng.index(10) as u64)
        } else {
            None
        };
        match rng.index(10) {
            0..=2 => {
                let len = rng.index(4);
                let c: Vec<Lit> = (0..len).map(|_| pick(rng, &pool)).collect();
                p.add_clause(&c, weight);
            }
            3..=6 => {
                let len = rng.index(n + 2);
                let lits: Vec<Lit> = (0..len).map(|_| pick(rng, &pool)).collect();
                let lo = rng.index(len + 2);
                let hi = lo.saturating_sub(1) + rng.index(len + 2 - lo.min(len + 1));
                p.count(&lits, lo, hi, weight);
            }
            7 => {
                let len = 1 + rng.index(3);
                let lits: Vec<Lit> = (0..len).map(|_| pick(rng, &pool)).collect();
                let y = p.conj(&lits);
                conjs.push((y, lits));
                pool.push(y);
            }
            _ => {
                let l = pick(rng, &pool);
                let len = rng.index(3);
                let ms: Vec<Lit> = (0..len).map(|_| pick(rng, &pool)).collect();
                p.implies_any(l, &ms, weight);
            }
        }
    }
    (p, vars, conjs)
}

/// The optimum by enumeration over the variables (conjunction outputs computed from them),
/// judged by the referee: `None` when no assignment satisfies the hard constraints.
fn brute_force(p: &Problem, vars: &[Var], conjs: &[Conj]) -> Option<u64> {
    let mut best: Option<u64> = None;
    for mask in 0..1u32 << vars.len() {
        let mut a = assignment(p, vars, mask);
        for (y, lits) in conjs {
            let v = lits.iter().all(|&l| a[l.var().index()] == l.is_positive());
            if y.var().index() != 0 {
                a[y.var().index()] = v == y.is_positive();
            }
        }
        if p.check(&a).is_ok() {
            let c = p.unmet(&a);
            best = Some(best.map_or(c, |b| b.min(c)));
        }
    }
    best
}

#[test]
fn solve_finds_the_brute_force_optimum_on_600_random_problems() {
    let mut rng = Rng::new(2024);
    let (mut infeasible, mut costly, mut free) = (0, 0, 0);
    for round in 0..600 {
        let n = 3 + rng.index(6);
        let (p, vars, conjs) = random_problem(&mut rng, n);
        let expected = brute_force(&p, &vars, &conjs);
        match (p.solve(Budget::UNLIMITED), expected) {
            (Ok(Outcome::Optimum(s)), Some(cost)) => {
                assert_eq!(s.cost(), cost, "round {round}: {:?}", p.constraints());
                assert!(p.check(s.model()).is_ok());
                assert_eq!(p.check_clauses(s.model()), Ok(()));
                assert_eq!(p.unmet(s.model()), cost);
                assert_eq!(
                    p.to_wcnf().cost(s.model()),
                    Some(cost),
                    "round {round}: the WCNF prices it the same"
                );
                if cost > 0 {
                    assert!(!s.unmet_wishes().is_empty());
                    costly += 1;
                } else {
                    free += 1;
                }
            }
            (Ok(Outcome::Unsatisfiable), None) => infeasible += 1,
            (got, want) => panic!(
                "round {round}: solve gave {got:?}, brute force {want:?}; {:?}",
                p.constraints()
            ),
        }
    }
    assert!(
        infeasible > 200 && costly > 150 && free > 100,
        "{infeasible} infeasible, {costly} with unmet wishes, {free} free"
    );
}

#[test]
fn a_small_tiled_level_is_solved_deterministically_and_passes_the_referee() {
    // 8×8 cells, 3 tiles, exactly one tile per cell; tile 0 covers 20..=30 cells (hard), tile 2
    // at most 10 (hard); seeded per-cell wishes and a soft "at least 25 of tile 1".
    let (w, h, tiles) = (8usize, 8usize, 3usize);
    let mut rng = Rng::new(7);
    let mut p = Problem::new();
    let cell: Vec<Vec<Lit>> = (0..w * h)
        .map(|_| (0..tiles).map(|_| p.new_var().pos()).collect())
        .collect();
    for c in &cell {
        p.count(c, 1, 1, None);
    }
    let of = |t: usize| cell.iter().map(|c| c[t]).collect::<Vec<Lit>>();
    p.count(&of(0), 20, 30, None);
    p.count(&of(2), 0, 10, None);
    p.count(&of(1), 25, 64, Some(40));
    for c in &cell {
        let t = rng.index(tiles);
        p.add_clause(&[c[t]], Some(1 + rng.index(5) as u64));
        p.prefer(c[t].var(), true);
    }
    // Neighbours may not both be tile 2.
    for y in 0..h {
        for x in 0..w {
            if x + 1 < w {
                p.add_clause(&[!cell[y * w + x][2], !cell[y * w + x + 1][2]], None);
            }
            if y + 1 < h {
                p.add_clause(&[!cell[y * w + x][2], !cell[(y + 1) * w + x][2]], None);
            }
        }
    }
    let a = optimum(&p);
    let b = optimum(&p);
    assert_eq!(a, b, "the same problem gives the same solution");
    assert!(p.check(a.model()).is_ok());
    assert_eq!(p.unmet(a.model()), a.cost());
    assert_eq!(p.to_wcnf().cost(a.model()), Some(a.cost()));
    let zeros = of(0).iter().filter(|&&l| a.value(l)).count();
    assert!((20..=30).contains(&zeros), "tile 0 covers {zeros} cells");
}

#[test]
fn the_clause_referee_judges_the_auxiliary_variables_the_stated_one_ignores() {
    // A hard count over 6 literals builds a counter with auxiliary variables. An assignment of
    // the counted literals alone satisfies the count as stated, but with every auxiliary
    // variable false it falsifies some defining clause (the counter must record the trues).
    let mut p = Problem::new();
    let xs: Vec<Lit> = (0..6).map(|_| p.new_var().pos()).collect();
    let first_aux = p.num_vars();
    p.count(&xs, 2, 3, None);
    assert!(
        p.num_vars() > first_aux,
        "the count built auxiliary variables"
    );
    let mut a = vec![false; p.num_vars()];
    a[0] = true; // variable 0 is asserted true
    for x in &xs[..3] {
        a[x.var().index()] = true;
    }
    assert!(p.check(&a).is_ok(), "the count holds as stated");
    let falsified = p
        .check_clauses(&a)
        .expect_err("the counter's clauses notice");
    assert!(falsified < p.to_wcnf().hard.len());
    // The solver's answer passes both.
    let s = optimum(&p);
    assert_eq!(p.check_clauses(s.model()), Ok(()));
    // Breaking variable 0 (whose unit is the first hard clause) is caught.
    let mut b = s.model().to_vec();
    b[0] = false;
    assert_eq!(p.check_clauses(&b), Err(0));
}

/// `solve_within` adds each call's engine work to the caller's tally whatever the outcome,
/// and `left_of` holds a sequence of calls to one budget.
#[test]
fn solve_within_adds_up_the_work_of_every_call() {
    // The first seeded instance whose optimum takes the engine some conflicts: one solved by
    // propagation alone would say nothing about adding work up.
    let (p, once, first) = (5..40)
        .find_map(|seed| {
            let mut rng = Rng::new(seed);
            let mut p = Problem::new();
            let vars: Vec<Var> = (0..14).map(|_| p.new_var()).collect();
            for _ in 0..60 {
                let c: Vec<Lit> = (0..3)
                    .map(|_| vars[rng.index(vars.len())].lit(rng.index(2) == 0))
                    .collect();
                p.add_clause(&c, Some(1 + rng.index(4) as u64));
            }
            let mut once = Effort::default();
            let first = p.solve_within(Budget::UNLIMITED, None, &mut once).unwrap();
            (once.conflicts > 0).then_some((p, once, first))
        })
        .expect("some seed gives an instance that needs conflicts");
    assert!(matches!(first, Outcome::Optimum(_)), "{first:?}");
    assert_eq!(first, Outcome::Optimum(optimum(&p)));
    let mut tally = once;
    assert_eq!(
        p.solve_within(Budget::UNLIMITED, None, &mut tally),
        Ok(first)
    );
    assert_eq!(tally.conflicts, 2 * once.conflicts);
    assert_eq!(tally.propagations, 2 * once.propagations);
    // What is left of a budget the first call used up is nothing: the next call stops at once,
    // and says so, with the lower bound it had before searching.
    let budget = Budget::conflicts(once.conflicts);
    assert_eq!(once.left_of(budget), Budget::conflicts(0));
    let mut tally = once;
    assert!(matches!(
        p.solve_within(once.left_of(budget), None, &mut tally),
        Ok(Outcome::Stopped { best: None, .. })
    ));
    assert_eq!(tally.conflicts, once.conflicts);
    let unlimited_props = Budget {
        conflicts: Some(3 * once.conflicts),
        propagations: None,
    };
    assert_eq!(
        once.left_of(unlimited_props),
        Budget {
            conflicts: Some(2 * once.conflicts),
            propagations: None
        }
    );
}

/// Collects what a streaming problem hands out.
struct Collected(Vec<Vec<Lit>>);

impl HardClauseSink for Collected {
    fn clause(&mut self, lits: &[Lit]) {
        self.0.push(lits.to_vec());
    }
}

/// The same constraints into `p`: every kind, hard and soft, with tautologies, constants and
/// the empty clause.
fn fill(p: &mut Problem, rng: &mut Rng) {
    let x: Vec<Lit> = (0..12).map(|_| p.new_var().pos()).collect();
    let t = p.always_true();
    p.add_clause(&[x[0], !x[1], x[0]], None);
    p.add_clause(&[x[2], !x[2]], None);
    p.add_clause(&[x[3], !t], None);
    p.add_clause(&[!x[4]], Some(3));
    let y = p.conj(&[x[5], x[6], !x[7]]);
    p.implies_any(y, &[x[8], x[9]], None);
    p.implies_any(x[1], &[x[2]], Some(2));
    for _ in 0..20 {
        let lo = rng.index(4);
        let hi = lo + rng.index(6);
        let from = rng.index(4);
        let weight = rng.percent(30).then(|| 1 + rng.index(5) as u64);
        p.count(&x[from..], lo, hi, weight);
    }
    p.count(&x[..3], 2, 1, None);
    p.add_clause(&[], None);
    p.prefer(x[0].var(), true);
}

#[test]
fn a_streaming_problem_hands_out_the_hard_clauses_a_kept_one_holds_in_order() {
    for seed in 0..10 {
        let mut kept = Problem::new();
        fill(&mut kept, &mut Rng::new(seed));
        let sink = std::sync::Arc::new(std::sync::Mutex::new(Collected(Vec::new())));
        let mut streamed = Problem::streaming(HardStream(sink.clone()));
        fill(&mut streamed, &mut Rng::new(seed));
        let w = kept.to_wcnf();
        let out = sink.lock().unwrap();
        assert_eq!(out.0, w.hard, "seed {seed}: the hard clauses");
        assert!(
            w.hard.len() > 20,
            "seed {seed}: only {} clauses",
            w.hard.len()
        );
        assert_eq!(streamed.hard_len(), kept.hard_len(), "seed {seed}");
        assert_eq!(streamed.num_vars(), kept.num_vars(), "seed {seed}");
        assert_eq!(
            streamed.as_wcnf().soft,
            w.soft,
            "seed {seed}: the soft clauses"
        );
        assert!(
            streamed.as_wcnf().hard.is_empty(),
            "seed {seed}: hard clauses kept"
        );
        assert_eq!(streamed.phases(), kept.phases());
        assert!(streamed.is_streaming() && !kept.is_streaming());
        // Nothing to solve or judge: an error, not a wrong answer.
        assert!(streamed.constraints().is_empty());
        assert_eq!(streamed.solve(Budget::UNLIMITED), Err(SolveError::Streamed));
    }
}
