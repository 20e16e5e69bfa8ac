//! Target and best phases, and rephasing.
//!
//! The *target* phase is the assignment of the longest conflict-free trail since the last
//! rephase; following it in stable mode makes the search home in on a model (Biere & Fleury,
//! "Chasing target phases", Pragmatics of SAT 2020). The *best* phase is the longest such trail
//! overall. *Rephasing* periodically overwrites the saved phases with one of: the original
//! phase, the best phase, the inverted original phase, or the result of a local-search walk
//! (`walk.rs`) — the cycle B W O B W I, CaDiCaL's stable-mode cycle.

#![forbid(unsafe_code)]

use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE};

/// The rephasing schedule and the lengths of the trails behind the target and best phases
/// (the phases themselves are `decide.rs`'s `Phases`). Written only here; `mode.rs` and
/// `search.rs` forget the target through `forget_target`.
#[derive(Default)]
pub(crate) struct Rephase {
    /// The next rephase happens at this conflict count.
    limit: u64,
    /// Length of the trail the target phase was taken from.
    target_assigned: usize,
    /// Length of the trail the best phase was taken from.
    best_assigned: usize,
}

impl Rephase {
    /// The next consistent trail of any length becomes the target phase.
    pub(crate) fn forget_target(&mut self) {
        self.target_assigned = 0;
    }
}

impl Solver {
    /// Records the consistent part of the trail as target/best phase when it is the longest
    /// seen. Called before every backtrack that follows a conflict and on restarts; the
    /// consistent part is everything below the current decision level.
    pub(crate) fn update_target_and_best(&mut self) {
        let consistent = match self.trail.lim.last() {
            Some(&start) => start,
            None => return,
        };
        let prefix = &self.trail.lits[..consistent];
        let r = &mut self.rephase;
        if consistent > r.target_assigned {
            r.target_assigned = consistent;
            for &l in prefix {
                self.phases.target[l.var().index()] =
                    if l.is_positive() { L_TRUE } else { L_FALSE };
            }
        }
        if consistent > r.best_assigned {
            r.best_assigned = consistent;
            for &l in prefix {
                self.phases.best[l.var().index()] = if l.is_positive() { L_TRUE } else { L_FALSE };
            }
        }
    }

    /// Schedules the first rephase (at the first `solve`).
    pub(crate) fn start_rephasing(&mut self) {
        self.rephase.limit = self.stats.conflicts + self.opts.rephase_interval;
    }

    /// Whether a rephase is due.
    pub(crate) fn rephasing(&self) -> bool {
        self.stats.conflicts >= self.rephase.limit
    }

    /// Overwrites the saved (and target) phases with the next phase of the cycle
    /// best, walk, original, best, walk, inverted (`walk` only when `walk_effort` > 0).
    pub(crate) fn rephase(&mut self) {
        self.stats.rephases += 1;
        let kind = (self.stats.rephases - 1) % 6;
        let initial = self.opts.phase_initial;
        if kind == 1 || kind == 4 {
            if self.opts.walk_effort > 0.0 {
                self.update_target_and_best();
                self.backtrack(0);
                self.walk();
                self.rephase.forget_target();
            }
        } else {
            let ph = &mut self.phases;
            for v in 0..self.trail.num_vars() {
                let p = match kind {
                    0 | 3 => match ph.best[v] {
                        L_TRUE => true,
                        L_FALSE => false,
                        _ => ph.saved[v],
                    },
                    5 => !initial,
                    _ => initial,
                };
                ph.saved[v] = p;
                ph.target[v] = if p { L_TRUE } else { L_FALSE };
            }
            self.rephase.forget_target();
            if kind == 0 || kind == 3 {
                self.rephase.best_assigned = 0;
            }
        }
        self.rephase.limit =
            self.stats.conflicts + self.opts.rephase_interval * (self.stats.rephases + 1);
    }
}
