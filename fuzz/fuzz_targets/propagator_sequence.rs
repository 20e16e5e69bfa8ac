//! Random sequences of incremental API calls with an external propagator connected
//! (`grim_solver::Propagator`): some clauses go to the engine, others to the propagator, which
//! reveals them lazily (lazy propagations, eager ones with reasons, conflict clauses, or only
//! at the model check, chosen per case and per clause). Every answer is checked against brute
//! force over all the clauses, engine and hidden alike (status, model, core), and the
//! propagator checks on every callback that what it was told is the engine's assignment.
//! Interleaved: new clauses of either kind, phases, budgets, terminate/reset, and reconnecting
//! the propagator.
#![no_main]

use arbitrary::Arbitrary;
use grim_fuzz::{MAX_VARS, check_answer, lit_of, options_of};
use grim_solver::{Budget, ClauseKind, Context, Lit, Propagator, Solver, Var};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, Mutex};

#[derive(Arbitrary, Debug)]
enum Op {
    AddClause(Vec<u8>),
    HideClause(Vec<u8>),
    SetPhase(u8),
    Solve {
        assumptions: Vec<u8>,
        conflict_budget: Option<u8>,
    },
    Terminate,
    Reset,
    Reconnect,
}

#[derive(Arbitrary, Debug)]
struct Case {
    options: u8,
    seed: u64,
    /// How hidden clauses are revealed: 0 lazy, 1 eager, 2 model check only, 3 per clause.
    style: u8,
    ops: Vec<Op>,
}

/// The propagator: the shared hidden clauses, its own view of the assignment from the
/// notifications, and the clause behind each lazy propagation.
struct Hidden {
    clauses: Arc<Mutex<Vec<Vec<Lit>>>>,
    style: u8,
    told: Vec<(Lit, u32)>,
    why: Vec<Option<usize>>,
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
        (0..MAX_VARS).map(|v| Var::new(v).unwrap()).collect()
    }

    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        assert!(self.told.last().is_none_or(|&(_, l)| l <= level), "levels out of order");
        for &l in lits {
            assert!(self.value(l).is_none(), "{l:?} told twice");
            self.told.push((l, level));
        }
    }

    fn notify_backtrack(&mut self, level: u32) {
        while self.told.last().is_some_and(|&(_, l)| l > level) {
            self.told.pop();
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) {
        for v in 0..MAX_VARS {
            let l = Var::new(v).unwrap().pos();
            assert_eq!(self.value(l), ctx.value(l), "the notifications missed {v}");
        }
        if self.style % 4 == 2 {
            return;
        }
        let clauses = self.clauses.lock().unwrap().clone();
        for (i, c) in clauses.iter().enumerate() {
            if c.iter().any(|&l| self.value(l) == Some(true)) {
                continue;
            }
            let free: Vec<Lit> = c.iter().copied().filter(|&l| self.value(l).is_none()).collect();
            let eager = match self.style % 4 {
                0 => false,
                1 => true,
                _ => i % 2 == 1,
            };
            match free.len() {
                0 => {
                    let kind = if eager {
                        ClauseKind::Irredundant
                    } else {
                        ClauseKind::Learned
                    };
                    ctx.add_clause(c, kind);
                    return;
                }
                1 if eager => ctx.propagate_because(free[0], c),
                1 => {
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
        let i = self.why[lit.code()].expect("explain of a literal never propagated");
        reason.extend_from_slice(&self.clauses.lock().unwrap()[i]);
    }

    fn check_model(&mut self, ctx: &mut Context<'_>) {
        let clauses = self.clauses.lock().unwrap();
        for c in clauses.iter() {
            if !c.iter().any(|&l| ctx.value(l) == Some(true)) {
                ctx.add_clause(c, ClauseKind::Irredundant);
                return;
            }
        }
    }
}

fuzz_target!(|case: Case| {
    let mut s = Solver::with_options(options_of(case.options, case.seed));
    let t = s.terminator();
    let hidden: Arc<Mutex<Vec<Vec<Lit>>>> = Arc::default();
    let fresh = |clauses: &Arc<Mutex<Vec<Vec<Lit>>>>| {
        Box::new(Hidden {
            clauses: clauses.clone(),
            style: case.style,
            told: Vec::new(),
            why: Vec::new(),
        })
    };
    s.connect_propagator(fresh(&hidden));
    assert_eq!(s.num_vars(), MAX_VARS as usize, "the observed variables are created");
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut terminated = false;
    for (step, op) in case.ops.iter().take(120).enumerate() {
        match op {
            Op::AddClause(bytes) => {
                let c: Vec<Lit> = bytes.iter().take(5).map(|&b| lit_of(b, MAX_VARS)).collect();
                s.add_clause(&c);
                clauses.push(c);
            }
            Op::HideClause(bytes) => {
                let c: Vec<Lit> = bytes.iter().take(5).map(|&b| lit_of(b, MAX_VARS)).collect();
                hidden.lock().unwrap().push(c);
            }
            Op::SetPhase(b) => s.set_phase(lit_of(*b, MAX_VARS)),
            Op::Solve {
                assumptions,
                conflict_budget,
            } => {
                let a: Vec<Lit> = assumptions
                    .iter()
                    .take(6)
                    .map(|&b| lit_of(b, MAX_VARS))
                    .collect();
                let budget =
                    conflict_budget.map_or(Budget::UNLIMITED, |n| Budget::conflicts(u64::from(n)));
                let status = s.solve(&a, budget);
                assert_eq!(s.propagator_error(), None, "step {step}");
                let mut all = clauses.clone();
                all.extend(hidden.lock().unwrap().iter().cloned());
                let may_be_unknown = conflict_budget.is_some() || terminated;
                check_answer(&s, status, &all, &a, may_be_unknown);
            }
            Op::Terminate => {
                t.terminate();
                terminated = true;
            }
            Op::Reset => {
                t.reset();
                terminated = false;
            }
            Op::Reconnect => {
                // The irredundant clauses the old one added stay: they are hidden clauses.
                assert!(s.disconnect_propagator().is_some(), "step {step}");
                s.connect_propagator(fresh(&hidden));
            }
        }
    }
});
