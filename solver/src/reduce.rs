//! Learned-clause database reduction, in three tiers by LBD, with tier limits that follow the
//! glues of the clauses the search actually uses.
//!
//! A learned clause's `used` (`clause.rs`) is set to `USED_MAX` when it takes part in a
//! conflict (`analyze.rs`) and decremented by every reduction, so it says how many reductions
//! ago that was. A reduction spares: binary clauses, always (except probing's hyper-binary
//! resolvents, `probe.rs`, which go once unused like local clauses); tier 1 (LBD ≤ the tier-1
//! limit) always while that limit is the fixed `reduce_tier1_glue`, and with the dynamic limit
//! until `USED_MAX` reductions pass without a use; tier 2 (LBD ≤ the tier-2 limit) for two
//! reductions after its last use; the local tier for one; and every clause that is a reason.
//! A clause learned since the previous reduction is spared by the next one whatever its tier
//! (`fresh_used`), and is then judged by its uses. The rest are candidates, sorted by (LBD,
//! activity), and the worse `reduce_fraction` is deleted. The k-th reduction comes
//! `reduce_interval` · √k conflicts after the previous one (Kissat's schedule), plus
//! `reduce_increment` · (k − 1) (glucose's linear growth; 0 by default). Clause activities,
//! the tie-break within an LBD, are MiniSat's: bumped in analysis, decayed by
//! `reduce_activity_decay` per conflict.
//!
//! **Tier limits.** Fixed limits (2 and 6, glucose's and Oh's) fit application formulas whose
//! useful clauses have small LBDs, and starve formulas whose useful clauses all have LBD 8–15
//! (XOR chains, clique colouring): there tier 1 is empty and the clauses the search keeps
//! coming back to are deleted as local ones. So, as Kissat 4 and CaDiCaL 2 do, each use of a
//! learned clause in a conflict is counted at its LBD (`note_use`; one histogram per mode,
//! LBDs above `GLUE_BUCKETS` − 1 counted there), and at every reduction the tier-1 limit
//! becomes the smallest LBD at which the uses of LBD ≤ it reach `reduce_tier1_relative` of
//! all uses in focused mode, and the tier-2 limit the same for `reduce_tier2_relative` in
//! stable mode (each from the other mode while its own has none); with no use yet (or a
//! relative share of 0) the limits are `reduce_tier1_glue` and `reduce_tier2_glue`. Kissat
//! 4.0.4 does the same (its `TIER1` is focused mode's limit, its `TIER2` stable mode's) and
//! computes 6–9 and 12–14 on Urquhart-s4-b1 (own structured set); with the fixed 2 and 6, grim
//! needed 4.5–7.2M conflicts there, with 6 and 12 1.9–2.1M (Kissat: 1.3M). Why the two modes:
//! stable mode learns clauses of higher LBD, and one histogram over both put tier 1 at 8–9 on
//! clique colouring 10-06-07, where Kissat's focused limit is 4; tier 1 lives long, and the
//! database grew to 210k learned clauses (32k with the fixed limits) and propagation slowed
//! 2.5×. Tier 1 expires under the dynamic limit (Kissat's rule) because even at such limits
//! keeping it forever filled memory; under the fixed limit of 2 it is small, and it is kept
//! forever, as before the dynamic limits came: expiring it there too (and sparing fresh tier-2
//! clauses two reductions instead of one) took q_query_3_L60_coli (own set, seed 0) from 124k
//! conflicts to 178k, and sat-industrial's PAR-2 at 60 s (mean of seeds 0–2) from 122.9 to
//! 130.6 s.
//!
//! Audemard & Simon (IJCAI 2009) for LBD-based deletion; Oh, "Improving implementation of SAT
//! competitions 2017–2019 winners" (SAT 2020 — the three-tier scheme of COMiniSatPS/MapleLCM).

#![forbid(unsafe_code)]

use crate::clause::{Arena, CRef, USED_MAX};
use crate::solver::Solver;
use crate::types::L_TRUE;

/// Clause activities above this are rescaled (with the increment) before they overflow an
/// `f32`.
const RESCALE_LIMIT: f32 = 1e20;
/// The rescaling factor: keeps the order of activities, which is all that matters.
const RESCALE: f32 = 1e-20;
/// Uses are counted per LBD up to this many buckets; larger LBDs share the last one.
const GLUE_BUCKETS: usize = 128;

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
    /// Uses of learned clauses in conflicts, by LBD, in focused (0) and stable (1) mode
    /// (module doc; `note_use`).
    glue_uses: [[u64; GLUE_BUCKETS]; 2],
    /// The tier limits in force: LBD ≤ `tier1` is tier 1, ≤ `tier2` tier 2 (module doc).
    tier1: u32,
    tier2: u32,
}

