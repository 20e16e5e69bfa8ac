//! The engine against brute force on small random CNFs: status, model, and failed core.
//! Every instance runs under the default options and under `Options::aggressive()` (restart,
//! reduce, rephase and mode switches every few conflicts) so those paths fire on tiny inputs.

use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
use grim_testkit::generate::{self, random_cnf};
use grim_testkit::{
    Answer, SplitMix64 as Rng, assert_above, clauses_of, lit, satisfiable as brute_force,
};

fn solver_with(opts: &Options, vars: u32, clauses: &[Vec<Lit>]) -> Solver {
    let mut s = Solver::with_options(opts.clone());
    s.reserve_vars(vars as usize);
    for c in clauses {
        s.add_clause(c);
    }
    s
}

/// The testkit's referee on one answer (no budget, so never Unknown); whether it was SAT.
fn check_answer(s: &Solver, status: Status, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    matches!(
        grim_testkit::check_answer(s, status, clauses, assumptions, false),
        Answer::Sat(_)
    )
}

#[test]
fn random_small_cnfs_agree_with_brute_force_in_status_model_and_core() {
    let mut rng = Rng::new(0x5eed);
    let mut sat = 0;
    let mut unsat_with_core = 0;
    let configs = [Options::default(), Options::aggressive(), {
        let mut o = Options::aggressive();
        o.seed = 7;
        o.minimize = false;
        o
    }];
    for round in 0..1500 {
        let vars = 3 + rng.below(10) as u32; // 3..=12
        let clauses = random_cnf(
            &mut rng,
            vars,
            (vars as usize) * (2 + round % 3),
            3 + round as u64 % 2,
        );
        let n_assume = rng.below(4) as usize;
        let assumptions: Vec<Lit> = (0..n_assume)
            .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
            .collect();
        for opts in &configs {
            let mut s = solver_with(opts, vars, &clauses);
            let st = s.solve(&assumptions, Budget::UNLIMITED);
            if check_answer(&s, st, &clauses, &assumptions) {
                sat += 1;
            } else if !s.failed_assumptions().is_empty() {
                unsat_with_core += 1;
            }
            // Without assumptions too: the same solver, incrementally.
            let st = s.solve(&[], Budget::UNLIMITED);
            check_answer(&s, st, &clauses, &[]);
        }
    }
    eprintln!("{sat} SAT answers, {unsat_with_core} UNSAT with a non-empty core");
    assert!(sat > 1200, "only {sat} SAT answers: the generator drifted");
    assert!(
        unsat_with_core > 600,
        "only {unsat_with_core} non-empty cores: assumptions rarely mattered"
    );
}

/// Pigeonhole `p` into `h` (variable `i·h + j`: pigeon `i` in hole `j`): every pigeon in
/// some hole, no two in one. Unsatisfiable for `p > h`, and hard for resolution, so small
/// instances already need hundreds of conflicts.
fn pigeonhole(p: u32, h: u32) -> Vec<Vec<Lit>> {
    clauses_of(&generate::pigeonhole(p, h))
}

#[test]
fn aggressive_schedule_fires_restarts_reductions_rephases_and_mode_switches() {
    // Pigeonhole 7 into 6: small, UNSAT, and needs hundreds of conflicts.
    let mut s = solver_with(&Options::aggressive(), 7 * 6, &pigeonhole(7, 6));
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
    let st = s.stats().clone();
    assert_above!(st => restarts > 10, reductions > 10, rephases > 10, mode_switches > 10,
        deleted > 0, walks > 0, boosted_walks > 0, random_sequences > 10, random_decisions > 10, retiered > 0);
}

#[test]
fn a_conflict_budget_answers_unknown_and_the_solver_continues_afterwards() {
    let mut s = solver_with(&Options::default(), 8 * 7, &pigeonhole(8, 7));
    assert_eq!(s.solve(&[], Budget::conflicts(10)), Status::Unknown);
    assert!(s.model().is_none());
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
}

#[test]
fn the_same_input_gives_the_same_model_every_run() {
    let mut rng = Rng::new(42);
    let clauses = random_cnf(&mut rng, 60, 230, 3);
    let models: Vec<_> = (0..3)
        .map(|_| {
            let mut s = solver_with(&Options::default(), 60, &clauses);
            (
                s.solve(&[], Budget::UNLIMITED),
                s.model(),
                s.stats().conflicts,
            )
        })
        .collect();
    assert_eq!(models[0], models[1]);
    assert_eq!(models[1], models[2]);
}

#[test]
fn the_empty_clause_makes_every_solve_unsat_with_an_empty_core() {
    let mut s = Solver::new();
    let a = s.new_var();
    s.add_clause(&[]);
    assert_eq!(s.solve(&[a.pos()], Budget::UNLIMITED), Status::Unsat);
    assert!(s.failed_assumptions().is_empty());
}

#[test]
fn an_empty_instance_is_sat() {
    let mut s = Solver::new();
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    assert_eq!(s.model(), Some(vec![]));
}

