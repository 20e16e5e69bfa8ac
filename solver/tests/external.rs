//! The external-propagator interface against brute force.
//!
//! A propagator that holds some of a random CNF's clauses and reveals them only lazily — as
//! lazy propagations, propagations with their reason, added clauses (learned or irredundant),
//! conflicts, and refusals of complete assignments — must give what adding those clauses
//! directly gives: the same status, a model that satisfies every clause (the hidden ones
//! included), and a failed-assumption set that really is a core. Hundreds of small instances,
//! with assumptions and incremental calls (clauses added between calls, propagators revealing
//! more), under the default and the aggressive schedule. Then an at-most-k propagator against
//! enumeration, the typed errors of a misbehaving propagator, budgets, determinism and proofs.

use std::sync::{Arc, Mutex};

use grim_solver::{
    Budget, ClauseKind, Context, Lit, Options, Propagator, PropagatorError, Solver, Status, Var,
};
use grim_testkit::propagator::{Between, HiddenClauses, Reveal, Tally};
use grim_testkit::{Answer, SplitMix64, check_answer, generate, lit, satisfiable};

/// Draws a random CNF the way these tests always have: one clause in twenty a unit, the rest
/// of 2 to 4 literals.
fn random_cnf(rng: &mut SplitMix64, vars: u32, clauses: usize) -> Vec<Vec<Lit>> {
    generate::random_cnf(rng, vars, clauses, 4)
}

/// `hidden` behind a [`HiddenClauses`] observing `0..vars`, counting into `tally`.
fn hidden_by(
    vars: u32,
    hidden: &[Vec<Lit>],
    reveal: Reveal,
    tally: &Arc<Mutex<Tally>>,
) -> Box<HiddenClauses> {
    let clauses = Arc::new(Mutex::new(hidden.to_vec()));
    Box::new(HiddenClauses::new(vars, clauses, reveal, Arc::clone(tally)))
}

fn configs() -> Vec<Options> {
    let mut no_elim = Options::aggressive();
    no_elim.eliminate = false;
    vec![Options::default(), Options::aggressive(), no_elim]
}

/// Checks one answer against brute force over `visible ∪ hidden` (the testkit's referee:
/// status, model, core); true when it was SAT.
fn check(s: &Solver, status: Status, all: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    matches!(
        check_answer(s, status, all, assumptions, false),
        Answer::Sat(_)
    )
}

#[test]
fn a_propagator_revealing_clauses_answers_like_the_clauses_themselves() {
    let mut rng = SplitMix64::new(0x15);
    let styles = [
        Reveal::Lazy,
        Reveal::Eager,
        Reveal::ModelCheckOnly,
        Reveal::Mixed,
    ];
    let mut sat = 0;
    let mut unsat = 0;
    let mut total = Tally::default();
    for round in 0..300 {
        let vars = 4 + rng.below(7) as u32;
        let n = (vars as f64 * (1.5 + rng.below(30) as f64 / 10.0)) as usize;
        let all = random_cnf(&mut rng, vars, n);
        let split = rng.below(all.len() as u64 + 1) as usize;
        let (visible, hidden) = all.split_at(split);
        let style = styles[round % styles.len()];
        for opts in configs() {
            let log = Arc::new(Mutex::new(Tally::default()));
            let mut s = Solver::with_options(opts.clone());
            s.reserve_vars(vars as usize);
            for c in visible {
                s.add_clause(c);
            }
            s.connect_propagator(hidden_by(vars, hidden, style, &log));
            // Three calls: no assumptions, random assumptions, then more clauses.
            for call in 0..3 {
                let assumptions: Vec<Lit> = (0..rng.below(4))
                    .map(|_| lit(rng.below(u64::from(vars)) as u32, rng.coin()))
                    .collect();
                let mut all_now: Vec<Vec<Lit>> = all.clone();
                if call == 2 {
                    let extra = random_cnf(&mut rng, vars, 2);
                    for c in &extra {
                        s.add_clause(c);
                    }
                    all_now.extend(extra);
                }
                let status = s.solve(&assumptions, Budget::UNLIMITED);
                assert_eq!(s.propagator_error(), None);
                if check(&s, status, &all_now, &assumptions) {
                    sat += 1;
                } else {
                    unsat += 1;
                }
                if call == 2 {
                    break;
                }
            }
            total += *log.lock().unwrap();
        }
    }
    assert!(sat > 400 && unsat > 400, "sat {sat}, unsat {unsat}");
    assert!(
        total.lazy > 400
            && total.eager > 400
            && total.conflicts > 120
            && total.explained > 50
            && total.refuted > 200
            && total.backtracks > 900,
        "{total:?}"
    );
}

