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

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn lit(v: u32, neg: bool) -> Lit {
    Lit::new(Var::new(v).unwrap(), neg)
}

fn random_cnf(rng: &mut Rng, vars: u32, clauses: usize) -> Vec<Vec<Lit>> {
    (0..clauses)
        .map(|_| {
            // Mostly 2..=4 literals, one clause in twenty a unit.
            let len = if rng.below(20) == 0 {
                1
            } else {
                2 + rng.below(3) as usize
            };
            (0..len)
                .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
                .collect()
        })
        .collect()
}

fn holds(assign: u32, l: Lit) -> bool {
    ((assign >> l.var().index()) & 1 == 1) != l.is_negative()
}

fn brute_force(vars: u32, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    (0..1u32 << vars).any(|a| {
        clauses.iter().all(|c| c.iter().any(|&l| holds(a, l)))
            && assumptions.iter().all(|&l| holds(a, l))
    })
}

/// How the hidden clauses are revealed.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// Unit ones as lazy propagations, falsified ones as learned conflict clauses.
    Lazy,
    /// Unit ones with their reason at once, falsified ones as irredundant clauses.
    Eager,
    /// Nothing during propagation: only the model check refuses assignments.
    ModelCheckOnly,
    /// A mix, chosen per clause by its index.
    Mixed,
}

/// Holds clauses the engine does not have and reveals them (see `Style`). Its view of the
/// assignment is its own, built from the notifications only, and checked against the
/// engine's on every callback.
struct Hidden {
    vars: u32,
    clauses: Vec<Vec<Lit>>,
    style: Style,
    /// What it was told: (literal, level), in order.
    told: Vec<(Lit, u32)>,
    /// The clause behind each lazy propagation (by literal code).
    why: Vec<Option<usize>>,
    /// Counts of what it did, shared with the test.
    log: Arc<Mutex<Tally>>,
}

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    lazy: usize,
    eager: usize,
    conflicts: usize,
    explained: usize,
    refuted: usize,
    backtracks: usize,
}

impl Hidden {
    fn value(&self, l: Lit) -> Option<bool> {
        self.told
            .iter()
            .find(|(t, _)| t.var() == l.var())
            .map(|(t, _)| *t == l)
    }
}

impl Propagator for Hidden {
    fn observed(&self) -> Vec<Var> {
        (0..self.vars).map(|v| Var::new(v).unwrap()).collect()
    }

    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        assert!(self.told.last().is_none_or(|&(_, l)| l <= level));
        for &l in lits {
            assert!(self.value(l).is_none(), "{l:?} told twice");
            self.told.push((l, level));
        }
    }

    fn notify_backtrack(&mut self, level: u32) {
        self.log.lock().unwrap().backtracks += 1;
        while self.told.last().is_some_and(|&(_, l)| l > level) {
            self.told.pop();
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) {
        // The notified view is the engine's assignment of the observed variables.
        for v in 0..self.vars {
            let l = Var::new(v).unwrap().pos();
            assert_eq!(self.value(l), ctx.value(l), "the notifications missed {v}");
        }
        if matches!(self.style, Style::ModelCheckOnly) {
            return;
        }
        for (i, c) in self.clauses.iter().enumerate() {
            let free: Vec<Lit> = c
                .iter()
                .copied()
                .filter(|&l| self.value(l).is_none())
                .collect();
            if c.iter().any(|&l| self.value(l) == Some(true)) {
                continue;
            }
            let eager = match self.style {
                Style::Lazy => false,
                Style::Eager => true,
                _ => i % 2 == 1,
            };
            match free.len() {
                0 => {
                    self.log.lock().unwrap().conflicts += 1;
                    let kind = if eager {
                        ClauseKind::Irredundant
                    } else {
                        ClauseKind::Learned
                    };
                    ctx.add_clause(c, kind);
                    return;
                }
                1 if eager => {
                    self.log.lock().unwrap().eager += 1;
                    ctx.propagate_because(free[0], c);
                }
                1 => {
                    self.log.lock().unwrap().lazy += 1;
                    let code = free[0].code();
                    if self.why.len() <= code {
                        self.why.resize(code + 1, None);
                    }
                    self.why[code] = Some(i);
                    ctx.propagate(free[0]);
                }
                _ => {}
            }
        }
    }

    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        self.log.lock().unwrap().explained += 1;
        let i = self.why[lit.code()].expect("explain of a literal never propagated");
        reason.extend_from_slice(&self.clauses[i]);
    }

    fn check_model(&mut self, ctx: &mut Context<'_>) {
        for c in &self.clauses {
            if !c.iter().any(|&l| ctx.value(l) == Some(true)) {
                self.log.lock().unwrap().refuted += 1;
                ctx.add_clause(c, ClauseKind::Irredundant);
                return;
            }
        }
    }
}

fn configs() -> Vec<Options> {
    let mut no_elim = Options::aggressive();
    no_elim.eliminate = false;
    vec![Options::default(), Options::aggressive(), no_elim]
}

/// Checks one answer against brute force over `visible ∪ hidden`.
fn check(
    s: &Solver,
    status: Status,
    vars: u32,
    all: &[Vec<Lit>],
    assumptions: &[Lit],
    what: &str,
) -> bool {
    let expected = brute_force(vars, all, assumptions);
    match status {
        Status::Sat => {
            assert!(expected, "{what}: SAT, brute force says UNSAT");
            let model = s.model().expect("a model");
            let a: u32 = (0..vars).map(|v| (model[v as usize] as u32) << v).sum();
            for c in all {
                assert!(c.iter().any(|&l| holds(a, l)), "{what}: model breaks {c:?}");
            }
            assert!(assumptions.iter().all(|&l| holds(a, l)));
        }
        Status::Unsat => {
            assert!(!expected, "{what}: UNSAT, brute force says SAT");
            let core = s.failed_assumptions();
            assert!(
                core.iter().all(|l| assumptions.contains(l)),
                "{what}: core {core:?}"
            );
            assert!(
                !brute_force(vars, all, core),
                "{what}: {core:?} is not a core"
            );
        }
        Status::Unknown => panic!("{what}: unknown without a budget"),
    }
    expected
}

