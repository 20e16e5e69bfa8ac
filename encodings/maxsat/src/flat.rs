//! The instance as one normalised flat formula: the clauses of the [`Wcnf`] in one literal
//! array, each sorted and without duplicates, tautologies dropped — built once per [`Oll`]
//! and read by every technique that works on the clauses themselves rather than through the
//! engine.
//!
//! **Who reads it.** `oll.rs` turns its soft clauses into objective terms (`add_softs`);
//! `am1.rs` loads its hard clauses into the at-most-one propagator; the local search
//! (`satlike.rs`) walks it on every flip, borrowing it; the branch and bound (`bnb/store.rs`)
//! copies its arrays once, because its transformations append compensation clauses and change
//! weights for a subtree. Before, each of the four normalised the `Wcnf` on its own
//! (four copies of the same sort, dedup and tautology test — now
//! [`grim_solver::normalise_clause`]).
//!
//! **Layout and invariants.** Clause `c` is `lits[start[c]..start[c + 1]]`: the hard clauses
//! first (`0..num_hard`, in input order), then the soft clauses of positive weight (in input
//! order). Every clause is normalised ([`grim_solver::normalise_clause`]) and is no tautology.
//! An empty hard clause is kept (it is the falsifying clause: the instance has no model); an
//! empty soft clause is not a clause here: every model pays its weight, and the sum of those
//! weights is [`Flat::offset`]. Soft clauses of weight 0 cost nothing and are left out. The
//! formula never changes after [`Flat::new`].
//!
//! [`Oll`]: crate::Oll

#![forbid(unsafe_code)]

use grim_formula::Wcnf;
use grim_solver::{Lit, normalise_clause};

/// The normalised clauses of one instance (see the file's doc for the layout).
#[derive(Clone, Debug)]
pub(super) struct Flat {
    /// Variables the literals range over (at least the instance's `num_vars`).
    pub(super) num_vars: usize,
    /// The literals of every clause, clause after clause.
    pub(super) lits: Vec<Lit>,
    /// Clause `c` is `lits[start[c]..start[c + 1]]`; one entry more than there are clauses.
    pub(super) start: Vec<usize>,
    /// Hard clauses are `0..num_hard`, soft ones `num_hard..`.
    pub(super) num_hard: usize,
    /// The weight of each soft clause, indexed by `c - num_hard`.
    pub(super) soft_weight: Vec<u64>,
    /// What the empty soft clauses cost every model (saturating: the caller checked that the
    /// soft weights fit in 64 bits).
    pub(super) offset: u64,
    /// For each soft clause kept, its index in `wcnf.soft` (the VeriPB proof names selectors
    /// after the input clause they stand for).
    pub(super) soft_origin: Vec<usize>,
}

impl Flat {
    /// Normalises `wcnf`'s clauses over `num_vars` variables (which must span every literal:
    /// [`Wcnf::vars_spanned`] or more).
    pub(super) fn new(wcnf: &Wcnf, num_vars: usize) -> Flat {
        let mut flat = Flat {
            num_vars,
            lits: Vec::new(),
            start: vec![0],
            num_hard: 0,
            soft_weight: Vec::new(),
            offset: 0,
            soft_origin: Vec::new(),
        };
        let mut c = Vec::new();
        for clause in &wcnf.hard {
            c.clear();
            c.extend_from_slice(clause);
            if normalise_clause(&mut c) {
                flat.push(&c);
            }
        }
        flat.num_hard = flat.num_clauses();
        for (i, (w, clause)) in wcnf.soft.iter().enumerate() {
            if *w == 0 {
                continue;
            }
            c.clear();
            c.extend_from_slice(clause);
            if !normalise_clause(&mut c) {
                continue; // a tautology is never violated
            }
            if c.is_empty() {
                flat.offset = flat.offset.saturating_add(*w);
                continue;
            }
            flat.push(&c);
            flat.soft_weight.push(*w);
            flat.soft_origin.push(i);
        }
        flat
    }

    fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.start.push(self.lits.len());
    }

    /// The number of clauses, hard and soft.
    pub(super) fn num_clauses(&self) -> usize {
        self.start.len() - 1
    }

    /// Clause `c`'s literals.
    #[inline]
    pub(super) fn clause(&self, c: usize) -> &[Lit] {
        &self.lits[self.start[c]..self.start[c + 1]]
    }

    /// The hard clauses, in input order.
    pub(super) fn hard(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        (0..self.num_hard).map(|c| self.clause(c))
    }

    /// The soft clauses with their weights, in input order.
    pub(super) fn soft(&self) -> impl Iterator<Item = (u64, &[Lit])> + '_ {
        (self.num_hard..self.num_clauses())
            .map(|c| (self.soft_weight[c - self.num_hard], self.clause(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(d: i64) -> Lit {
        Lit::from_dimacs(d).unwrap()
    }

    #[test]
    fn clauses_are_sorted_deduplicated_and_tautologies_empty_softs_and_zero_weights_leave() {
        let mut w = Wcnf::new(3);
        w.hard.push(vec![lit(3), lit(-1), lit(3)]);
        w.hard.push(vec![lit(2), lit(-2)]);
        w.hard.push(vec![]);
        w.add_soft(4, &[]);
        w.add_soft(5, &[lit(1), lit(-1)]);
        w.add_soft(0, &[lit(2)]);
        w.add_soft(6, &[lit(2), lit(1), lit(2)]);
        w.add_soft(7, &[]);
        let f = Flat::new(&w, 3);
        let hard: Vec<&[Lit]> = f.hard().collect();
        assert_eq!(
            hard,
            vec![&[lit(-1), lit(3)][..], &[][..]],
            "the empty hard clause stays"
        );
        let soft: Vec<(u64, &[Lit])> = f.soft().collect();
        assert_eq!(soft, vec![(6, &[lit(1), lit(2)][..])]);
        assert_eq!(f.offset, 11, "the empty softs' weights");
    }
}
