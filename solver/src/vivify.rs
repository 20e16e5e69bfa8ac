//! Vivification of learned and irredundant clauses: shorten a clause by propagating the
//! negation of its literals one at a time.
//!
//! For a clause `l1 ∨ … ∨ lk`, assign `¬l1`, propagate, `¬l2`, propagate, … (with the clause
//! itself detached). If some `li` becomes true, `l1 ∨ … ∨ l(i-1) ∨ li` is implied; if some `li`
//! becomes false it is dropped; if propagation conflicts after `¬li`, `l1 ∨ … ∨ li` is implied.
//! Each result is a reverse-unit-propagation consequence, so DRAT-valid; its LRAT hints are
//! the walk of `lrat.rs` from the clause that ended the loop (the conflict, the reason of the
//! literal found true, or the old clause when only false literals were dropped), taken before
//! the decisions are undone.
//!
//! Piette, Hamadi & Saïs, "Vivifying propositional clausal formulae" (ECAI 2008); applied to
//! learned clauses by Luo, Li, Xiao, Manyà & Lü (IJCAI 2017) and in CaDiCaL/Kissat. Ours runs
//! after every reduction on the tier-1/tier-2 learned clauses not yet vivified, lowest LBD
//! first, then on irredundant clauses not yet vivified, shortest first, within
//! `vivify_effort` × the propagations since the previous round, of which the irredundant
//! clauses get the share `vivify_irredundant_share` (CaDiCaL vivifies irredundant clauses
//! too; unlike it, ours tries each clause once and keeps the clause's literal order).

#![forbid(unsafe_code)]

use crate::clause::{CRef, NO_REASON};
use crate::inprocess::effort_since;
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, Lit};

/// The vivification schedule: written only here (`reduce.rs` calls `request` after each
/// reduction).
#[derive(Default)]
pub(crate) struct Vivify {
    /// A reduction happened since the last vivification round.
    pending: bool,
    /// Propagation count at the previous vivification round (the budget is relative to it).
    props_mark: u64,
}

impl Vivify {
    /// A reduction happened: the next round is due.
    pub(crate) fn request(&mut self) {
        self.pending = true;
    }
}

impl Solver {
    /// Whether a vivification round is due (it follows every reduction).
    pub(crate) fn vivifying(&self) -> bool {
        self.opts.vivify_effort > 0.0 && self.vivify.pending
    }

    /// One round of vivification (module doc). Leaves the solver at level 0.
    pub(crate) fn vivify(&mut self) {
        self.vivify.pending = false;
        self.stats.vivify_rounds += 1;
        if !self.start_at_root() {
            return;
        }
        let budget = effort_since(
            self.vivify.props_mark,
            self.stats.propagations,
            self.opts.vivify_effort,
        );
        let share = self.opts.vivify_irredundant_share;
        let learned_budget = (budget as f64 * (1.0 - share)) as u64;
        let tier2 = self.reduce.tier2();
        let mut candidates = self.candidates(&self.clauses.learnts, |c| self.arena.lbd(c) <= tier2);
        candidates.sort_by_key(|&c| (self.arena.lbd(c), self.arena.len(c), c));
        self.vivify_clauses(&candidates, learned_budget);
        if share > 0.0 && self.ok {
            // Irredundant clauses, shortest first (they shorten most often relative to their
            // cost), each tried once in its life.
            let mut candidates = self.candidates(&self.clauses.originals, |_| true);
            candidates.sort_by_key(|&c| (self.arena.len(c), c));
            self.vivify_clauses(&candidates, budget - learned_budget);
        }
        self.vivify.props_mark = self.stats.propagations;
        self.clauses.retain_live(&self.arena);
        // Deleted clauses have no watches (detached above), so no sweep is needed.
    }

    /// The clauses of `list` a round may try: live, longer than binary, not yet vivified,
    /// and passing `keep` (the tier filter for learned clauses).
    fn candidates(&self, list: &[CRef], keep: impl Fn(CRef) -> bool) -> Vec<CRef> {
        let arena = &self.arena;
        list.iter()
            .copied()
            .filter(|&c| {
                !arena.is_deleted(c) && !arena.is_vivified(c) && arena.len(c) > 2 && keep(c)
            })
            .collect()
    }

    /// Vivifies `candidates` in order within `budget` propagations. Pre: level 0, propagated.
    fn vivify_clauses(&mut self, candidates: &[CRef], budget: u64) {
        let start_props = self.stats.propagations;
        let mut lits: Vec<Lit> = Vec::new();
        let mut kept: Vec<Lit> = Vec::new();
        for &c in candidates {
            if self.stats.propagations - start_props > budget || !self.ok {
                break;
            }
            self.arena.set_vivified(c);
            lits.clear();
            lits.extend_from_slice(self.arena.lits(c));
            if lits.iter().any(|&l| self.trail.value(l) == L_TRUE) {
                continue; // satisfied at level 0: simplify removes it
            }
            self.watches.detach(&self.arena, c);
            kept.clear();
            let mut shortened = false;
            // The clause the negation of `kept` falsifies (LRAT's hints start from it): the
            // reason of a literal found true, the conflict, or else `c` itself, whose dropped
            // literals propagation made false.
            let mut root = c;
            for &l in &lits {
                match self.trail.value(l) {
                    L_TRUE => {
                        // ¬(kept) implies l: kept ∨ l is the clause.
                        kept.push(l);
                        shortened = true;
                        root = self.trail.reason[l.var().index()];
                        break;
                    }
                    L_FALSE => {
                        shortened = true; // l is implied false by ¬(kept): drop it
                        continue;
                    }
                    _ => {}
                }
                kept.push(l);
                self.trail.new_decision_level();
                self.trail.assign(!l, NO_REASON);
                let conflict = self.propagate();
                if conflict != NO_REASON {
                    shortened = kept.len() < lits.len();
                    root = conflict;
                    break;
                }
            }
            if shortened && kept.len() < lits.len() && self.proof.is_lrat() {
                self.chain(&kept, root);
            }
            self.backtrack(0);
            if !shortened || kept.len() >= lits.len() {
                self.watches.attach(&self.arena, c);
                continue;
            }
            self.stats.vivified += 1;
            if !self.arena.is_learned(c) {
                self.stats.vivified_irredundant += 1;
            }
            self.stats.vivified_literals += (lits.len() - kept.len()) as u64;
            // Level-0 false literals may remain in `kept` only if they were decided, which
            // cannot happen (they were skipped as false). So `kept` has no false literal.
            // The shortened clause first, then the deletion of the old one (proof.rs).
            let id = self.proof.add(&kept, &self.lrat.hints);
            self.proof.delete(&lits, self.arena.id(c), &self.trail);
            match kept.len() {
                0 => {
                    self.ok = false;
                    self.arena.delete(c);
                }
                1 => {
                    self.arena.delete(c);
                    self.trail.assign(kept[0], NO_REASON);
                    self.proof.set_unit(kept[0].var().index(), id);
                    self.propagate_root();
                }
                n => {
                    self.arena.lits_mut(c)[..n].copy_from_slice(&kept);
                    self.arena.shrink(c, n);
                    self.arena.set_id(c, id);
                    let lbd = self.arena.lbd(c).min(n as u32 - 1);
                    self.arena.set_lbd(c, lbd);
                    self.watches.attach(&self.arena, c);
                }
            }
        }
    }
}