#[test]
fn a_propagator_revealing_clauses_answers_like_the_clauses_themselves() {
    let mut rng = Rng(0x15);
    let styles = [
        Style::Lazy,
        Style::Eager,
        Style::ModelCheckOnly,
        Style::Mixed,
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
            s.connect_propagator(Box::new(Hidden {
                vars,
                clauses: hidden.to_vec(),
                style,
                told: Vec::new(),
                why: Vec::new(),
                log: Arc::clone(&log),
            }));
            // Three calls: no assumptions, random assumptions, then more clauses.
            for call in 0..3 {
                let assumptions: Vec<Lit> = (0..rng.below(4))
                    .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
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
                let what = format!("round {round} {style:?} call {call}");
                if check(&s, status, vars, &all_now, &assumptions, &what) {
                    sat += 1;
                } else {
                    unsat += 1;
                }
                if call == 2 {
                    break;
                }
            }
            let t = *log.lock().unwrap();
            total.lazy += t.lazy;
            total.eager += t.eager;
            total.conflicts += t.conflicts;
            total.explained += t.explained;
            total.refuted += t.refuted;
            total.backtracks += t.backtracks;
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

/// At most `k` of the observed variables true: propagates the others false once `k` are
/// true, with the reason "these `k` true imply this one false".
struct AtMost {
    lits: Vec<Lit>,
    k: usize,
    told: Vec<(Lit, u32)>,
}

impl AtMost {
    fn true_ones(&self) -> Vec<Lit> {
        self.told
            .iter()
            .map(|&(l, _)| l)
            .filter(|l| self.lits.contains(l))
            .collect()
    }
}

impl Propagator for AtMost {
    fn observed(&self) -> Vec<Var> {
        self.lits.iter().map(|l| l.var()).collect()
    }
    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        self.told.extend(lits.iter().map(|&l| (l, level)));
    }
    fn notify_backtrack(&mut self, level: u32) {
        self.told.retain(|&(_, l)| l <= level);
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) {
        let on = self.true_ones();
        if on.len() > self.k {
            let clause: Vec<Lit> = on[..=self.k].iter().map(|&l| !l).collect();
            ctx.add_clause(&clause, ClauseKind::Learned);
        } else if on.len() == self.k {
            for &l in &self.lits {
                if ctx.value(l).is_none() {
                    ctx.propagate(!l);
                }
            }
        }
    }
    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        // The first k true ones told (all before `lit`: it was propagated once k were true).
        reason.push(lit);
        reason.extend(self.true_ones().iter().take(self.k).map(|&l| !l));
    }
    fn check_model(&mut self, ctx: &mut Context<'_>) {
        let on: Vec<Lit> = self
            .lits
            .iter()
            .copied()
            .filter(|&l| ctx.value(l) == Some(true))
            .collect();
        if on.len() > self.k {
            let clause: Vec<Lit> = on[..=self.k].iter().map(|&l| !l).collect();
            ctx.add_clause(&clause, ClauseKind::Learned);
        }
    }
}

#[test]
fn an_at_most_k_propagator_admits_exactly_the_assignments_with_at_most_k() {
    for n in [4u32, 6, 8] {
        for k in 0..=n as usize {
            let lits: Vec<Lit> = (0..n).map(|v| lit(v, v % 3 == 2)).collect();
            let mut s = Solver::with_options(Options::aggressive());
            s.reserve_vars(n as usize);
            s.connect_propagator(Box::new(AtMost {
                lits: lits.clone(),
                k,
                told: Vec::new(),
            }));
            // Every assignment fixed by assumptions: SAT exactly when at most k are true.
            for a in 0u32..1 << n {
                let assume: Vec<Lit> = (0..n).map(|v| lit(v, (a >> v) & 1 == 0)).collect();
                let ones = lits.iter().filter(|&&l| holds(a, l)).count();
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
    let mut rng = Rng(7);
    let vars = 9;
    let all = random_cnf(&mut rng, vars, 30);
    let (visible, hidden) = all.split_at(10);
    let log = Arc::new(Mutex::new(Tally::default()));
    let mut s = Solver::new();
    s.reserve_vars(vars as usize);
    for c in visible {
        s.add_clause(c);
    }
    s.connect_propagator(Box::new(Hidden {
        vars,
        clauses: hidden.to_vec(),
        style: Style::Mixed,
        told: Vec::new(),
        why: Vec::new(),
        log,
    }));
    let with = s.solve(&[], Budget::UNLIMITED);
    check(&s, with, vars, &all, &[], "with");
    let st = s.stats().clone();
    assert!(st.external_rounds > 0 && st.external_propagations + st.external_clauses > 0);
    assert!(s.disconnect_propagator().is_some());
    // Irredundant clauses it added stay; the rest of its rules are gone.
    let without = s.solve(&[], Budget::UNLIMITED);
    assert_ne!(without, Status::Unknown);
    let clauses_visible: Vec<Vec<Lit>> = visible.to_vec();
    if without == Status::Unsat {
        assert!(!brute_force(vars, &clauses_visible, &[]) || with == Status::Unsat);
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
