//! Target and best phases, and rephasing.
//!
//! The *target* phase is the assignment of the longest conflict-free trail since the last
//! rephase; following it in stable mode makes the search home in on a model (Biere & Fleury,
//! "Chasing target phases", Pragmatics of SAT 2020). The *best* phase is the longest such trail
//! overall. *Rephasing* periodically overwrites the saved phases with one of: the original
//! phase, the best phase, the inverted original phase, or the result of a local-search walk
//! (`walk.rs`) — the cycle B W O B W I, CaDiCaL's stable-mode cycle.

use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE};

impl Solver {
    /// Records the consistent part of the trail as target/best phase when it is the longest
    /// seen. Called before every backtrack that follows a conflict and on restarts; the
    /// consistent part is everything below the current decision level.
    pub(crate) fn update_target_and_best(&mut self) {
        let consistent = match self.trail_lim.last() {
            Some(&start) => start,
            None => return,
        };
        if consistent > self.target_assigned {
            self.target_assigned = consistent;
            for i in 0..consistent {
                let l = self.trail[i];
                self.target[l.var().index()] = if l.is_positive() { L_TRUE } else { L_FALSE };
            }
        }
        if consistent > self.best_assigned {
            self.best_assigned = consistent;
            for i in 0..consistent {
                let l = self.trail[i];
                self.best[l.var().index()] = if l.is_positive() { L_TRUE } else { L_FALSE };
            }
        }
    }

    pub(crate) fn rephasing(&self) -> bool {
        self.stats.conflicts >= self.rephase_limit
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
                self.target_assigned = 0;
            }
        } else {
            for v in 0..self.num_vars() {
                let p = match kind {
                    0 | 3 => match self.best[v] {
                        L_TRUE => true,
                        L_FALSE => false,
                        _ => self.saved[v],
                    },
                    5 => !initial,
                    _ => initial,
                };
                self.saved[v] = p;
                self.target[v] = if p { L_TRUE } else { L_FALSE };
            }
            self.target_assigned = 0;
            if kind == 0 || kind == 3 {
                self.best_assigned = 0;
            }
        }
        self.rephase_limit =
            self.stats.conflicts + self.opts.rephase_interval * (self.stats.rephases + 1);
    }
}
