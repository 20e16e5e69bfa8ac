//! Recursive learned-clause minimisation: drop a literal when its negation is implied by the
//! other literals of the clause through the implication graph.
//!
//! Sörensson & Biere, "Minimizing learned clauses" (SAT 2009), as in MiniSat 2.2's
//! `litRedundant`, including the "abstract level" filter (a bit per decision level mod 32) that
//! rejects most candidates without a graph walk. Runs on every learned clause; measured on
//! MiniSat's own figures to remove about a third of the literals on industrial instances.
//!
//! Marks in `Analysis::seen` (the invariant is `analyze.rs`'s): 1 = in the learned clause (or
//! proven redundant, kept for the walk), 2 = proven redundant during this analysis, 3 = proven
//! not redundant (a failure cache). The walk over a reason holds one slice of the arena for the
//! whole clause.

#![forbid(unsafe_code)]

use crate::analyze::{Analysis, SEEN_IN_CLAUSE};
use crate::clause::{Arena, is_clause};
use crate::shrink::SEEN_SHRUNK;
use crate::stats::Stats;
use crate::trail::Trail;
use crate::types::Lit;

pub(crate) const SEEN_REDUNDANT: u8 = 2;
pub(crate) const SEEN_FAILED: u8 = 3;

/// The abstract level of `v`: one bit for its decision level mod 32.
#[inline]
pub(crate) fn abstract_level(trail: &Trail, v: usize) -> u32 {
    1 << (trail.level[v] & 31)
}

impl Analysis {
    /// Removes redundant literals from `self.learnt[1..]` and returns the clause's abstract
    /// levels (for `shrink.rs`, which may ask [`Analysis::redundant`] about more literals).
    ///
    /// Pre: `seen[v] == 1` exactly for the variables of `learnt[1..]`, which are all false
    /// (`analyze.rs`), and `to_clear` is empty.
    /// Post: `seen[v] == 1` for the variables of the shortened clause; the other marks set
    /// here (1 on dropped literals, 2 and 3 on the walks') are listed in `to_clear`, which
    /// [`Analysis::clear_minimize_marks`] clears; until then they stay true facts about the
    /// clause (implied by it, or not) and `redundant` can use them.
    pub(crate) fn minimize(&mut self, arena: &Arena, trail: &Trail, stats: &mut Stats) -> u32 {
        self.to_clear.clear();
        if self.learnt.len() <= 1 {
            return 0;
        }
        debug_assert!(
            self.learnt[1..]
                .iter()
                .all(|l| self.seen[l.var().index()] == SEEN_IN_CLAUSE),
            "minimize.rs pre-condition: the clause's variables are marked"
        );
        let mut abstract_levels = 0u32;
        for &l in &self.learnt[1..] {
            abstract_levels |= abstract_level(trail, l.var().index());
        }
        let before = self.learnt.len();
        let mut j = 1;
        for i in 1..self.learnt.len() {
            let l = self.learnt[i];
            let v = l.var().index();
            // A decision, or an external propagation not explained yet, is not expanded.
            if !is_clause(trail.reason[v]) || !self.redundant(l, abstract_levels, arena, trail) {
                self.learnt[j] = l;
                j += 1;
            } else {
                // Dropped: its mark must be cleared below with the walk's marks.
                self.to_clear.push(l);
            }
        }
        self.learnt.truncate(j);
        stats.minimized_literals += (before - j) as u64;
        abstract_levels
    }

    /// Clears the marks minimisation (and shrinking) left, except on the clause's literals:
    /// back to the `analyze.rs` state of one mark per literal of `learnt[1..]`.
    pub(crate) fn clear_minimize_marks(&mut self) {
        for &l in &self.to_clear {
            self.seen[l.var().index()] = 0;
        }
        for &l in &self.learnt[1..] {
            self.seen[l.var().index()] = SEEN_IN_CLAUSE;
        }
        self.to_clear.clear();
    }

    /// Whether literal `p` is implied by the learned clause's other literals (DFS over
    /// reasons). `p` is a literal of the clause, or (from `shrink.rs`) a false literal outside
    /// it with a clause as its reason. Marks `SEEN_SHRUNK` (a literal a shrunken level's new
    /// literal implies) count as implied.
    pub(crate) fn redundant(
        &mut self,
        p: Lit,
        abstract_levels: u32,
        arena: &Arena,
        trail: &Trail,
    ) -> bool {
        self.stack.clear();
        self.stack.push(p);
        let top = self.to_clear.len();
        while let Some(q) = self.stack.pop() {
            let qv = q.var().index();
            let r = trail.reason[qv];
            debug_assert!(is_clause(r));
            for &x in arena.lits(r) {
                let xv = x.var().index();
                if xv == qv || trail.level[xv] == 0 {
                    continue;
                }
                match self.seen[xv] {
                    SEEN_IN_CLAUSE | SEEN_REDUNDANT | SEEN_SHRUNK => continue,
                    SEEN_FAILED => {
                        self.fail_walk(top);
                        return false;
                    }
                    _ => {}
                }
                if is_clause(trail.reason[xv]) && abstract_level(trail, xv) & abstract_levels != 0 {
                    self.seen[xv] = SEEN_REDUNDANT;
                    self.stack.push(x);
                    self.to_clear.push(x);
                } else {
                    self.fail_walk(top);
                    return false;
                }
            }
        }
        true
    }

    /// The walk from `to_clear[top..]` failed: those literals are not known redundant.
    /// Mark them as failures so later walks stop at them at once.
    fn fail_walk(&mut self, top: usize) {
        for &l in &self.to_clear[top..] {
            self.seen[l.var().index()] = SEEN_FAILED;
        }
    }
}
