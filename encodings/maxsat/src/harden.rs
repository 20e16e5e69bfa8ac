//! Hardening: terms too heavy to be violated by any improving solution become hard clauses.
//!
//! **Technique.** By the invariant of `oll.rs`, an assignment that violates a live term of
//! weight `w` costs at least `lower_bound + w`. When `w > best − lower_bound` such an
//! assignment costs more than the best model already found, so the term's literal can be added
//! as a hard unit clause: the engine then propagates it instead of carrying it as an
//! assumption, and learned clauses no longer depend on it. The best model (extended
//! canonically) satisfies every hardened term, so the instance stays satisfiable.
//!
//! **Papers.** Ansótegui, Bonet, Gabàs & Levy, CP 2012 (hardening in stratified WPM);
//! Morgado, Heras & Marques-Silva, "Improvements to core-guided binary search for MaxSAT",
//! SAT 2012; RC2's `finish_level`, which hardens against `min(sum of lighter levels, UB − LB)`.
//!
//! **Where ours differs.** RC2 hardens once per finished stratum; we harden after every core
//! and every SAT answer, because the gap shrinks with each core too. The scan is linear in the
//! number of terms, negligible next to an engine call.

use super::oll::Oll;

impl Oll {
    /// Hardens every live term heavier than the gap between the best cost and the lower bound
    /// (no-op without an upper bound or with hardening off).
    pub(super) fn harden(&mut self) {
        if !self.opts.hardening {
            return;
        }
        let Some(ub) = self.best_cost() else {
            return;
        };
        let gap = ub.saturating_sub(self.lb);
        if self.proof.is_some() && self.live_weights().any(|w| w > gap) {
            // The bound that propagates each of them (`veripb.rs`).
            if let Some(proof) = &mut self.proof {
                proof.bound(&mut self.solver);
            }
        }
        for t in 0..self.terms.len() {
            let term = &self.terms[t];
            if term.live && term.weight > gap {
                let lit = term.lit;
                self.terms[t].live = false;
                self.add_fact(lit);
                self.stats.hardened += 1;
            }
        }
    }
}
