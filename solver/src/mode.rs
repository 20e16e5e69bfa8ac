//! Alternating search modes: *focused* (frequent glucose restarts, saved phases — good at
//! refuting) and *stable* (rare Luby restarts, target phases — good at finding models).
//!
//! From Oh, "Between SAT and UNSAT: the fundamental difference in CDCL SAT" (SAT 2015) and
//! CaDiCaL/Kissat's mode switching (Biere et al., SAT Competition 2019–2020 system
//! descriptions). Ours measures phase length in conflicts (deterministic and cheap) instead of
//! CaDiCaL's propagation ticks: the first focused phase lasts `mode_initial` conflicts, the
//! stable phase after it as long, and each following pair `mode_growth` times longer.

#![forbid(unsafe_code)]

use crate::solver::Solver;

/// The search mode and its schedule: written only here; `restart.rs` and `decide.rs` read
/// `is_stable`, and `choose_decision_order` tells the scores which order the mode uses.
#[derive(Default)]
pub(crate) struct Mode {
    /// Stable mode (else focused).
    stable: bool,
    /// The current mode ends at this conflict count.
    limit: u64,
    /// Length in conflicts of the current phase pair's phases.
    length: f64,
    /// The schedules started (at the first `solve`; they carry over between calls).
    started: bool,
}

impl Mode {
    /// Whether the search is in stable mode (else focused).
    #[inline(always)]
    pub(crate) fn is_stable(&self) -> bool {
        self.stable
    }
}

impl Solver {
    /// Starts the mode schedule (focused first) if it has not started: at the first `solve`.
    /// Returns whether it did. Schedules carry over between calls: an incremental user (OLL, a
    /// sliced run) gets the same long stable phases as one long call.
    pub(crate) fn start_modes(&mut self) -> bool {
        if self.mode.started {
            return false;
        }
        let m = &mut self.mode;
        m.started = true;
        m.stable = false;
        m.length = self.opts.mode_initial as f64;
        m.limit = self.stats.conflicts + self.opts.mode_initial;
        true
    }

    /// Whether the current mode's phase is over.
    pub(crate) fn switching_mode(&self) -> bool {
        self.opts.stable && self.stats.conflicts >= self.mode.limit
    }

    /// Switches focused ↔ stable.
    pub(crate) fn switch_mode(&mut self) {
        self.stats.mode_switches += 1;
        let m = &mut self.mode;
        if m.stable {
            m.length *= self.opts.mode_growth;
        }
        m.stable = !m.stable;
        m.limit = self.stats.conflicts + m.length as u64;
        // Each mode starts from its own restart schedule and its own target phase.
        self.rephase.forget_target();
        self.start_restarts();
        self.choose_decision_order();
        // Into focused mode: a random decision sequence first (`randec.rs`).
        self.start_random_sequence();
    }

    /// The decision order of the current mode (`decide.rs`): VMTF in focused mode when `vmtf`
    /// is on, EVSIDS otherwise; and whether to bump reasons (`bump_reasons`). On a uniform
    /// formula (`decide::Shape`) with `uniform_evsids`, EVSIDS in both modes and no reason-side
    /// bumping, whatever those options say. Also at every `solve`, since the options and the
    /// formula may have changed.
    pub(crate) fn choose_decision_order(&mut self) {
        let plain = self.opts.uniform_evsids && self.scores.shape.uniform();
        let queue = self.opts.vmtf && !self.mode.stable && !plain;
        self.bump.reasons = self.opts.bump_reasons && !plain;
        self.scores.use_queue(queue);
    }
}