impl Default for Reduce {
    fn default() -> Reduce {
        Reduce {
            limit: 0,
            count: 0,
            activity_inc: 1.0,
            glue_uses: [[0; GLUE_BUCKETS]; 2],
            tier1: 2,
            tier2: 6,
        }
    }
}

impl Reduce {
    /// The tier-2 limit in force (module doc): learned clauses of LBD at most this and above
    /// the tier-1 limit are tier 2.
    #[inline(always)]
    pub(crate) fn tier2(&self) -> u32 {
        self.tier2
    }

    /// How many reductions a learned clause of LBD `lbd` is spared after its last use, by tier
    /// (module doc): 1 in the local tier (and for probing's hyper-binary resolvents), 2 in
    /// tier 2, `USED_MAX` in tier 1, and more than any `used` can make up for (kept) in tier 1
    /// when `keep_tier1` (the fixed limit).
    fn spared(&self, lbd: u32, hyper: bool, keep_tier1: bool) -> u32 {
        if hyper || lbd > self.tier2 {
            1
        } else if lbd > self.tier1 {
            2
        } else if keep_tier1 {
            USED_MAX + 1
        } else {
            USED_MAX
        }
    }

    /// What a clause of LBD `lbd` learned (or derived from a learned one) now starts with as
    /// `used`: the value that makes the next reduction spare it and the one after judge it by
    /// its uses, in tier 2 and the local tier alike (module doc). Tier 1 starts as if just used.
    pub(crate) fn fresh_used(&self, lbd: u32) -> u32 {
        if lbd <= self.tier1 {
            USED_MAX
        } else {
            USED_MAX + 1 - self.spared(lbd, false, false)
        }
    }

    /// Counts one use of a learned clause of LBD `lbd` in a conflict, in stable mode or not.
    #[inline(always)]
    pub(crate) fn note_use(&mut self, lbd: u32, stable: bool) {
        self.glue_uses[stable as usize][(lbd as usize).min(GLUE_BUCKETS - 1)] += 1;
    }

    /// The smallest LBD at which the uses of clauses with LBD at most it reach `share` of all
    /// uses in mode `stable` (of the other mode if that one has none), or `None` when there are
    /// no uses or `share` is 0 (the fixed limits then hold).
    fn relative_limit(&self, share: f64, stable: bool) -> Option<u32> {
        let total = |m: usize| self.glue_uses[m].iter().sum::<u64>();
        let mode = if total(stable as usize) > 0 {
            stable as usize
        } else {
            !stable as usize
        };
        let total = total(mode);
        if total == 0 || share <= 0.0 {
            return None;
        }
        let goal = (total as f64 * share).ceil() as u64;
        let mut sum = 0;
        for (lbd, &n) in self.glue_uses[mode].iter().enumerate() {
            sum += n;
            if sum >= goal {
                return Some(lbd as u32);
            }
        }
        Some(GLUE_BUCKETS as u32 - 1)
    }

