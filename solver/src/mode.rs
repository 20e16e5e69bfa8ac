//! Alternating search modes: *focused* (frequent glucose restarts, saved phases — good at
//! refuting) and *stable* (rare Luby restarts, target phases — good at finding models).
//!
//! From Oh, "Between SAT and UNSAT: the fundamental difference in CDCL SAT" (SAT 2015) and
//! CaDiCaL/Kissat's mode switching (Biere et al., SAT Competition 2019–2020 system
//! descriptions). Ours measures phase length in conflicts (deterministic and cheap) instead of
//! CaDiCaL's propagation ticks: the first focused phase lasts `mode_initial` conflicts, the
//! stable phase after it as long, and each following pair `mode_growth` times longer.

use crate::solver::Solver;

impl Solver {
    /// Whether the current mode's phase is over.
    pub(crate) fn switching_mode(&self) -> bool {
        self.opts.stable && self.stats.conflicts >= self.mode_limit
    }

    /// Switches focused ↔ stable.
    pub(crate) fn switch_mode(&mut self) {
        self.stats.mode_switches += 1;
        if self.stable {
            self.mode_length *= self.opts.mode_growth;
        }
        self.stable = !self.stable;
        self.mode_limit = self.stats.conflicts + self.mode_length as u64;
        // Each mode starts from its own restart schedule.
        self.luby_index = 0;
        self.target_assigned = 0;
        self.schedule_restart();
    }
}
