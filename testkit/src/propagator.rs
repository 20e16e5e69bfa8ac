//! External propagators (`grim_solver::Propagator`) whose answers a test can predict: one that
//! holds clauses the engine does not have and reveals them lazily, and one that enforces a
//! cardinality bound. Both keep their own view of the assignment, built from the
//! notifications only, so a test also checks what the engine tells a propagator.
//!
//! Why here: the engine's tests, the encodings' tests and the `propagator_sequence` fuzz
//! target each had a copy of these two, and a fix to one (the level-order check of
//! `notify_assignments`) had reached only some of them.

use std::sync::{Arc, Mutex};

use grim_solver::{ClauseKind, Context, Lit, Propagator, Var};

/// How [`HiddenClauses`] reveals a clause that the assignment makes unit or falsified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// Unit ones as lazy propagations (explained on demand), falsified ones as learned
    /// conflict clauses.
    Lazy,
    /// Unit ones with their reason at once, falsified ones as irredundant clauses.
    Eager,
    /// Nothing during propagation: only the model check refuses assignments.
    ModelCheckOnly,
    /// A mix: odd-indexed clauses eagerly, even-indexed ones lazily.
    Mixed,
}

/// What a [`HiddenClauses`] did, summed over its life, so a test can assert that every way
/// of answering was exercised.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Lazy propagations.
    pub lazy: usize,
    /// Propagations with their reason.
    pub eager: usize,
    /// Falsified clauses handed over as conflicts.
    pub conflicts: usize,
    /// Calls of `explain`.
    pub explained: usize,
    /// Complete assignments refused by the model check.
    pub refuted: usize,
    /// Calls of `notify_backtrack`.
    pub backtracks: usize,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, t: Tally) {
        self.lazy += t.lazy;
        self.eager += t.eager;
        self.conflicts += t.conflicts;
        self.explained += t.explained;
        self.refuted += t.refuted;
        self.backtracks += t.backtracks;
    }
}

/// Holds clauses the engine does not have (shared with the test, which may add more between
/// calls) and reveals them as [`Reveal`] says. Answers like the clauses themselves: the same
/// status, models that satisfy them, cores that are cores. On every `propagate` it asserts
/// that its notified view of variables `0..vars` is the engine's assignment.
pub struct HiddenClauses {
    vars: u32,
    clauses: Arc<Mutex<Vec<Vec<Lit>>>>,
    reveal: Reveal,
    /// What it was told: (literal, level), in order.
    told: Vec<(Lit, u32)>,
    /// The clause behind each lazy propagation (by literal code).
    why: Vec<Option<usize>>,
    tally: Arc<Mutex<Tally>>,
}

impl HiddenClauses {
    /// A propagator observing variables `0..vars` that reveals `clauses` (over those
    /// variables) as `reveal` says and counts what it does in `tally`.
    pub fn new(
        vars: u32,
        clauses: Arc<Mutex<Vec<Vec<Lit>>>>,
        reveal: Reveal,
        tally: Arc<Mutex<Tally>>,
    ) -> HiddenClauses {
        HiddenClauses {
            vars,
            clauses,
            reveal,
            told: Vec::new(),
            why: Vec::new(),
            tally,
        }
    }

    fn value(&self, l: Lit) -> Option<bool> {
        self.told
            .iter()
            .find(|(t, _)| t.var() == l.var())
            .map(|(t, _)| *t == l)
    }
}