    /// Recomputes the tier limits from the uses (module doc): tier 1 from focused mode's,
    /// tier 2 from stable mode's; `fixed` are the option limits. Returns whether a limit
    /// changed.
    fn retier(&mut self, relative: (f64, f64), fixed: (u32, u32)) -> bool {
        let tier1 = self.relative_limit(relative.0, false).unwrap_or(fixed.0);
        let tier2 = self
            .relative_limit(relative.1, true)
            .unwrap_or(fixed.1)
            .max(tier1);
        let changed = (tier1, tier2) != (self.tier1, self.tier2);
        (self.tier1, self.tier2) = (tier1, tier2);
        changed
    }

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
        self.reduce.tier1 = self.opts.reduce_tier1_glue as u32;
        self.reduce.tier2 = (self.opts.reduce_tier2_glue as u32).max(self.reduce.tier1);
    }

    /// Recomputes the tier limits (module doc), counting a change in `stats.retiered`.
    fn update_tiers(&mut self) {
        let relative = (
            self.opts.reduce_tier1_relative,
            self.opts.reduce_tier2_relative,
        );
        let fixed = (
            self.opts.reduce_tier1_glue as u32,
            self.opts.reduce_tier2_glue as u32,
        );
        if self.reduce.retier(relative, fixed) {
            self.stats.retiered += 1;
        }
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
        self.update_tiers();
        let keep_tier1 = self.opts.reduce_tier1_relative <= 0.0;
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
            let hyper = self.arena.is_hyper(c);
            if self.arena.len(c) == 2 && !hyper {
                continue;
            }
            if used + self.reduce.spared(lbd, hyper, keep_tier1) > USED_MAX {
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
            self.proof
                .delete(self.arena.lits(c), self.arena.id(c), &self.trail);
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

#[cfg(test)]
mod tests {
    use super::Reduce;
    use crate::clause::USED_MAX;
    use crate::options::Options;
    use crate::solver::Solver;
    use crate::types::Lit;

    /// A solver with three learned ternary clauses, fresh, of LBD 2 (tier 1), 5 (tier 2) and 9
    /// (local), and reductions that delete every candidate.
    fn three_tiers(relative: f64) -> Solver {
        let mut s = Solver::with_options(Options {
            reduce_fraction: 1.0,
            reduce_tier1_relative: relative,
            ..Options::default()
        });
        let vars: Vec<_> = (0..9).map(|_| s.new_var()).collect();
        s.start_reductions();
        for (i, lbd) in [2, 5, 9].into_iter().enumerate() {
            let lits: Vec<Lit> = vars[3 * i..3 * i + 3].iter().map(|v| v.pos()).collect();
            let c = s.arena.alloc(&lits, true, lbd, 0).expect("a tiny arena");
            s.arena.set_used(c, s.reduce.fresh_used(lbd));
            s.watches.attach(&s.arena, c);
            s.clauses.push(c, true);
        }
        s
    }

    fn learned_lbds(s: &Solver) -> Vec<u32> {
        let mut lbds: Vec<u32> = s.clauses.learnts.iter().map(|&c| s.arena.lbd(c)).collect();
        lbds.sort_unstable();
        lbds
    }

    #[test]
    fn fresh_clauses_get_one_reduction_and_fixed_tier_one_is_kept_forever() {
        let mut s = three_tiers(0.0);
        s.reduce();
        assert_eq!(
            learned_lbds(&s),
            [2, 5, 9],
            "the first reduction spares fresh clauses"
        );
        s.reduce();
        assert_eq!(learned_lbds(&s), [2], "unused since: tiers 2 and local go");
        for _ in 0..2 * USED_MAX {
            s.reduce();
        }
        assert_eq!(learned_lbds(&s), [2], "tier 1 under the fixed limit stays");
    }

    #[test]
    fn used_tier_two_is_spared_two_reductions_and_dynamic_tier_one_expires() {
        let mut s = three_tiers(0.5);
        s.reduce();
        // The tier-2 clause takes part in a conflict (as `bump_clause` marks it).
        let tier2 = s
            .clauses
            .learnts
            .iter()
            .copied()
            .find(|&c| s.arena.lbd(c) == 5);
        s.arena.set_used(tier2.expect("still there"), USED_MAX);
        s.reduce();
        assert_eq!(
            learned_lbds(&s),
            [2, 5],
            "used since the last reduction: spared"
        );
        s.reduce();
        assert_eq!(learned_lbds(&s), [2, 5], "tier 2 is spared a second one");
        s.reduce();
        assert_eq!(learned_lbds(&s), [2]);
        // No use was counted, so the dynamic limit is still the fixed 2; the clause went
        // unused since it was learned, USED_MAX reductions ago after the next one.
        for _ in 4..USED_MAX {
            s.reduce();
        }
        assert_eq!(
            learned_lbds(&s),
            [2],
            "{} reductions: still spared",
            USED_MAX - 1
        );
        s.reduce();
        assert_eq!(
            learned_lbds(&s),
            Vec::<u32>::new(),
            "dynamic tier 1 expires"
        );
    }

    #[test]
    fn tier_limits_follow_the_share_of_uses_and_fall_back_to_the_fixed_ones() {
        let mut r = Reduce::default();
        let fixed = (2, 6);
        assert!(
            !r.retier((0.5, 0.9), fixed),
            "no use yet: the fixed limits stay"
        );
        assert_eq!((r.tier1, r.tier2), (2, 6));
        // Focused mode only: 10 uses at LBD 3, 30 at LBD 7, 50 at LBD 9, 10 at LBD 200
        // (counted at the last bucket). Stable mode has none, so both limits come from these.
        for (lbd, n) in [(3, 10), (7, 30), (9, 50), (200, 10)] {
            for _ in 0..n {
                r.note_use(lbd, false);
            }
        }
        assert!(r.retier((0.5, 0.9), fixed));
        assert_eq!((r.tier1, r.tier2), (9, 9), "50% reached at LBD 9, 90% too");
        r.retier((0.3, 0.95), fixed);
        assert_eq!((r.tier1, r.tier2), (7, 127));
        r.retier((0.0, 0.0), fixed);
        assert_eq!(
            (r.tier1, r.tier2),
            fixed,
            "a share of 0 keeps the fixed limits"
        );
        r.retier((0.95, 0.0), fixed);
        assert_eq!(
            (r.tier1, r.tier2),
            (127, 127),
            "tier 2 is never below tier 1"
        );
        // Stable mode's uses, at higher LBDs, set tier 2 and leave tier 1 to focused mode.
        for (lbd, n) in [(12, 60), (20, 40)] {
            for _ in 0..n {
                r.note_use(lbd, true);
            }
        }
        r.retier((0.5, 0.9), fixed);
        assert_eq!((r.tier1, r.tier2), (9, 20));
    }
}
