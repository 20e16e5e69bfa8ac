//! Conflict analysis: the first unique implication point (1UIP) learned clause, its LBD, and
//! the bumping that drives the decision heuristic and the clause database.
//!
//! 1UIP learning: Marques-Silva & Sakallah, GRASP (IEEE TC 1999); Zhang et al., "Efficient
//! conflict driven learning" (ICCAD 2001). LBD ("glue"): Audemard & Simon, "Predicting learnt
//! clauses quality in modern SAT solvers" (IJCAI 2009). EVSIDS bumping: Moskewicz et al.
//! (DAC 2001) with MiniSat's exponential increments. Where ours differs: the LBD of a learned
//! clause used as a reason is recomputed and lowered on the fly (glucose's dynamic LBD
//! update), which is what promotes clauses between the tiers in `reduce.rs`.

use crate::clause::{CRef, NO_REASON};
use crate::solver::Solver;
use crate::types::{L_FALSE, Lit};

impl Solver {
    /// Analyses `conflict` into `self.learnt` and returns `(backtrack level, LBD)`.
    ///
    /// Pre: the current decision level is above 0 and every literal of `conflict` is false.
    /// Post: `learnt[0]` is the asserting literal (the negation of the 1UIP); `learnt[1]`, if
    /// any, has the highest level among the rest, which is the returned backtrack level.
    pub(crate) fn analyze(&mut self, mut conflict: CRef) -> (u32, u32) {
        debug_assert!(self.decision_level() > 0);
        self.learnt.clear();
        self.learnt.push(Lit::default()); // placeholder for the asserting literal
        let current = self.decision_level();
        let mut open = 0usize; // literals of the current level still to resolve
        let mut index = self.trail.len();
        let mut pivot: Option<Lit> = None;
        loop {
            debug_assert_ne!(conflict, NO_REASON);
            if self.arena.is_learned(conflict) {
                self.bump_clause(conflict);
            }
            let len = self.arena.len(conflict);
            for k in 0..len {
                let q = self.arena.lits(conflict)[k];
                if pivot.is_some_and(|p| p.var() == q.var()) {
                    continue;
                }
                let v = q.var().index();
                if self.seen[v] != 0 || self.level[v] == 0 {
                    continue;
                }
                debug_assert_eq!(self.lit_value(q), L_FALSE);
                self.seen[v] = 1;
                self.bump_var(v);
                if self.level[v] >= current {
                    open += 1;
                } else {
                    self.learnt.push(q);
                }
            }
            // The next literal of the current level to resolve on, walking the trail down.
            loop {
                index -= 1;
                if self.seen[self.trail[index].var().index()] != 0 {
                    break;
                }
            }
            let p = self.trail[index];
            let v = p.var().index();
            self.seen[v] = 0;
            open -= 1;
            pivot = Some(p);
            if open == 0 {
                self.learnt[0] = !p;
                break;
            }
            conflict = self.reason[v];
        }
        self.stats.learned_literals += self.learnt.len() as u64;
        self.minimize_learnt();
        for k in 1..self.learnt.len() {
            self.seen[self.learnt[k].var().index()] = 0;
        }
        // Put the highest-level remaining literal at position 1 (watch invariant for learnt).
        let mut bt = 0;
        if self.learnt.len() > 1 {
            let mut best = 1;
            for k in 2..self.learnt.len() {
                if self.level[self.learnt[k].var().index()]
                    > self.level[self.learnt[best].var().index()]
                {
                    best = k;
                }
            }
            self.learnt.swap(1, best);
            bt = self.level[self.learnt[1].var().index()];
        }
        let lbd = self.compute_lbd_of_learnt();
        (bt, lbd)
    }

    /// The level a literal at decision level `lv` counts as in an LBD. With
    /// `lbd_merge_assumptions`, the levels of the assumptions (1..=their number) count as one:
    /// an incremental user such as OLL assumes hundreds of literals, one level each, and a
    /// learned clause over many of them is no less useful for it (Audemard, Lagniez & Simon,
    /// "Improving Glucose for incremental SAT solving with assumptions", SAT 2013, leave the
    /// assumption literals out of the LBD for the same reason).
    #[inline]
    fn lbd_level(&self, lv: u32) -> usize {
        if self.opts.lbd_merge_assumptions && lv >= 1 && (lv as usize) <= self.assumptions.len() {
            1
        } else {
            lv as usize
        }
    }

