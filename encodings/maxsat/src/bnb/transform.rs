//! Max-resolution of small inconsistent subsets: the subset is replaced by an empty clause of
//! its smallest weight and compensation clauses that keep the formula equivalent, for the
//! whole subtree of the node (Bonet, Levy & Manyà, AIJ 171, 2007,
//! doi:10.1016/j.artint.2007.05.001; applied to the subsets found by propagation as in
//! ahmaxsat, Abramé & Habet, JSAT 9, 2014, read to learn). The children then start from the
//! empty clause instead of finding the subset again, and the compensation clauses give further
//! subsets.
//!
//! **Which subsets.** Exactly those whose compensation clauses stay within three literals: every
//! clause of the subset has at most two open literals. MaxSatz applies a fixed set of
//! resolution patterns and ahmaxsat every subset; measured on s3v70c700, transforming cost
//! 0.26G → 0.15G clause visits (82k → 48k nodes), and transforming subsets of three open
//! literals too cost more than it saved (49k → 84k nodes). The changes go through the store's
//! log (`store.rs`: `set_weight`, `add_clause`) and are undone when the search backtracks above
//! the node; `tests.rs` checks after each one that the formula still prices every extension
//! as the instance does.

use super::store::Change;
use super::{BranchAndBound, HARD};

impl BranchAndBound {
    /// Whether the inconsistent subset in `sim.subset` (behind conflict `conflict`) is small
    /// enough to transform: every clause has at most two unassigned literals, and no weight of
    /// it was set aside at this node.
    pub(super) fn transformable(&self, _conflict: u32) -> bool {
        let (db, sim) = (&self.db, &self.sim);
        sim.subset.iter().all(|&c| {
            let c = c as usize;
            db.open[c] <= 2 && (db.weight[c] == HARD || sim.resid_stamp[c] != sim.node)
        })
    }

    /// Replaces the inconsistent subset behind `conflict` by an empty clause and compensation
    /// clauses, by max-resolution (Bonet, Levy & Manyà, AIJ 171, 2007,
    /// doi:10.1016/j.artint.2007.05.001) along the simulated implications, latest first: the
    /// conflict clause is resolved with the reason of its latest literal, the resolvent with
    /// the next, down to the empty clause. Each step takes the subset's smallest weight `m` off
    /// both premises and adds, with weight `m`, the clauses that keep the formula equivalent:
    /// for premises `x ∨ A` and `¬x ∨ B`, the clauses of `x ∨ A ∨ ¬B` and `¬x ∨ B ∨ ¬A` (a
    /// family subsumed by a hard premise is left out). The change lasts for the subtree of the
    /// node. Returns false when the empty clause came out hard (the hard clauses alone refute
    /// the node; impossible for a subset found from a soft unit, kept total).
    pub(super) fn transform(&mut self, conflict: u32) -> bool {
        let m = self
            .sim
            .subset
            .iter()
            .map(|&c| self.db.weight[c as usize])
            .filter(|&w| w != HARD)
            .min()
            .unwrap_or(0);
        if m == 0 {
            return true;
        }
        self.transformed += 1;
        let mut r = std::mem::take(&mut self.resolvent);
        r.clear();
        let c0 = conflict as usize;
        r.extend(
            self.db
                .clause(c0)
                .iter()
                .copied()
                .filter(|l| self.db.value[l.code()] == 0),
        );
        let mut r_hard = self.db.weight[c0] == HARD;
        if !r_hard {
            self.set_weight(c0, self.db.weight[c0] - m);
        }
        let mut scratch = Vec::new();
        let mut a_side = Vec::new();
        for i in (0..self.sim.trail.len()).rev() {
            if r.is_empty() {
                break;
            }
            let a = self.sim.trail[i];
            let Some(pos) = r.iter().position(|&l| l == !a) else {
                continue;
            };
            r.swap_remove(pos);
            let reason = self.sim.reason[a.var().index()] as usize;
            // B = r (without ¬a); A = the reason's other unassigned literals.
            a_side.clear();
            a_side.extend(
                self.db
                    .clause(reason)
                    .iter()
                    .copied()
                    .filter(|&l| l != a && self.db.value[l.code()] == 0),
            );
            let hard = self.db.weight[reason] == HARD;
            if !hard {
                // x ∨ A ∨ ¬B (subsumed when the reason is hard).
                for j in 0..r.len() {
                    scratch.clear();
                    scratch.push(a);
                    scratch.extend_from_slice(&a_side);
                    scratch.extend_from_slice(&r[..j]);
                    scratch.push(!r[j]);
                    self.add_clause(&mut scratch, m);
                }
                self.set_weight(reason, self.db.weight[reason] - m);
            }
            if !r_hard {
                // ¬x ∨ B ∨ ¬A (subsumed when the resolvent so far is hard).
                for j in 0..a_side.len() {
                    scratch.clear();
                    scratch.push(!a);
                    scratch.extend_from_slice(&r);
                    scratch.extend_from_slice(&a_side[..j]);
                    scratch.push(!a_side[j]);
                    self.add_clause(&mut scratch, m);
                }
            }
            r_hard &= hard;
            for &l in &a_side {
                if !r.contains(&l) {
                    r.push(l);
                }
            }
        }
        debug_assert!(
            r.is_empty(),
            "the derivation did not reach the empty clause"
        );
        self.resolvent = r;
        if r_hard {
            return false;
        }
        let at = self.trail.len() as u32;
        self.changes.push((at, Change::Empty(self.empty)));
        self.empty += m;
        true
    }
}