impl Propagator for HiddenClauses {
    fn observed(&self) -> Vec<Var> {
        (0..self.vars)
            .map(|v| Var::new(v).expect("a small variable index"))
            .collect()
    }

    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        assert!(
            self.told.last().is_none_or(|&(_, l)| l <= level),
            "levels out of order"
        );
        for &l in lits {
            assert!(self.value(l).is_none(), "{l:?} told twice");
            self.told.push((l, level));
        }
    }

    fn notify_backtrack(&mut self, level: u32) {
        self.tally.lock().expect("tally").backtracks += 1;
        while self.told.last().is_some_and(|&(_, l)| l > level) {
            self.told.pop();
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) {
        for v in 0..self.vars {
            let l = Var::new(v).expect("a small variable index").pos();
            assert_eq!(self.value(l), ctx.value(l), "the notifications missed {v}");
        }
        if self.reveal == Reveal::ModelCheckOnly {
            return;
        }
        let clauses = Arc::clone(&self.clauses);
        let clauses = clauses.lock().expect("hidden clauses");
        let mut tally = self.tally.lock().expect("tally");
        for (i, c) in clauses.iter().enumerate() {
            if c.iter().any(|&l| self.value(l) == Some(true)) {
                continue;
            }
            let free: Vec<Lit> = c
                .iter()
                .copied()
                .filter(|&l| self.value(l).is_none())
                .collect();
            let eager = match self.reveal {
                Reveal::Lazy => false,
                Reveal::Eager => true,
                _ => i % 2 == 1,
            };
            match free[..] {
                [] => {
                    tally.conflicts += 1;
                    let kind = if eager {
                        ClauseKind::Irredundant
                    } else {
                        ClauseKind::Learned
                    };
                    ctx.add_clause(c, kind);
                    return;
                }
                [unit] if eager => {
                    tally.eager += 1;
                    ctx.propagate_because(unit, c);
                }
                [unit] => {
                    tally.lazy += 1;
                    let code = unit.code();
                    if self.why.len() <= code {
                        self.why.resize(code + 1, None);
                    }
                    self.why[code] = Some(i);
                    ctx.propagate(unit);
                }
                _ => {}
            }
        }
    }

    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        self.tally.lock().expect("tally").explained += 1;
        let i = self.why[lit.code()].expect("explain of a literal never propagated");
        reason.extend_from_slice(&self.clauses.lock().expect("hidden clauses")[i]);
    }

    fn check_model(&mut self, ctx: &mut Context<'_>) {
        let clauses = self.clauses.lock().expect("hidden clauses");
        if let Some(c) = clauses
            .iter()
            .find(|c| !c.iter().any(|&l| ctx.value(l) == Some(true)))
        {
            self.tally.lock().expect("tally").refuted += 1;
            ctx.add_clause(c, ClauseKind::Irredundant);
        }
    }
}

/// `lo ≤ |{l ∈ lits : l}| ≤ hi`, with lazy reasons for the upper bound and eager ones for the
/// lower, so that both ways of propagating are exercised. `lo = 0` is an at-most-`hi`
/// propagator.
pub struct Between {
    lits: Vec<Lit>,
    lo: usize,
    hi: usize,
    /// Observed literals assigned, in trail order, with their level.
    told: Vec<(Lit, u32)>,
}

impl Between {
    /// The bound `lo ≤ count ≤ hi` over `lits` (`lo ≤ hi ≤ lits.len()`).
    pub fn new(lits: Vec<Lit>, lo: usize, hi: usize) -> Between {
        Between {
            lits,
            lo,
            hi,
            told: Vec::new(),
        }
    }

    /// The inputs now true (`true`) or false (`false`), in the order they were told.
    fn with_value(&self, value: bool) -> Vec<Lit> {
        let mut out = Vec::new();
        for &(t, _) in &self.told {
            for &l in &self.lits {
                if (value && t == l) || (!value && t == !l) {
                    out.push(l);
                }
            }
        }
        out
    }
}

impl Propagator for Between {
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
        let n = self.lits.len();
        let on = self.with_value(true);
        let off = self.with_value(false);
        if on.len() > self.hi {
            let clause: Vec<Lit> = on[..=self.hi].iter().map(|&l| !l).collect();
            ctx.add_clause(&clause, ClauseKind::Learned);
            return;
        }
        if off.len() > n - self.lo {
            ctx.add_clause(&off[..=n - self.lo], ClauseKind::Irredundant);
            return;
        }
        for &l in &self.lits {
            if ctx.value(l).is_some() {
                continue;
            }
            if on.len() == self.hi {
                ctx.propagate(!l);
            } else if off.len() == n - self.lo {
                let mut reason = vec![l];
                reason.extend(off.iter().copied());
                ctx.propagate_because(l, &reason);
            }
        }
    }

    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        // `!lit` was an input pushed false once `hi` inputs were true: those `hi` were told
        // first and are still assigned.
        reason.push(lit);
        reason.extend(self.with_value(true).iter().take(self.hi).map(|&l| !l));
    }

    fn check_model(&mut self, ctx: &mut Context<'_>) {
        let (on, off): (Vec<Lit>, Vec<Lit>) = self
            .lits
            .iter()
            .filter(|&&l| ctx.value(l).is_some())
            .partition(|&&l| ctx.value(l) == Some(true));
        if on.len() > self.hi {
            let clause: Vec<Lit> = on[..=self.hi].iter().map(|&l| !l).collect();
            ctx.add_clause(&clause, ClauseKind::Learned);
        } else if on.len() < self.lo {
            ctx.add_clause(&off, ClauseKind::Learned);
        }
    }
}
