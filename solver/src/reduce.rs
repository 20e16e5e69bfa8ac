//! Learned-clause database reduction, in three tiers by LBD.
//!
//! Tier 1 ("core", LBD ≤ `reduce_tier1_glue`) is kept forever; tier 2 (LBD ≤
//! `reduce_tier2_glue`) is kept while it was used since the previous reduction; the local tier
//! is sorted by (LBD, activity) and its worse `reduce_fraction` deleted, sparing clauses used
//! since the last reduction. Reductions run every `reduce_interval` conflicts, the interval
//! growing by `reduce_increment` each time (glucose's linear schedule).
//!
//! Audemard & Simon (IJCAI 2009) for LBD-based deletion; Oh, "Improving implementation of SAT
//! competitions 2017–2019 winners" (SAT 2020 — the three-tier scheme of COMiniSatPS/MapleLCM).

use crate::clause::CRef;
use crate::solver::Solver;

impl Solver {
    pub(crate) fn reducing(&self) -> bool {
        self.stats.conflicts >= self.reduce_limit
    }

    /// Whether clause `c` is the reason of its first (or, for binaries, either) literal.
    pub(crate) fn locked(&self, c: CRef) -> bool {
        let lits = self.arena.lits(c);
        let n = if lits.len() == 2 { 2 } else { 1 };
        lits[..n].iter().any(|&l| {
            let v = l.var().index();
            self.reason[v] == c && self.lit_value(l) == crate::types::L_TRUE
        })
    }

    /// Deletes part of the local tier (see the module doc), then collects garbage.
    pub(crate) fn reduce(&mut self) {
        self.stats.reductions += 1;
        self.reduce_count += 1;
        let tier1 = self.opts.reduce_tier1_glue as u32;
        let tier2 = self.opts.reduce_tier2_glue as u32;
        let mut candidates: Vec<CRef> = Vec::new();
        for i in 0..self.learnts.len() {
            let c = self.learnts[i];
            if self.arena.is_deleted(c) {
                continue;
            }
            let lbd = self.arena.lbd(c);
            let used = self.arena.used(c);
            if used > 0 {
                self.arena.set_used(c, used - 1);
            }
            if lbd <= tier1 || self.arena.len(c) == 2 {
                continue;
            }
            if used > 0 && lbd <= tier2 {
                continue;
            }
            if used > 0 {
                continue;
            }
            if self.locked(c) {
                continue;
            }
            candidates.push(c);
        }
        // Worst first: high LBD, then low activity; offsets break ties (deterministic).
        candidates.sort_by(|&a, &b| {
            let (la, lb) = (self.arena.lbd(a), self.arena.lbd(b));
            lb.cmp(&la)
                .then_with(|| {
                    self.arena
                        .activity(a)
                        .partial_cmp(&self.arena.activity(b))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .then_with(|| a.cmp(&b))
        });
        let remove = (candidates.len() as f64 * self.opts.reduce_fraction) as usize;
        for &c in &candidates[..remove] {
            self.proof_delete_clause(c);
            self.arena.delete(c);
            self.stats.deleted += 1;
        }
        self.learnts.retain(|&c| !self.arena.is_deleted(c));
        self.collect_garbage();
        self.vivify_pending = true;
        self.reduce_limit = self.stats.conflicts + self.reduce_interval_now();
    }

    /// Conflicts until the next reduction: `reduce_interval` · √(reductions so far + 1) plus
    /// `reduce_increment` per reduction (Kissat's square-root schedule when the increment is 0,
    /// glucose's linear one when it is positive).
    pub(crate) fn reduce_interval_now(&self) -> u64 {
        let k = self.reduce_count as f64 + 1.0;
        (self.opts.reduce_interval as f64 * k.sqrt()) as u64
            + self.opts.reduce_increment * self.reduce_count
    }
}