#[test]
fn an_at_most_k_propagator_admits_exactly_the_assignments_with_at_most_k() {
    for n in [4u32, 6, 8] {
        for k in 0..=n as usize {
            let lits: Vec<Lit> = (0..n).map(|v| lit(v, v % 3 == 2)).collect();
            let mut s = Solver::with_options(Options::aggressive());
            s.reserve_vars(n as usize);
            s.connect_propagator(Box::new(Between::new(lits.clone(), 0, k)));
            // Every assignment fixed by assumptions: SAT exactly when at most k are true.
            for a in 0u32..1 << n {
                let assume: Vec<Lit> = (0..n).map(|v| lit(v, (a >> v) & 1 == 0)).collect();
                let ones = lits
                    .iter()
                    .filter(|l| ((a >> l.var().index()) & 1 == 1) != l.is_negative())
                    .count();
                let status = s.solve(&assume, Budget::UNLIMITED);
                assert_eq!(status == Status::Sat, ones <= k, "n {n} k {k} a {a:b}");
                if status == Status::Unsat {
                    // The core is a set of assumptions making more than k true.
                    let core = s.failed_assumptions();
                    let forced = lits.iter().filter(|l| core.contains(l)).count();
                    assert!(forced > k, "n {n} k {k}: core {core:?}");
                }
            }
            // And free: the model has at most k, and with every literal assumed true but k
            // free ones... the answer is consistent with the bound.
            assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
            let m = s.model().unwrap();
            let ones = lits
                .iter()
                .filter(|l| m[l.var().index()] != l.is_negative())
                .count();
            assert!(ones <= k);
        }
    }
}

/// Propagates whatever it is built to, with a reason of its choosing, to test the checks.
struct Liar {
    observed: Vec<Var>,
    mode: u8,
    done: bool,
}

impl Propagator for Liar {
    fn observed(&self) -> Vec<Var> {
        self.observed.clone()
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) {
        if self.done {
            return;
        }
        let a = self.observed[0].pos();
        let b = self.observed[1].pos();
        // Only once `a` is decided true (level > 0).
        if ctx.value(a) != Some(true) || ctx.value(b).is_some() {
            return;
        }
        self.done = true;
        match self.mode {
            0 => ctx.propagate(b),                              // explained without b
            1 => ctx.propagate(b),                              // explained with a true literal
            2 => ctx.propagate(lit(999, false)),                // unknown variable
            3 => ctx.propagate_because(b, &[b, a.var().pos()]), // a is true, not false
            _ => ctx.add_clause(&[lit(500, true)], ClauseKind::Learned),
        }
    }
    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        match self.mode {
            0 => reason.push(!self.observed[0].pos()),
            _ => {
                reason.push(lit);
                reason.push(self.observed[0].pos());
            }
        }
    }
    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        let a = self.observed[0].pos();
        (ctx.value(a).is_none()).then_some(a)
    }
}