#[test]
fn user_phases_are_honoured_when_the_clauses_allow() {
    let mut s = Solver::new();
    let vs: Vec<Var> = (0..20).map(|_| s.new_var()).collect();
    // x0 ∨ x1 ∨ … : any phase choice of the first 19 works.
    s.add_clause(&vs.iter().map(|v| v.pos()).collect::<Vec<_>>());
    for (i, v) in vs.iter().enumerate() {
        s.set_phase(if i % 3 == 0 { v.pos() } else { v.neg() });
    }
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    for (i, v) in vs.iter().enumerate() {
        assert_eq!(s.value(v.pos()), Some(i % 3 == 0), "variable {i}");
    }
    s.clear_phase(vs[1]);
    s.set_phase(vs[0].neg());
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    assert_eq!(s.value(vs[0].pos()), Some(false));
}

#[test]
fn seeded_phases_start_the_search_and_yield_to_the_clauses_and_user_phases() {
    // Elimination off: every variable is decided, none reconstructed.
    let mut s = Solver::with_options(Options {
        eliminate: false,
        ..Options::default()
    });
    let vs: Vec<Var> = (0..12).map(|_| s.new_var()).collect();
    // x0 ∨ x1, and ¬x2: the seed below wants x0 = x1 = false and x2 = true.
    s.add_clause(&[vs[0].pos(), vs[1].pos()]);
    s.add_clause(&[vs[2].neg()]);
    let seed: Vec<bool> = (0..12).map(|i| i % 2 == 0 && i != 0).collect();
    // Extra values (past the 12 variables) are ignored.
    let mut long = seed.clone();
    long.extend([true, true]);
    s.seed_phases(&long);
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    let model = s.model().expect("a model");
    assert_eq!(model.len(), 12);
    assert!(model[0] || model[1], "the clause x0 ∨ x1 holds");
    assert!(!model[2], "the unit ¬x2 beats the seed");
    for i in 3..12 {
        assert_eq!(model[i], seed[i], "free variable {i} follows the seed");
    }
    // A user phase wins over a seed.
    s.seed_phases(&[false; 12]);
    s.set_phase(vs[5].pos());
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    assert_eq!(s.value(vs[5].pos()), Some(true));
    assert_eq!(s.value(vs[7].pos()), Some(false));
}

#[test]
fn terminate_before_solve_answers_unknown_until_reset() {
    let mut s = Solver::new();
    let a = s.new_var();
    s.add_clause(&[a.pos()]);
    let t = s.terminator();
    t.terminate();
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unknown);
    t.reset();
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
}

#[test]
fn one_terminator_set_on_two_solvers_stops_both_and_not_their_own_handles() {
    let stop = Terminator::default();
    let mut solvers: Vec<Solver> = (0..2).map(|_| Solver::new()).collect();
    for s in &mut solvers {
        let a = s.new_var();
        s.add_clause(&[a.pos()]);
        s.set_terminator(&stop);
    }
    stop.terminate();
    for s in &mut solvers {
        assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unknown);
        // The handle a solver gives out is the shared one now.
        assert!(s.terminator().is_set());
    }
    stop.reset();
    for s in &mut solvers {
        assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    }
    // A solver without the shared handle is not stopped by it.
    let mut own = Solver::new();
    let b = own.new_var();
    own.add_clause(&[b.neg()]);
    stop.terminate();
    assert_eq!(own.solve(&[], Budget::UNLIMITED), Status::Sat);
}

#[test]
fn a_clause_over_an_eliminated_variable_restores_the_eliminated_clauses() {
    // x2 occurs in two clauses only: elimination removes it before the first solve (lucky
    // off: its all-false descent would answer before elimination runs).
    let x = |d: i64| Lit::from_dimacs(d).unwrap();
    let mut s = Solver::with_options(Options {
        lucky: false,
        ..Options::default()
    });
    s.add_clause(&[x(1), x(2)]);
    s.add_clause(&[x(-2), x(3)]);
    s.add_clause(&[x(-1), x(-3)]);
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    assert!(
        s.stats().eliminated > 0,
        "nothing eliminated: {:?}",
        s.stats()
    );
    // Now x2 must be false and true: with the restored clauses this is UNSAT only if the
    // original clauses are back (resolvents alone would not see x2).
    s.add_clause(&[x(2)]);
    s.add_clause(&[x(-3)]);
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
    assert!(s.stats().restored > 0);
    // And as an assumption.
    let mut t = Solver::new();
    t.add_clause(&[x(1), x(2)]);
    t.add_clause(&[x(-2), x(3)]);
    t.add_clause(&[x(-1), x(-3)]);
    assert_eq!(t.solve(&[], Budget::UNLIMITED), Status::Sat);
    assert_eq!(t.solve(&[x(2), x(-3)], Budget::UNLIMITED), Status::Unsat);
    assert_eq!(t.solve(&[x(2)], Budget::UNLIMITED), Status::Sat);
    assert_eq!(t.value(x(3)), Some(true));
}

