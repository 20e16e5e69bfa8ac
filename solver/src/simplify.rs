//! Level-0 simplification and garbage collection.
//!
//! When new level-0 units have been found since the last round, clauses satisfied at level 0
//! are deleted and false literals removed from the rest (MiniSat's `simplify`, Eén & Sörensson
//! 2003). Garbage collection removes the watches of deleted clauses and compacts the arena
//! (see `clause.rs`) when at least a fifth of it is wasted.

use crate::clause::{Arena, NO_REASON};
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE};

impl Solver {
    /// Whether a level-0 simplification round would find something new.
    pub(crate) fn simplifying(&self) -> bool {
        self.opts.simplify
            && self.decision_level() == 0
            && self.trail.len() > self.simplify_assigned
    }

    /// Removes satisfied clauses and false literals at level 0. Pre: level 0, propagated.
    pub(crate) fn simplify(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        debug_assert_eq!(self.qhead, self.trail.len());
        self.simplify_assigned = self.trail.len();
        for list in 0..2 {
            let mut cs = std::mem::take(if list == 0 {
                &mut self.originals
            } else {
                &mut self.learnts
            });
            cs.retain(|&c| {
                if self.arena.is_deleted(c) {
                    return false;
                }
                let lits = self.arena.lits(c);
                if lits.iter().any(|&l| self.vals[l.code()] == L_TRUE) {
                    // Level-0 reasons are never needed again (analysis skips level 0).
                    // Not logged in the proof: the clause has a level-0 literal (proof.rs).
                    self.arena.delete(c);
                    self.stats.simplified += 1;
                    return false;
                }
                true
            });
            if list == 0 {
                self.originals = cs;
            } else {
                self.learnts = cs;
            }
        }
        // Level-0 reasons point at clauses that may be deleted above: forget them.
        for i in 0..self.trail.len() {
            self.reason[self.trail[i].var().index()] = NO_REASON;
        }
        self.collect_garbage_forced();
        // Now no watch refers to a deleted clause: strip false literals (watched ones are
        // never false at level 0 after full propagation, except in satisfied clauses, gone).
        for list in 0..2 {
            let cs = if list == 0 {
                self.originals.clone()
            } else {
                self.learnts.clone()
            };
            for c in cs {
                let len = self.arena.len(c);
                let mut j = 0;
                for k in 0..len {
                    let l = self.arena.lits(c)[k];
                    if self.vals[l.code()] != L_FALSE {
                        self.arena.lits_mut(c)[j] = l;
                        j += 1;
                    }
                }
                debug_assert!(
                    j >= 2,
                    "a clause with under two unassigned literals at level 0 after propagation"
                );
                if j < len {
                    // Positions 0 and 1 are unchanged (watched literals are not false).
                    // The old clause has level-0 literals, so its deletion is not logged.
                    if self.proof.is_some() {
                        let new = self.arena.lits(c)[..j].to_vec();
                        self.proof_add(&new);
                    }
                    self.arena.shrink(c, j);
                }
            }
        }
    }

    /// Collects garbage when at least a fifth of the arena is wasted.
    pub(crate) fn collect_garbage(&mut self) {
        // Watches of deleted clauses must go now (invariant 4 of watch.rs).
        if self.arena.wasted() * 5 >= self.arena.size() {
            self.collect_garbage_forced();
        } else {
            self.sweep_watches();
        }
    }

    fn sweep_watches(&mut self) {
        let arena = &self.arena;
        for ws in self.watches.iter_mut() {
            ws.retain(|w| !arena.is_deleted(w.cref()));
        }
    }

    /// Removes watches of deleted clauses and compacts the arena, relocating every reference
    /// (watches, reasons, clause lists) — in watch order, for locality.
    pub(crate) fn collect_garbage_forced(&mut self) {
        self.stats.collections += 1;
        let mut to = Arena::with_capacity(self.arena.size() - self.arena.wasted());
        for code in 0..self.watches.len() {
            let mut ws = std::mem::take(&mut self.watches[code]);
            ws.retain(|w| !self.arena.is_deleted(w.cref()));
            for w in ws.iter_mut() {
                let new = self.arena.relocate(w.cref(), &mut to);
                *w = crate::watch::Watch::new(w.blocker, new, w.is_binary());
            }
            self.watches[code] = ws;
        }
        for i in 0..self.trail.len() {
            let v = self.trail[i].var().index();
            let r = self.reason[v];
            if r != NO_REASON {
                if self.arena.is_deleted(r) {
                    // Only level-0 reasons can be deleted (simplify); analysis never reads them.
                    debug_assert_eq!(self.level[v], 0);
                    self.reason[v] = NO_REASON;
                } else {
                    self.reason[v] = self.arena.relocate(r, &mut to);
                }
            }
        }
        for list in 0..2 {
            let mut cs = std::mem::take(if list == 0 {
                &mut self.originals
            } else {
                &mut self.learnts
            });
            cs.retain(|&c| !self.arena.is_deleted(c));
            for c in cs.iter_mut() {
                *c = self.arena.relocate(*c, &mut to);
            }
            if list == 0 {
                self.originals = cs;
            } else {
                self.learnts = cs;
            }
        }
        self.arena = to;
    }
}
