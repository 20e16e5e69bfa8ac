//! Level-0 simplification and garbage collection.
//!
//! When new level-0 units have been found since the last round, clauses satisfied at level 0
//! are deleted and false literals removed from the rest (MiniSat's `simplify`, Eén & Sörensson
//! 2003). Garbage collection removes the watches of deleted clauses and compacts the arena
//! (see `clause.rs`) when at least `collect_waste_percent` percent of it is wasted.

#![forbid(unsafe_code)]

use crate::clause::{NO_REASON, is_clause};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE};

/// The simplification schedule: written only here.
#[derive(Default)]
pub(crate) struct Simplify {
    /// Trail length (all of it level 0) at the previous round: a longer level-0 trail has
    /// something new to simplify with.
    assigned: usize,
}

impl Simplify {
    /// The level-0 trail shrank to `len` (`factor.rs` forgets extension variables' units): a
    /// round is due again once it grows past that.
    pub(crate) fn forget_beyond(&mut self, len: usize) {
        self.assigned = self.assigned.min(len);
    }
}

impl Solver {
    /// Whether a level-0 simplification round would find something new.
    pub(crate) fn simplifying(&self) -> bool {
        self.opts.simplify
            && self.trail.decision_level() == 0
            && self.trail.len() > self.simplify.assigned
    }

    /// Removes satisfied clauses and false literals at level 0. Pre: level 0, propagated.
    pub(crate) fn simplify(&mut self) {
        debug_assert_eq!(self.trail.decision_level(), 0);
        debug_assert_eq!(self.trail.qhead, self.trail.len());
        self.simplify.assigned = self.trail.len();
        self.scores.retire_fixed(&self.trail);
        let Solver {
            arena,
            clauses,
            trail,
            stats,
            ..
        } = self;
        for cs in [&mut clauses.originals, &mut clauses.learnts] {
            cs.retain(|&c| {
                if arena.is_deleted(c) {
                    return false;
                }
                if arena.lits(c).iter().any(|&l| trail.value(l) == L_TRUE) {
                    // Level-0 reasons are never needed again (analysis skips level 0).
                    // Not logged in the proof: the clause has a level-0 literal (proof.rs).
                    arena.delete(c);
                    stats.simplified += 1;
                    return false;
                }
                true
            });
        }
        // Level-0 reasons point at clauses that may be deleted above: forget them
        // (`trail.rs` invariant 6).
        for &l in &trail.lits {
            trail.reason[l.var().index()] = NO_REASON;
        }
        self.collect_garbage_forced();
        // Now no watch refers to a deleted clause: strip false literals (watched ones are
        // never false at level 0 after full propagation, except in satisfied clauses, gone).
        let Solver {
            arena,
            clauses,
            trail,
            proof,
            lrat,
            ..
        } = self;
        let lrat_on = proof.is_lrat();
        for &c in clauses.originals.iter().chain(&clauses.learnts) {
            let old = arena.id(c);
            let lits = arena.lits_mut(c);
            let len = lits.len();
            let mut j = 0;
            if lrat_on {
                lrat.hints.clear();
            }
            for k in 0..len {
                let l = lits[k];
                if trail.value(l) != L_FALSE {
                    lits[j] = l;
                    j += 1;
                } else if lrat_on {
                    // Its unit clause makes the literal false for the checker (`lrat.rs`).
                    lrat.hints.push(proof.unit(l.var().index()) as i64);
                }
            }
            debug_assert!(
                j >= 2,
                "a clause with under two unassigned literals at level 0 after propagation"
            );
            if j < len {
                // Positions 0 and 1 are unchanged (watched literals are not false).
                // The old clause has level-0 literals, so with DRAT its deletion is not
                // logged; LRAT deletes it by its identifier.
                if lrat_on {
                    lrat.hints.push(old as i64);
                }
                let id = proof.add(&lits[..j], &lrat.hints);
                arena.shrink(c, j);
                arena.set_id(c, id);
                if lrat_on {
                    proof.delete(&[], old, trail);
                }
            }
        }
        self.debug_check();
    }

    /// Collects garbage when at least `collect_waste_percent` percent of the arena is wasted;
    /// otherwise only sweeps the watches of deleted clauses, which must go now either way
    /// (`watch.rs` invariant 4).
    pub(crate) fn collect_garbage(&mut self) {
        if self.arena.wasted() as u64 * 100
            >= self.arena.size() as u64 * self.opts.collect_waste_percent
        {
            self.collect_garbage_forced();
        } else {
            self.watches.sweep(&self.arena);
        }
        self.debug_check();
    }

    /// Removes watches of deleted clauses and compacts the arena, relocating every reference
    /// (watches, reasons, clause lists; `clause.rs` invariant 1) — in watch order, for
    /// locality.
    pub(crate) fn collect_garbage_forced(&mut self) {
        self.stats.collections += 1;
        let mut to = self
            .arena
            .empty_like(self.arena.size() - self.arena.wasted());
        self.watches.relocate(&mut self.arena, &mut to);
        let trail = &mut self.trail;
        for &l in &trail.lits {
            let v = l.var().index();
            let r = trail.reason[v];
            if is_clause(r) {
                if self.arena.is_deleted(r) {
                    // Only level-0 reasons can be deleted (simplify); analysis never reads them.
                    debug_assert_eq!(trail.level[v], 0);
                    trail.reason[v] = NO_REASON;
                } else {
                    trail.reason[v] = self.arena.relocate(r, &mut to);
                }
            }
        }
        self.clauses.relocate(&mut self.arena, &mut to);
        self.arena = to;
    }
}
