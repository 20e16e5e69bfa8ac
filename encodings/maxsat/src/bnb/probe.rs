//! Failed literals: when the units' propagation finds no more inconsistent subsets, a
//! variable both of whose values end in a conflict (on top of the units' consequences) gives
//! the union of the two derivations as a further subset (MaxSatz's failed-literal detection,
//! Li, Manyà & Planes, JAIR 30, 2007, doi:10.1613/jair.2215).
//!
//! **Order and effort.** The variables that failed at the latest nodes are probed first
//! (`probe_order`, move to front): on t5pm3 that took the search alone from 1.52G to 0.65G
//! clause visits (50k → 22k nodes). A literal is probed only when it occurs negated in an
//! undecided clause with two literals left (`worth_probing`: otherwise it propagates nothing),
//! a variable not at all when a probe at this node already showed one of its literals cannot
//! fail, and the whole step is skipped where it cannot close the gap: past twice its average
//! yield of subsets per node (s3v70c700: 0.36G → 0.28G clause visits).

use grim_solver::{Lit, Var};

use super::{Db, Sim};

use super::{BranchAndBound, NONE};

/// Whether `l` occurs negated in an undecided live clause with exactly two literals left (so
/// that making `l` true propagates something).
fn worth_probing(db: &Db, sim: &mut Sim, l: Lit) -> bool {
    sim.ticks += (db.occ_len[(!l).code()] as usize + db.added_occ[(!l).code()].len()) as u64;
    let original = db.active(!l).iter().any(|&k| {
        let c = db.clause_of[k as usize] as usize;
        sim.open_of(db, c) == 2 && !sim.is_dead(db, c)
    });
    original
        || db.added_occ[(!l).code()].iter().any(|&c| {
            let c = c as usize;
            db.sat[c] == 0 && sim.open_of(db, c) == 2 && !sim.is_dead(db, c)
        })
}

impl BranchAndBound {
    /// Failed literals probed on top of the units' consequences (see the file's doc), each
    /// subset found adding its weight to `lb`; returns the bound reached (`u64::MAX` when the
    /// hard clauses alone are refuted). Skipped where it cannot close the gap to `ub`.
    pub(super) fn probe_failed_literals(&mut self, lb: u64, ub: u64) -> u64 {
        // Probing costs more than the propagation of the units; skip it where it cannot
        // close the gap: past twice the number of subsets it found at a node, on average.
        let gap = ub - (self.cost + self.empty).saturating_add(lb);
        if gap as f64 > 3.0f64.max(2.0 * self.probe_yield) {
            return lb;
        }
        // Failed literals: a variable whose two values both end in a conflict. The variables
        // that failed at the latest nodes are probed first (`probe_order`, move to front).
        let order = std::mem::take(&mut self.probe_order);
        self.hits.clear();
        let before = self.hits.len();
        let lb = self.probe_all(&order, lb, ub);
        let found = (self.hits.len() - before) as f64;
        self.probe_yield += (found - self.probe_yield) / 64.0;
        if !self.hits.is_empty() {
            let mut next = Vec::with_capacity(order.len());
            for &v in &self.hits {
                self.hit_mark[v as usize] = self.sim.node;
            }
            next.extend_from_slice(&self.hits);
            next.extend(
                order
                    .iter()
                    .copied()
                    .filter(|&v| self.hit_mark[v as usize] != self.sim.node),
            );
            self.probe_order = next;
        } else {
            self.probe_order = order;
        }
        lb
    }

    fn probe_all(&mut self, order: &[u32], mut lb: u64, ub: u64) -> u64 {
        let reached = |s: &Self, lb: u64| (s.cost + s.empty).saturating_add(lb) >= ub;
        for &v in order {
            let v = v as usize;
            let (db, sim) = (&self.db, &mut self.sim);
            if db.value[2 * v] != 0 || sim.val[2 * v] != 0 {
                continue;
            }
            let Some(var) = Var::new(v as u32) else {
                break;
            };
            let node = sim.node;
            if sim.no_fail[2 * v] == node || sim.no_fail[2 * v + 1] == node {
                continue;
            }
            if !worth_probing(db, sim, var.pos()) || !worth_probing(db, sim, var.neg()) {
                continue;
            }
            let base = sim.trail.len();
            let mut failed = true;
            for l in [var.pos(), var.neg()] {
                // Each derivation is collected on its own (a clause may serve both, with
                // different reasons); the union is deduplicated below.
                sim.mark_stamp += 1;
                sim.assign(l, NONE);
                let conflict = sim.propagate(db, base);
                if let Some(c) = conflict {
                    sim.collect(db, c);
                } else {
                    // Every literal this probe set cannot fail either (it would make `l`
                    // fail): its variable is not probed again at this node. Taking clauses
                    // away keeps it so.
                    for &x in &sim.trail[base..] {
                        sim.no_fail[x.code()] = node;
                    }
                }
                sim.undo(base);
                if conflict.is_none() {
                    failed = false;
                    break;
                }
            }
            if !failed {
                sim.subset.clear();
                continue;
            }
            sim.subset.sort_unstable();
            sim.subset.dedup();
            self.hits.push(v as u32);
            let Some(w) = sim.consume(db) else {
                return u64::MAX;
            };
            lb = lb.saturating_add(w);
            if reached(self, lb) {
                return lb;
            }
            // The subset may have used the units' consequences: derive them again without it
            // (no conflict can appear: clauses were only taken away).
            let sim = &mut self.sim;
            sim.undo(0);
            if self.propagate_units().is_some() {
                debug_assert!(false, "taking clauses away made a conflict");
                return lb;
            }
        }
        lb
    }
}
