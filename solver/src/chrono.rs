//! Chronological backtracking: after a conflict whose learned clause would undo many decision
//! levels, undo only the conflict's own level and assign the clause's asserting literal at the
//! level it really has, below the levels that were kept.
//!
//! Why: a backjump over hundreds of levels throws away assignments that the search mostly
//! rebuilds at once, paying the propagations again (trail reuse on restarts, `restart.rs`, saves
//! the same work at restarts only). Nadel & Ryvchin, "Chronological backtracking" (SAT 2018),
//! introduced it; Möhle & Biere, "Backing backtracking" (SAT 2019), gave the invariants that keep
//! it sound and simple, which CaDiCaL and Kissat follow: a literal's level is the highest level
//! of its reason's other literals, not the current one, so the trail is no longer sorted by
//! level (`trail.rs` invariant 7), and
//! - propagation computes that level while the trail holds an out-of-order literal
//!   (`propagate.rs`; in order, the current level is the answer and nothing is computed);
//! - a backtrack keeps the out-of-order literals of the levels it keeps and propagates them
//!   again (`Trail::undo_to`);
//! - a conflict may then lie below the current level, or have a single literal on its highest
//!   level. Before analysis, `out_of_order_conflict` below moves the clause's two highest-level
//!   literals to its watched positions (the others would be left watching false literals under
//!   unassigned ones after the backtrack), backtracks to the conflict's level, and in the second
//!   case assigns the single literal, which the clause implies on its second-highest level (a
//!   "missed lower implication"), without learning anything.
//!
//! When: Kissat's rule (`chrono`, `chronolevels` = 100) — when the learned clause's jump would
//! undo more than `chrono_levels` levels. Learned units always go back to level 0.
//!
//! Deviations: a literal that only level-0 literals imply goes to level 0 by a full backtrack,
//! never out of order (`trail.rs` invariant 7), so every `backtrack(0)` leaves a propagated
//! level 0 and the inprocessing rounds that start there see no difference. Off while an external
//! propagator is connected: its interface speaks of levels being backtracked in order
//! (`external.rs`).
//!
//! Proofs: nothing new. The learned clauses are the same 1UIP clauses (RUP); a missed lower
//! implication adds no clause; a conflict on level 0 is the empty clause by unit propagation.

#![forbid(unsafe_code)]

use crate::clause::{CRef, is_clause};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE};

/// What a conflict on an out-of-order trail leaves to do (`Solver::out_of_order_conflict`).
pub(crate) enum OutOfOrder {
    /// Analyse it as usual: the trail is now on the conflict's level.
    Analyze,
    /// The conflict was a missed implication, now assigned: go on propagating.
    Implied,
    /// Every literal of the conflict is false on level 0: the formula is unsatisfiable.
    Refuted,
}

impl Solver {
    /// Whether the learned clause's backjump to `jump` should be only one level down instead
    /// (module doc): chronological backtracking on, no external propagator, not a unit, and
    /// more than `chrono_levels` levels to undo.
    #[inline]
    pub(crate) fn backtracking_chronologically(&self, jump: u32) -> bool {
        self.opts.chrono
            && jump > 0
            && self.external.is_none()
            && (self.trail.decision_level() - jump) as u64 > self.opts.chrono_levels
    }

    /// The level a learned clause asserting on `jump` sends the search back to.
    #[inline]
    pub(crate) fn backtrack_level(&mut self, jump: u32) -> u32 {
        if self.backtracking_chronologically(jump) {
            self.stats.chrono_backtracks += 1;
            self.trail.decision_level() - 1
        } else {
            jump
        }
    }

    /// Prepares `conflict`, found on a trail with out-of-order literals, for analysis (module
    /// doc): its two highest-level literals watched, the trail back on its highest level, and
    /// a single literal on that level assigned on the level its other literals imply it.
    ///
    /// Pre: every literal of `conflict` is false; the current level is above 0. Post for
    /// `Analyze`: at least two literals of `conflict` are on the current level.
    pub(crate) fn out_of_order_conflict(&mut self, conflict: CRef) -> OutOfOrder {
        let (top, count, second) = self.watch_highest(conflict);
        if top == 0 {
            return OutOfOrder::Refuted;
        }
        if top < self.trail.decision_level() {
            self.backtrack(top);
        }
        if count > 1 {
            return OutOfOrder::Analyze;
        }
        // A missed lower implication: the clause is unit on `second` once `top` is undone.
        self.stats.chrono_implied += 1;
        let target = if second == 0 || !self.backtracking_chronologically(second) {
            second
        } else {
            self.stats.chrono_backtracks += 1;
            top - 1
        };
        self.backtrack(target);
        let implied = self.arena.lits(conflict)[0];
        self.trail.assign_at(implied, conflict, second);
        OutOfOrder::Implied
    }

    /// Puts the two highest-level literals of the false clause `c` at its watched positions,
    /// the highest first, and returns `(highest level, literals on it, second-highest level
    /// among the others)`; the last is 0 for a clause with one literal above level 0.
    fn watch_highest(&mut self, c: CRef) -> (u32, usize, u32) {
        let lits = self.arena.lits(c);
        let level = |k: usize| self.trail.level[lits[k].var().index()];
        let mut first = 0;
        for k in 1..lits.len() {
            if level(k) > level(first) {
                first = k;
            }
        }
        let top = level(first);
        let count = (0..lits.len()).filter(|&k| level(k) == top).count();
        let mut second = usize::from(first == 0);
        for k in 0..lits.len() {
            if k != first && level(k) > level(second) {
                second = k;
            }
        }
        let below = level(second);
        if first == 0 && second == 1 {
            return (top, count, below);
        }
        // A binary clause watches both literals, and swapping the two watched ones of a longer
        // clause keeps its watches; otherwise its watches move.
        let rewatch = lits.len() > 2 && (first > 1 || second > 1);
        if rewatch {
            self.watches.detach(&self.arena, c);
        }
        let m = self.arena.lits_mut(c);
        m.swap(0, first);
        // The swap moved position 0 to `first`.
        let second = if second == 0 { first } else { second };
        m.swap(1, second);
        if rewatch {
            self.watches.attach(&self.arena, c);
        }
        (top, count, below)
    }

    /// Debug builds: the trail's invariants that chronological backtracking bends
    /// (`trail.rs` invariants 3 and 7), checked with the reasons: every implied literal is
    /// true, in its reason, and above each other literal of it on the trail, whose levels are
    /// at most its own. Called after every chronological backtrack and out-of-order conflict.
    pub(crate) fn debug_check_chrono(&self) {
        if !cfg!(debug_assertions) {
            return;
        }
        self.trail.debug_check();
        let trail = &self.trail;
        for (i, &l) in trail.lits.iter().enumerate() {
            let v = l.var().index();
            debug_assert_eq!(trail.value(l), L_TRUE);
            let r = trail.reason[v];
            if trail.level[v] == 0 || !is_clause(r) {
                continue;
            }
            let lits = self.arena.lits(r);
            debug_assert!(
                lits.contains(&l),
                "trail invariant 3: the reason holds its literal"
            );
            for &q in lits.iter().filter(|&&q| q != l) {
                let qv = q.var().index();
                debug_assert_eq!(trail.value(q), L_FALSE, "trail invariant 3: a false reason");
                debug_assert!(
                    trail.level[qv] <= trail.level[v],
                    "trail invariant 3: a reason literal above its implied literal's level"
                );
                debug_assert!(
                    trail.level[qv] == 0 || (trail.pos[qv] as usize) < i,
                    "trail invariant 3: a reason literal later on the trail"
                );
            }
        }
    }
}
