//! Bumping: which variables a conflict bumps, and when the decision orders see it.
//!
//! Conflict analysis (`analyze.rs`) and shrinking (`shrink.rs`) note every variable they meet
//! (`Bump::note_new`, `Bump::note`); once the learned clause is final, `Solver::bump_analyzed`
//! optionally adds the *reason-side* variables and hands the whole set to the decision order in
//! use (`decide.rs`): EVSIDS adds the increment to each, VMTF moves them to the front in the
//! order of their old stamps. Deferring the bumps to the end of the analysis is what lets the
//! queue keep the relative order of one conflict's variables, and what lets reason-side bumping
//! know which variables are already bumped.
//!
//! Reason-side bumping: the variables in the reasons of the learned clause's literals are
//! bumped too (Liang, Ganesh, Poupart & Czarnecki, "Learning rate based branching heuristic for
//! SAT solvers", SAT 2016, §4; Kissat's `bumpreasons`). They are the literals one resolution
//! step beyond the clause, so they are likely to take part in the next conflicts. On uuf250-01,
//! Kissat 4.0.4 with only focused mode needs 276k conflicts with it and 464k without; grim's
//! VMTF needed 530k without it, which is why VMTF and reason-side bumping came together.
//! Kissat's two guards are kept: no reason-side bumping while the decisions per conflict average
//! (a slow moving average per mode) is at least `bump_reasons_rate` — many decisions per
//! conflict mean the conflicts are shallow and the reasons say little — and a conflict whose
//! reason side would make the bumped set more than `bump_reasons_limit` times larger bumps none
//! of it and delays the next attempts (one more conflict skipped per failure, the delay halved
//! per success).
//!
//! Invariant (owned here): between two analyses `analyzed` is empty and every `mark` is false.

#![forbid(unsafe_code)]

use crate::clause::is_clause;
use crate::solver::Solver;

/// The smoothing of the decisions-per-conflict average: a window of about 10⁵ conflicts, as
/// Kissat's `emaslow`.
const RATE_ALPHA: f64 = 1e-5;

/// An exponential moving average with Biere & Fröhlich's exact bias correction ("Evaluating
/// CDCL restart schemes", POS 2015): the early values are the plain mean of what was seen.
#[derive(Default, Clone, Copy)]
struct CorrectedEma {
    biased: f64,
    /// (1 − alpha)^updates: what the correction divides out.
    decayed: f64,
    updates: u64,
}

impl CorrectedEma {
    fn update(&mut self, x: f64) {
        if self.updates == 0 {
            self.decayed = 1.0;
        }
        self.updates += 1;
        self.biased += RATE_ALPHA * (x - self.biased);
        self.decayed *= 1.0 - RATE_ALPHA;
    }

    fn value(&self) -> f64 {
        if self.updates == 0 {
            0.0
        } else {
            self.biased / (1.0 - self.decayed)
        }
    }
}

/// The bumped set of the current conflict and reason-side bumping's schedule (module doc).
#[derive(Default)]
pub(crate) struct Bump {
    /// The variables to bump, in the order met.
    analyzed: Vec<u32>,
    /// Whether each variable is in `analyzed`.
    mark: Vec<bool>,
    /// Decisions per conflict, one average per mode (index: stable).
    rate: [CorrectedEma; 2],
    /// The decision count at the previous conflict.
    last_decisions: u64,
    /// Reason-side bumping's delay: the conflicts to skip after the last failure…
    delay: u32,
    /// …and how many of them are left.
    delay_left: u32,
    /// Bump the reason side at all: `bump_reasons`, unless the formula is uniform and
    /// `uniform_evsids` holds (set with the decision order, `mode.rs`).
    pub(crate) reasons: bool,
}

impl Bump {
    /// Makes room for variables `0..n`.
    pub(crate) fn grow(&mut self, n: usize) {
        self.mark.resize(n, false);
    }

    /// Notes `v`, which the caller knows is not noted yet (analysis meets each variable once).
    #[inline(always)]
    pub(crate) fn note_new(&mut self, v: usize) {
        debug_assert!(!self.mark[v]);
        self.mark[v] = true;
        self.analyzed.push(v as u32);
    }

    /// Notes `v` unless it is noted.
    #[inline]
    pub(crate) fn note(&mut self, v: usize) {
        if !self.mark[v] {
            self.note_new(v);
        }
    }
}

impl Solver {
    /// Bumps the current conflict's variables (and, when it pays, the reason side of the
    /// learned clause `analysis.learnt`) in the decision order in use, and empties the set.
    /// Pre: the learned clause is final and every one of its literals is still assigned.
    pub(crate) fn bump_analyzed(&mut self) {
        let stable = self.mode.is_stable() as usize;
        let decisions = self.stats.decisions - self.bump.last_decisions;
        self.bump.last_decisions = self.stats.decisions;
        self.bump.rate[stable].update(decisions as f64);
        if self.bump.reasons && self.bump.rate[stable].value() < self.opts.bump_reasons_rate as f64
        {
            if self.bump.delay_left > 0 {
                self.bump.delay_left -= 1;
            } else {
                self.bump_reason_side();
            }
        }
        let Solver {
            bump,
            scores,
            trail,
            ..
        } = self;
        scores.bump_all(&mut bump.analyzed, trail);
        for &v in &bump.analyzed {
            bump.mark[v as usize] = false;
        }
        bump.analyzed.clear();
    }

    /// Adds the variables of the learned clause's reasons to the bumped set, or none of them
    /// when they would make it more than `bump_reasons_limit` times larger (module doc).
    fn bump_reason_side(&mut self) {
        let Solver {
            bump,
            analysis,
            trail,
            arena,
            stats,
            opts,
            ..
        } = self;
        let saved = bump.analyzed.len();
        let limit = saved.saturating_mul(opts.bump_reasons_limit as usize);
        'clause: for &l in &analysis.learnt {
            let v = l.var().index();
            let reason = trail.reason[v];
            if !is_clause(reason) {
                continue; // a decision, or an external propagation whose reason is not asked for
            }
            for &q in arena.lits(reason) {
                let u = q.var().index();
                if u != v && trail.level[u] != 0 {
                    bump.note(u);
                    if bump.analyzed.len() > limit {
                        break 'clause;
                    }
                }
            }
        }
        if bump.analyzed.len() > limit {
            for &u in &bump.analyzed[saved..] {
                bump.mark[u as usize] = false;
            }
            bump.analyzed.truncate(saved);
            bump.delay = bump.delay.saturating_add(1);
            bump.delay_left = bump.delay;
        } else {
            stats.reason_bumps += (bump.analyzed.len() - saved) as u64;
            bump.delay /= 2;
            bump.delay_left = bump.delay;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CorrectedEma;

    #[test]
    fn the_corrected_average_starts_as_the_plain_mean() {
        let mut e = CorrectedEma::default();
        assert_eq!(e.value(), 0.0);
        for x in [4.0, 8.0, 6.0] {
            e.update(x);
        }
        assert!((e.value() - 6.0).abs() < 1e-3, "{}", e.value());
    }
}
