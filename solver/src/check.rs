//! The model check: every model is tested against a copy of the clauses exactly as they were
//! added — before deduplication, simplification or any inprocessing — before `solve` returns
//! `Sat`. It is the engine refereeing itself with the simplest possible code; a failure is an
//! engine bug, turned into `Unknown` in release builds and a panic in debug/test builds.

#![forbid(unsafe_code)]

use crate::solver::Solver;
use crate::types::{L_TRUE, LBool, Lit};

/// The copy of the clauses as added: written by `Solver::add_clause` through `record` and
/// `skip`, read by `check`.
pub(crate) struct ModelCheck {
    /// Every clause as added, flattened; clause `i` ends at `ends[i]`.
    lits: Vec<Lit>,
    ends: Vec<u32>,
    /// False when some clause was added while `check_model` was off (the copy is partial, so
    /// no model can be checked any more).
    complete: bool,
}

impl ModelCheck {
    /// An empty copy; `complete` says whether clauses will be recorded from the start
    /// (`check_model` on at construction).
    pub(crate) fn new(complete: bool) -> ModelCheck {
        ModelCheck {
            lits: Vec::new(),
            ends: Vec::new(),
            complete,
        }
    }

    /// Records a clause as added.
    pub(crate) fn record(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len() as u32);
    }

    /// A clause was added without being recorded: the copy is partial from now on.
    pub(crate) fn skip(&mut self) {
        self.complete = false;
    }

    /// Whether `model` satisfies every recorded clause and every assumption. Pre: the copy is
    /// complete.
    fn check(&self, model: &[LBool], assumptions: &[Lit]) -> bool {
        debug_assert!(self.complete);
        let holds = |l: Lit| {
            let v = model[l.var().index()];
            (if l.is_negative() { -v } else { v }) == L_TRUE
        };
        let mut start = 0usize;
        for &end in &self.ends {
            let clause = &self.lits[start..end as usize];
            start = end as usize;
            if !clause.iter().any(|&l| holds(l)) {
                return false;
            }
        }
        // Assumptions are part of the question: the model must satisfy them too.
        assumptions.iter().all(|&l| holds(l))
    }
}

impl Solver {
    /// Checks `self.model` against every original clause. True when the check passes or was
    /// not requested (`check_model` off, or clauses added while it was off).
    pub(crate) fn check_model(&mut self) -> bool {
        if !self.opts.check_model || !self.check.complete {
            return true;
        }
        self.stats.models_checked += 1;
        self.check.check(&self.model, &self.assumptions)
    }
}