    /// Number of distinct decision levels among the literals of `self.learnt`.
    fn compute_lbd_of_learnt(&mut self) -> u32 {
        self.stamp += 1;
        let stamp = self.stamp;
        let mut lbd = 0;
        for k in 0..self.learnt.len() {
            let lv = self.lbd_level(self.level[self.learnt[k].var().index()]);
            if self.level_stamp[lv] != stamp {
                self.level_stamp[lv] = stamp;
                lbd += 1;
            }
        }
        lbd
    }

    /// Number of distinct decision levels among the literals of clause `c`.
    pub(crate) fn compute_lbd(&mut self, c: CRef) -> u32 {
        self.stamp += 1;
        let stamp = self.stamp;
        let mut lbd = 0;
        for k in 0..self.arena.len(c) {
            let lv = self.lbd_level(self.level[self.arena.lits(c)[k].var().index()]);
            if self.level_stamp[lv] != stamp {
                self.level_stamp[lv] = stamp;
                lbd += 1;
            }
        }
        lbd
    }

    /// A learned clause took part in a conflict: mark it used, raise its activity, and lower its
    /// LBD if the current assignment shows a smaller one.
    fn bump_clause(&mut self, c: CRef) {
        self.arena.set_used(
            c,
            if self.arena.lbd(c) <= self.opts.reduce_tier2_glue as u32 {
                2
            } else {
                1
            },
        );
        let a = self.arena.activity(c) + self.cla_inc;
        self.arena.set_activity(c, a);
        if a > 1e20 {
            for i in 0..self.learnts.len() {
                let l = self.learnts[i];
                let scaled = self.arena.activity(l) * 1e-20;
                self.arena.set_activity(l, scaled);
            }
            self.cla_inc *= 1e-20;
        }
        let old = self.arena.lbd(c);
        if old > self.opts.reduce_tier1_glue as u32 {
            let new = self.compute_lbd(c);
            if new + 1 < old {
                self.arena.set_lbd(c, new);
            }
        }
    }

    /// EVSIDS: raise `v`'s activity by the current increment (rescaling near overflow).
    pub(crate) fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.var_inc;
        if self.activity[v] > 1e100 {
            for a in self.activity.iter_mut() {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// Decays every activity by growing the increment (the exponential half of EVSIDS).
    pub(crate) fn decay_activities(&mut self) {
        self.var_inc /= self.opts.vsids_decay;
        self.cla_inc /= 0.999;
    }

    /// The assumption `p` is false: collect into `self.failed` the assumptions that imply ¬p,
    /// together with `p` itself (MiniSat's `analyzeFinal`).
    ///
    /// Post: `failed` ⊆ assumptions, and clauses ∧ failed is unsatisfiable.
    pub(crate) fn analyze_final(&mut self, p: Lit) {
        self.failed.clear();
        self.failed.push(p);
        let v0 = p.var().index();
        if self.level[v0] == 0 {
            return;
        }
        self.seen[v0] = 1;
        let mut failed = std::mem::take(&mut self.failed);
        self.collect_marked_decisions(&mut failed);
        self.failed = failed;
    }

    /// Walks the trail down from its top and clears the `seen` marks on the way: a marked
    /// decision (above level 0; below the search, an assumption) goes to `out`, a marked
    /// implied literal marks the other literals of its reason (above level 0); `out` ends
    /// sorted and without duplicates. Pre: only variables assigned above level 0 are marked.
    pub(crate) fn collect_marked_decisions(&mut self, out: &mut Vec<Lit>) {
        let start = self.trail_lim.first().copied().unwrap_or(self.trail.len());
        for i in (start..self.trail.len()).rev() {
            let q = self.trail[i];
            let v = q.var().index();
            if self.seen[v] == 0 {
                continue;
            }
            self.seen[v] = 0;
            let r = self.reason[v];
            if r == NO_REASON {
                out.push(q);
            } else {
                for k in 0..self.arena.len(r) {
                    let x = self.arena.lits(r)[k].var().index();
                    if x != v && self.level[x] > 0 {
                        self.seen[x] = 1;
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}
