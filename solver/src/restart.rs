//! Restarts: backtrack to the assumption levels and let the heuristics choose again.
//!
//! Focused mode uses glucose's dynamic policy (Audemard & Simon, "Refining restarts strategies
//! for SAT and UNSAT", CP 2012): restart when the fast exponential moving average of learned
//! clause LBDs exceeds `restart_margin` times the slow one — the search is producing worse
//! clauses than usual. Moving averages are bias-corrected at start-up (Biere & Fröhlich,
//! "Evaluating CDCL restart schemes", POS 2015). Stable mode uses the Luby sequence (Luby,
//! Sinclair & Zuckerman, IPL 1993) scaled by `restart_luby_unit`, i.e. Knuth's reluctant doubling.

#![forbid(unsafe_code)]

use crate::solver::Solver;
use crate::types::L_UNDEF;

/// An exponential moving average with the bias correction of Biere & Fröhlich (POS 2015).
///
/// A plain average started at 0 lags: with the slow alpha of 1e-5 it would take some 10⁵
/// conflicts to reach the level of the LBDs it follows. The correction divides the biased
/// average by the weight its observations have so far, `1 - (1 - alpha)^t`, so that early on it
/// is the plain mean of the LBDs seen, and the EMA proper once `t ≫ 1/alpha`.
///
/// An earlier version halved the smoothing at every update instead (down to alpha), which
/// weighted the first dozen LBDs of the run as heavily as the next 10⁵: the slow average stayed
/// at the small LBDs of the first conflicts, so focused mode restarted at nearly every chance
/// (Urquhart-s4-b1: one restart per 10 conflicts, Kissat one per 47).
#[derive(Default)]
pub(crate) struct Ema {
    /// The biased average, started at 0.
    biased: f64,
    /// `(1 - alpha)^t` after `t` updates, or 0 before the first (then `value` is 0).
    decay: f64,
    /// The corrected average.
    value: f64,
    /// Whether an update has been seen (so `decay` has been started at 1).
    started: bool,
}

impl Ema {
    #[inline]
    fn update(&mut self, x: f64, alpha: f64) {
        if !self.started {
            self.started = true;
            self.decay = 1.0;
        }
        self.biased += alpha * (x - self.biased);
        self.decay *= 1.0 - alpha;
        let weight = 1.0 - self.decay;
        self.value = if weight > 0.0 {
            self.biased / weight
        } else {
            x
        };
    }
}

/// The restart schedule: written only here (`mode.rs` and `search.rs` call
/// `start_restarts` when a mode starts).
#[derive(Default)]
pub(crate) struct Restart {
    /// No restart before this conflict count.
    limit: u64,
    /// Position in the Luby sequence (stable mode); 0 when a mode starts.
    luby_index: u64,
    /// Moving averages of learned-clause LBDs, fast and slow, one pair per mode (index 1:
    /// stable). Only focused mode restarts by them, but a stable phase learns longer clauses
    /// (its phases keep it deep in one part of the space): mixed into one pair, they would make
    /// the next focused phase start from a slow average that is too high, and restart too
    /// rarely until it decays (Kissat too keeps the averages per mode).
    fast: [Ema; 2],
    slow: [Ema; 2],
}

/// The `i`-th element (0-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 …
pub(crate) fn luby(i: u64) -> u64 {
    // Find the finite subsequence that contains index i, and its size.
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    let mut x = i;
    while size - 1 != x {
        size = (size - 1) >> 1;
        seq -= 1;
        x %= size;
    }
    1u64 << seq
}

impl Solver {
    /// Feeds the LBD of a new learned clause to the moving averages.
    pub(crate) fn update_restart_averages(&mut self, lbd: u32) {
        let lbd = lbd as f64;
        let r = &mut self.restart;
        let m = self.mode.is_stable() as usize;
        r.fast[m].update(lbd, self.opts.restart_fast_alpha);
        r.slow[m].update(lbd, self.opts.restart_slow_alpha);
    }

    /// Whether to restart now (checked after conflict-free propagation).
    pub(crate) fn restarting(&self) -> bool {
        if self.trail.decision_level() as usize <= self.assumptions.len() {
            return false;
        }
        if self.stats.conflicts < self.restart.limit {
            return false;
        }
        if self.mode.is_stable() {
            return true;
        }
        self.restart.fast[0].value > self.opts.restart_margin * self.restart.slow[0].value
    }

    /// Restarts: back to the assumption levels, and schedules the next restart.
    pub(crate) fn restart(&mut self) {
        self.stats.restarts += 1;
        self.update_target_and_best();
        let keep = self.reuse_trail_level();
        self.backtrack(keep);
        self.schedule_restart();
    }

    /// The level to restart to: above the assumptions, keep every decision level whose
    /// decision variable is more active than the variable the heuristic would pick next —
    /// the search would make the same decisions again anyway ("Reusing the assignment trail in
    /// CDCL solvers", van der Tak, Ramos & Heule, JSAT 2011). On gus-md5-04 (68,679 variables)
    /// it avoids re-propagating most of the trail at each of the frequent focused-mode restarts.
    fn reuse_trail_level(&mut self) -> u32 {
        let keep = (self.assumptions.len() as u32).min(self.trail.decision_level());
        if !self.opts.restart_reuse_trail {
            return keep;
        }
        // Assigned variables at the top of the heap are stale: drop them (backtrack puts them
        // back when they are unassigned).
        let next = loop {
            match self.vsids.top() {
                None => return keep,
                Some(v) if self.trail.var_value(v) != L_UNDEF => {
                    self.vsids.pop();
                }
                Some(v) => break self.vsids.activity(v),
            }
        };
        let mut level = keep;
        while level < self.trail.decision_level() {
            let start = self.trail.lim[level as usize];
            let decision = self.trail.lits[start].var().index();
            if self.vsids.activity(decision) <= next {
                break;
            }
            level += 1;
        }
        level
    }

    /// A mode starts: its own restart schedule from the beginning.
    pub(crate) fn start_restarts(&mut self) {
        self.restart.luby_index = 0;
        self.schedule_restart();
    }

    /// Sets the next restart limit for the current mode.
    fn schedule_restart(&mut self) {
        let r = &mut self.restart;
        if self.mode.is_stable() {
            r.luby_index += 1;
            r.limit = self.stats.conflicts + luby(r.luby_index) * self.opts.restart_luby_unit;
        } else {
            r.limit = self.stats.conflicts + self.opts.restart_min;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence_starts_as_published() {
        let got: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