#[test]
fn a_conflict_budget_stops_after_exactly_that_many_conflicts() {
    // Without factoring a pigeonhole is exponential for resolution, so PHP(10, 9) outlasts
    // every budget below (with it, factoring and shrinking refute PHP(9, 8) in about 2,000
    // conflicts, and the budgets would no longer be reached).
    let opts = Options {
        factor: false,
        ..Options::default()
    };
    let mut s = solver_with(&opts, 10 * 9, &pigeonhole(10, 9));
    for budget in [1u64, 2, 17, 500, 2000] {
        let before = s.stats().conflicts;
        assert_eq!(s.solve(&[], Budget::conflicts(budget)), Status::Unknown);
        assert_eq!(s.stats().conflicts - before, budget, "budget {budget}");
    }
}

/// Unit propagation of `lits` (in order) over `clauses`, the reference for `probe`: whether a
/// conflict is reached. A literal already false is a conflict too.
fn up_conflicts(vars: u32, clauses: &[Vec<Lit>], lits: &[Lit]) -> bool {
    let value = |val: &[Option<bool>], l: Lit| val[l.var().index()].map(|b| b != l.is_negative());
    // Propagates to a fixpoint; whether some clause is falsified.
    let propagate = |val: &mut Vec<Option<bool>>| loop {
        let mut changed = false;
        for c in clauses {
            if c.iter().any(|&x| value(val, x) == Some(true)) {
                continue;
            }
            let mut free: Vec<Lit> = c
                .iter()
                .copied()
                .filter(|&x| value(val, x).is_none())
                .collect();
            free.sort_unstable();
            free.dedup();
            match free.as_slice() {
                [] => return true,
                [u] => {
                    val[u.var().index()] = Some(u.is_positive());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return false;
        }
    };
    let mut val: Vec<Option<bool>> = vec![None; vars as usize];
    if propagate(&mut val) {
        return true;
    }
    for &l in lits {
        match value(&val, l) {
            Some(true) => continue,
            Some(false) => return true,
            None => val[l.var().index()] = Some(l.is_positive()),
        }
        if propagate(&mut val) {
            return true;
        }
    }
    false
}

#[test]
fn probes_report_exactly_the_unit_propagation_conflicts_with_sets_that_are_cores() {
    use grim_solver::Probes;
    let mut rng = Rng::new(0x9b0b);
    let (mut conflicts, mut assumption_fails, mut quiet) = (0, 0, 0);
    for round in 0..600 {
        let vars = 3 + rng.below(9) as u32; // 3..=11
        let clauses = random_cnf(&mut rng, vars, (vars as usize) * (1 + round % 2), 3);
        let assumptions: Vec<Lit> = (0..rng.below(5))
            .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
            .collect();
        let probes: Vec<Lit> = (0..vars)
            .flat_map(|v| [lit(v, false), lit(v, true)])
            .collect();
        // A fresh solver (nothing learned, nothing eliminated): the answers must match the
        // reference propagation exactly. After a solve, learned clauses may only add conflicts.
        let mut s = solver_with(&Options::default(), vars, &clauses);
        let before_solve = s.probe(&assumptions, &probes);
        let st = s.solve(&assumptions, Budget::UNLIMITED);
        let after_solve = s.probe(&assumptions, &probes);
        // Probing leaves the solver as it was: the same answer again.
        assert_eq!(
            s.solve(&assumptions, Budget::UNLIMITED),
            st,
            "round {round}"
        );
        for (probed, exact) in [(before_solve, true), (after_solve, false)] {
            let check_core = |set: &[Lit], allowed: &[Lit]| {
                assert!(
                    set.iter().all(|l| allowed.contains(l)),
                    "round {round}: {set:?}"
                );
                assert!(
                    !brute_force(&clauses, set),
                    "round {round}: {set:?} is satisfiable with the clauses"
                );
            };
            match probed {
                Probes::AssumptionsFail(set) => {
                    assumption_fails += 1;
                    if exact {
                        assert!(up_conflicts(vars, &clauses, &assumptions), "round {round}");
                    }
                    check_core(&set, &assumptions);
                }
                Probes::Each(each) => {
                    assert_eq!(each.len(), probes.len());
                    if exact {
                        assert!(!up_conflicts(vars, &clauses, &assumptions), "round {round}");
                    }
                    for (&p, found) in probes.iter().zip(each) {
                        let mut lits = assumptions.clone();
                        lits.push(p);
                        let reference = up_conflicts(vars, &clauses, &lits);
                        match found {
                            Some(set) => {
                                conflicts += 1;
                                assert!(!exact || reference, "round {round}: probe {p:?}");
                                check_core(&set, &lits);
                            }
                            None => {
                                quiet += 1;
                                // After a solve, eliminated variables are not probed.
                                assert!(
                                    !exact || !reference,
                                    "round {round}: probe {p:?} missed a conflict"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("{conflicts} probe conflicts, {assumption_fails} assumption failures, {quiet} quiet");
    assert!(conflicts > 1500 && assumption_fails > 300 && quiet > 5000);
}
