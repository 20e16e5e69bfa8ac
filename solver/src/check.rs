//! The model check: every model is tested against a copy of the clauses exactly as they were
//! added — before deduplication, simplification or any inprocessing — before `solve` returns
//! `Sat`. It is the engine refereeing itself with the simplest possible code; a failure is an
//! engine bug, turned into `Unknown` in release builds and a panic in debug/test builds.

use crate::solver::Solver;
use crate::types::L_TRUE;

impl Solver {
    /// Checks `self.model` against every original clause. True when the check passes or was
    /// not requested (`check_model` off, or clauses added while it was off).
    pub(crate) fn check_model(&mut self) -> bool {
        if !self.opts.check_model || !self.original_complete {
            return true;
        }
        self.stats.models_checked += 1;
        let mut start = 0usize;
        for &end in &self.original_ends {
            let clause = &self.original_lits[start..end as usize];
            start = end as usize;
            let satisfied = clause.iter().any(|&l| {
                let v = self.model[l.var().index()];
                (if l.is_negative() { -v } else { v }) == L_TRUE
            });
            if !satisfied {
                return false;
            }
        }
        // Assumptions are part of the question: the model must satisfy them too.
        self.assumptions.iter().all(|&l| {
            let v = self.model[l.var().index()];
            (if l.is_negative() { -v } else { v }) == L_TRUE
        })
    }
}
