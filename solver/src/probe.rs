//! Unit-propagation probes under assumptions: which single literals, propagated after the
//! assumptions, reach a conflict, and which assumptions does each conflict rest on?
//!
//! Why: a core-guided optimiser relaxes whatever core the search hands it, and on random
//! Max-2-SAT, max-cut and the like the search hands over cores two to three times larger than
//! the smallest ones. A literal `x` whose propagation after the assumptions conflicts, and
//! whose negation does too, yields a core without any search: the union of the two
//! assumption sets (resolution on `x`). Branch-and-bound MaxSAT solvers find their lower
//! bounds this way (failed literals; Li, Manyà & Planes, "New inference rules for Max-SAT",
//! JAIR 30, 2007); OLL uses it to pick small cores first (`grim-encodings`,
//! `maxsat/upcore.rs`).

#![forbid(unsafe_code)]

use crate::analyze::SEEN_IN_CLAUSE;
use crate::clause::{CRef, NO_REASON};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, Lit};

/// What [`Solver::probe`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probes {
    /// The assumptions alone propagate to a conflict: the clauses imply that not all of these
    /// (a subset of the assumptions, sorted) hold. Empty: the clauses alone are unsatisfiable.
    AssumptionsFail(Vec<Lit>),
    /// One entry per probe literal, in order: `Some(set)` when propagating it after the
    /// assumptions conflicts, with `set` ⊆ assumptions ∪ {probe} (sorted) such that the clauses
    /// imply that not all of `set` holds; `None` when propagation reaches no conflict.
    Each(Vec<Option<Vec<Lit>>>),
}

impl Solver {
    /// Propagates `assumptions` (one decision level each, as `solve` does), then each literal
    /// of `probes` in turn on one more level, by unit propagation only: no search, nothing
    /// learned, and every assignment undone before returning, saved phases untouched (the
    /// probes' assignments are not the search's). Level-0 consequences found on the way stay
    /// (they are implied by the clauses).
    ///
    /// The cost is one propagation of the assumptions plus one per probe, so probing every
    /// variable of an instance costs about as much as a few hundred conflicts. Assumptions and
    /// probes on eliminated variables are skipped (propagation cannot see them). The answer
    /// state of the last `solve` (model, failed assumptions) is discarded.
    pub fn probe(&mut self, assumptions: &[Lit], probes: &[Lit]) -> Probes {
        self.reset_answer();
        if let Some(max) = assumptions
            .iter()
            .chain(probes)
            .map(|l| l.var().index())
            .max()
        {
            self.reserve_vars(max + 1);
        }
        if !self.ok {
            return Probes::AssumptionsFail(Vec::new());
        }
        self.undo_to(0, false);
        if self.propagate() != NO_REASON {
            self.ok = false;
            self.proof.empty();
            return Probes::AssumptionsFail(Vec::new());
        }
        for &a in assumptions {
            if let Some(failed) = self.probe_one(a) {
                self.undo_to(0, false);
                return Probes::AssumptionsFail(failed);
            }
        }
        let base = self.trail.decision_level();
        let mut each = Vec::with_capacity(probes.len());
        for &p in probes {
            each.push(self.probe_one(p));
            self.undo_to(base, false);
        }
        self.undo_to(0, false);
        Probes::Each(each)
    }

    /// Assigns `a` on a new level and propagates; the assumptions behind a conflict, if any.
    fn probe_one(&mut self, a: Lit) -> Option<Vec<Lit>> {
        if self.elim.is_eliminated(a.var().index()) {
            return None;
        }
        match self.trail.value(a) {
            L_TRUE => None,
            L_FALSE => {
                self.analyze_final(a);
                Some(std::mem::take(&mut self.failed))
            }
            _ => {
                self.trail.new_decision_level();
                self.trail.assign(a, NO_REASON);
                match self.propagate() {
                    NO_REASON => None,
                    conflict => Some(self.conflict_assumptions(conflict)),
                }
            }
        }
    }

    /// The decisions (here: assumptions and the probe) in the implication cone of `conflict`.
    fn conflict_assumptions(&mut self, conflict: CRef) -> Vec<Lit> {
        let mut failed = Vec::new();
        for &l in self.arena.lits(conflict) {
            let v = l.var().index();
            if self.trail.level[v] > 0 {
                self.analysis.seen[v] = SEEN_IN_CLAUSE;
            }
        }
        self.analysis
            .collect_marked_decisions(&self.arena, &self.trail, &mut failed);
        failed
    }
}
