//! Learned-clause database reduction, in three tiers by LBD.
//!
//! Tier 1 ("core", LBD ≤ `reduce_tier1_glue`) and binary clauses are kept forever, except
//! probing's hyper-binary resolvents (`probe.rs`), which go once unused like local clauses. A clause
//! that takes part in a conflict gets a `used` count (`analyze.rs`) — 2 in tier 2 (LBD ≤
//! `reduce_tier2_glue`), 1 in the local tier — which every reduction decrements; only at 0,
//! and when it is no reason, is a clause a deletion candidate. So a tier-2 clause survives two
//! reductions after its last use, a local one one. Candidates are sorted by (LBD, activity)
//! and the worse `reduce_fraction` deleted. The k-th reduction comes `reduce_interval` · √k
//! conflicts after the previous one (Kissat's schedule), plus `reduce_increment` · (k − 1)
//! (glucose's linear growth; 0 by default). Clause activities, the tie-break within an LBD,
//! are MiniSat's: bumped in analysis, decayed by `reduce_activity_decay` per conflict.
//!
//! Audemard & Simon (IJCAI 2009) for LBD-based deletion; Oh, "Improving implementation of SAT
//! competitions 2017–2019 winners" (SAT 2020 — the three-tier scheme of COMiniSatPS/MapleLCM).

#![forbid(unsafe_code)]

use crate::clause::{Arena, CRef};
use crate::solver::Solver;
use crate::types::L_TRUE;

/// Clause activities above this are rescaled (with the increment) before they overflow an
/// `f32`.
const RESCALE_LIMIT: f32 = 1e20;
/// The rescaling factor: keeps the order of activities, which is all that matters.
const RESCALE: f32 = 1e-20;

/// The reduction schedule and the clause-activity increment: written only here (`analyze.rs`
/// bumps and decays through `bump_activity` and `decay_activity`; `search.rs` reads
/// `activity_inc()` as a new clause's activity).
pub(crate) struct Reduce {
    /// The next reduction happens at this conflict count.
    limit: u64,
    /// Reductions so far (the schedule grows with it).
    count: u64,
    /// The current clause-activity bump; grows by `1 / reduce_activity_decay` per conflict.
    activity_inc: f32,
}

impl Default for Reduce {
    fn default() -> Reduce {
        Reduce {
            limit: 0,
            count: 0,
            activity_inc: 1.0,
        }
    }
}

impl Reduce {
    /// The activity a new learned clause starts with: the current bump.
    #[inline]
    pub(crate) fn activity_inc(&self) -> f32 {
        self.activity_inc
    }

    /// Raises the activity of learned clause `c` by the current increment, rescaling every
    /// learned clause's activity near overflow.
    #[inline]
    pub(crate) fn bump_activity(&mut self, arena: &mut Arena, learnts: &[CRef], c: CRef) {
        let a = arena.activity(c) + self.activity_inc;
        arena.set_activity(c, a);
        if a > RESCALE_LIMIT {
            for &l in learnts {
                let scaled = arena.activity(l) * RESCALE;
                arena.set_activity(l, scaled);
            }
            self.activity_inc *= RESCALE;
        }
    }

    /// Decays every clause activity by growing the increment by `1 / decay`. The option is an
    /// `f64` like every other; as an `f32` it is the same number (a test in `options.rs`).
    #[inline]
    pub(crate) fn decay_activity(&mut self, decay: f64) {
        self.activity_inc /= decay as f32;
    }
}

impl Solver {
    /// Schedules the first reduction (at the first `solve`).
    pub(crate) fn start_reductions(&mut self) {
        self.reduce.limit = self.stats.conflicts + self.opts.reduce_interval;
    }

    /// Whether a reduction is due.
    pub(crate) fn reducing(&self) -> bool {
        self.stats.conflicts >= self.reduce.limit
    }

    /// Whether clause `c` is the reason of its first (or, for binaries, either) literal.
    pub(crate) fn locked(&self, c: CRef) -> bool {
        let lits = self.arena.lits(c);
        let n = if lits.len() == 2 { 2 } else { 1 };
        lits[..n].iter().any(|&l| {
            let v = l.var().index();
            self.trail.reason[v] == c && self.trail.value(l) == L_TRUE
        })
    }

    /// Deletes part of the local tier (see the module doc), then collects garbage.
    pub(crate) fn reduce(&mut self) {
        self.stats.reductions += 1;
        self.reduce.count += 1;
        let tier1 = self.opts.reduce_tier1_glue as u32;
        let mut candidates: Vec<CRef> = Vec::new();
        for i in 0..self.clauses.learnts.len() {
            let c = self.clauses.learnts[i];
            if self.arena.is_deleted(c) {
                continue;
            }
            let lbd = self.arena.lbd(c);
            let used = self.arena.used(c);
            if used > 0 {
                self.arena.set_used(c, used - 1);
            }
            // Hyper-binary resolvents of probing are the one exception to keeping binaries:
            // probing adds them by the thousand, and only the used ones earn their watches.
            if (lbd <= tier1 || self.arena.len(c) == 2) && !self.arena.is_hyper(c) {
                continue;
            }
            // Used since the previous reduction: spared, in tier 2 and in the local tier alike.
            if used > 0 {
                continue;
            }
            if self.locked(c) {
                continue;
            }
            candidates.push(c);
        }
        // Worst first: high LBD, then low activity; offsets break ties (deterministic).
        let arena = &self.arena;
        candidates.sort_by(|&a, &b| {
            let (la, lb) = (arena.lbd(a), arena.lbd(b));
            lb.cmp(&la)
                .then_with(|| {
                    arena
                        .activity(a)
                        .partial_cmp(&arena.activity(b))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .then_with(|| a.cmp(&b))
        });
        let remove = (candidates.len() as f64 * self.opts.reduce_fraction) as usize;
        for &c in &candidates[..remove] {
            self.proof.delete(self.arena.lits(c), &self.trail);
            self.arena.delete(c);
            self.stats.deleted += 1;
        }
        let arena = &self.arena;
        self.clauses.learnts.retain(|&c| !arena.is_deleted(c));
        self.collect_garbage();
        self.vivify.request();
        self.reduce.limit = self.stats.conflicts + self.reduce_interval_now();
    }

    /// Conflicts until the next reduction: `reduce_interval` · √(reductions so far + 1) plus
    /// `reduce_increment` per reduction (Kissat's square-root schedule when the increment is 0,
    /// glucose's linear one when it is positive).
    pub(crate) fn reduce_interval_now(&self) -> u64 {
        let k = self.reduce.count as f64 + 1.0;
        (self.opts.reduce_interval as f64 * k.sqrt()) as u64
            + self.opts.reduce_increment * self.reduce.count
    }
}