#[test]
fn a_malformed_answer_is_a_typed_error_and_the_solve_says_unknown() {
    let expected = [
        |e: &PropagatorError| matches!(e, PropagatorError::ReasonWithoutLiteral { .. }),
        |e: &PropagatorError| matches!(e, PropagatorError::ReasonNotFalseBefore { .. }),
        |e: &PropagatorError| matches!(e, PropagatorError::UnknownVariable { .. }),
        |e: &PropagatorError| matches!(e, PropagatorError::ReasonNotFalseBefore { .. }),
        |e: &PropagatorError| matches!(e, PropagatorError::UnknownVariable { .. }),
    ];
    for (mode, ok) in expected.iter().enumerate() {
        // Without subsumption: it would strengthen the last two clauses to ¬a ∨ ¬d, and then
        // deciding a propagates ¬b before the propagator can propagate b.
        let mut s = Solver::with_options(Options {
            subsume: false,
            ..Options::default()
        });
        let (a, b, c, d) = (s.new_var(), s.new_var(), s.new_var(), s.new_var());
        // a (decided) and b (propagated) lead to a conflict whose analysis passes b before a,
        // so b's reason is needed: ¬b ∨ d, ¬a ∨ ¬d ∨ c, ¬a ∨ ¬d ∨ ¬c.
        s.add_clause(&[b.neg(), d.pos()]);
        s.add_clause(&[a.neg(), d.neg(), c.pos()]);
        s.add_clause(&[a.neg(), d.neg(), c.neg()]);
        s.freeze(c); // kept from elimination
        s.freeze(d);
        s.connect_propagator(Box::new(Liar {
            observed: vec![a, b],
            mode: mode as u8,
            done: false,
        }));
        let status = s.solve(&[], Budget::UNLIMITED);
        assert_eq!(status, Status::Unknown, "mode {mode}");
        let e = s.propagator_error().expect("an error");
        assert!(ok(e), "mode {mode}: {e}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn a_disconnected_propagator_leaves_a_plain_solver_and_stats_count_its_work() {
    let mut rng = SplitMix64::new(7);
    let vars = 9;
    let all = random_cnf(&mut rng, vars, 30);
    let (visible, hidden) = all.split_at(10);
    let log = Arc::new(Mutex::new(Tally::default()));
    let mut s = Solver::new();
    s.reserve_vars(vars as usize);
    for c in visible {
        s.add_clause(c);
    }
    s.connect_propagator(hidden_by(vars, hidden, Reveal::Mixed, &log));
    let with = s.solve(&[], Budget::UNLIMITED);
    check(&s, with, &all, &[]);
    let st = s.stats().clone();
    assert!(st.external_rounds > 0 && st.external_propagations + st.external_clauses > 0);
    assert!(s.disconnect_propagator().is_some());
    // Irredundant clauses it added stay; the rest of its rules are gone.
    let without = s.solve(&[], Budget::UNLIMITED);
    assert_ne!(without, Status::Unknown);
    let clauses_visible: Vec<Vec<Lit>> = visible.to_vec();
    if without == Status::Unsat {
        assert!(!satisfiable(&clauses_visible, &[]) || with == Status::Unsat);
    }
}

#[test]
fn budgets_stop_a_solve_with_a_propagator_and_answers_repeat_run_after_run() {
    // Pigeonhole 7 into 6, the at-most-one of each hole as a propagator.
    let (p, h) = (7u32, 6u32);
    let var = |i: u32, j: u32| i * h + j;
    let run = |budget: Budget| {
        let mut s = Solver::with_options(Options::default());
        s.reserve_vars((p * h) as usize);
        for i in 0..p {
            let c: Vec<Lit> = (0..h).map(|j| lit(var(i, j), false)).collect();
            s.add_clause(&c);
        }
        struct Holes {
            p: u32,
            h: u32,
            told: Vec<(Lit, u32)>,
        }
        impl Propagator for Holes {
            fn observed(&self) -> Vec<Var> {
                (0..self.p * self.h).map(|v| Var::new(v).unwrap()).collect()
            }
            fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
                self.told.extend(lits.iter().map(|&l| (l, level)));
            }
            fn notify_backtrack(&mut self, level: u32) {
                self.told.retain(|&(_, l)| l <= level);
            }
            fn propagate(&mut self, ctx: &mut Context<'_>) {
                for j in 0..self.h {
                    let on: Vec<Lit> = (0..self.p)
                        .map(|i| lit(i * self.h + j, false))
                        .filter(|&l| ctx.value(l) == Some(true))
                        .collect();
                    if on.len() > 1 {
                        ctx.add_clause(&[!on[0], !on[1]], ClauseKind::Learned);
                        return;
                    }
                    if let [one] = on[..] {
                        for i in 0..self.p {
                            let l = lit(i * self.h + j, false);
                            if ctx.value(l).is_none() {
                                ctx.propagate_because(!l, &[!l, !one]);
                            }
                        }
                    }
                }
            }
            fn explain(&mut self, _: Lit, _: &mut Vec<Lit>) {
                unreachable!("every reason is eager")
            }
        }
        s.connect_propagator(Box::new(Holes {
            p,
            h,
            told: Vec::new(),
        }));
        let status = s.solve(&[], budget);
        (status, s.stats().conflicts)
    };
    let (status, conflicts) = run(Budget::UNLIMITED);
    assert_eq!(status, Status::Unsat);
    assert_eq!(run(Budget::UNLIMITED), (status, conflicts), "determinism");
    let (cut, spent) = run(Budget::conflicts(conflicts / 2));
    assert_eq!(cut, Status::Unknown);
    assert!(spent <= conflicts / 2);
}

#[test]
fn long_lazy_reasons_are_resolved_on_but_not_kept_as_learned_clauses() {
    // At most 130 of 180 literals `¬v` true (lazy reasons of 130 literals once the bound is
    // reached), and at most one of each pair `v_2i, v_2i+1` true: satisfiable, but the
    // default phase (false) reaches the bound first and forces pairs true together, so
    // analyses read long lazy reasons. They are resolved on from scratch (issue 42:
    // dungeon-locks-zoned-64 kept ~760 reasons of ~2,720 literals per conflict, 2.6 GB after
    // 300 conflicts): the learned clauses are the analyses' own, no more than the conflicts.
    let n = 180u32;
    let lits: Vec<Lit> = (0..n).map(|v| lit(v, true)).collect();
    let mut s = Solver::with_options(Options {
        scratch_reason_min: 128,
        ..Options::default()
    });
    s.reserve_vars(n as usize);
    for i in 0..n / 2 {
        s.add_clause(&[lit(2 * i, true), lit(2 * i + 1, true)]);
    }
    s.connect_propagator(Box::new(Between::new(lits, 0, 130)));
    // Before the first reduction (500 conflicts): every learned clause kept is one the
    // analyses learned, none a stored reason.
    assert_eq!(s.solve(&[], Budget::conflicts(300)), Status::Unknown);
    assert!(s.stats().external_reasons > 300, "lazy reasons were read");
    assert!(
        s.num_learned() <= 300,
        "{} learned clauses after 300 conflicts",
        s.num_learned()
    );
    // And the answer is right.
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    let m = s.model().unwrap();
    assert!((0..n as usize).filter(|&v| !m[v]).count() <= 130);
    assert!((0..n as usize / 2).all(|i| !(m[2 * i] && m[2 * i + 1])));
}
