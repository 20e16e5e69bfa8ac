//! Pairwise (binomial) at-most-one and exactly-one.
//!
//! **Technique.** "At most one of `x_1..x_n`" as the `n(n−1)/2` binary clauses `¬x_i ∨ ¬x_j`;
//! "exactly one" adds the clause `x_1 ∨ … ∨ x_n`. No auxiliary variables, and unit propagation is
//! as strong as it gets: one true literal forces all others false through binary clauses, which
//! the engine watches specially (the cheapest propagation it has).
//!
//! **Source.** Folklore; the standard reference point of every at-most-one comparison (e.g.
//! Frisch & Giannaros, "SAT encodings of the at-most-k constraint", ModRef 2010; Prestwich,
//! "CNF encodings", Handbook of Satisfiability, 2nd ed. 2021, ch. 2).
//!
//! **Where ours differs.** Nothing in the technique. Inputs are a multiset, as everywhere in
//! [`crate::card`]: a literal listed twice is forced false, and a complementary pair `x, ¬x`
//! (whose clause `¬x ∨ x` would be a tautology) forces every other literal false. The quadratic
//! size is why the front end in [`crate::card`] switches to a counter above a measured size (the
//! table in `card/mod.rs`).

use super::sig::{Sig, emit};
use crate::sink::ClauseSink;
use grim_solver::Lit;

/// Emits "at most one of `lits` is true" as pairwise binary clauses; nothing for fewer than two
/// literals (vacuous). Counted as a multiset: a literal listed twice is forced false (the unit
/// `¬x`, via the clause `¬x ∨ ¬x`), and a complementary pair `x, ¬x` (always exactly one true)
/// forces every other literal false.
pub fn at_most_one<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit]) {
    at_most_one_guarded(sink, lits, None)
}

/// [`at_most_one`] whose every clause also holds `guard` (when given): the bound is enforced
/// only while the guard is false. Pairwise has no defining clauses, so all of them are guarded.
pub fn at_most_one_guarded<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], guard: Option<Lit>) {
    let g = guard.map(Sig::Lit).unwrap_or(Sig::False);
    for (i, &a) in lits.iter().enumerate() {
        for &b in lits.iter().skip(i + 1) {
            if a == b {
                emit(sink, &[Sig::Lit(!a), g]);
            } else if a == !b {
                // ¬x ∨ x is a tautology; the pair already spends the one allowed.
                for &c in lits.iter().filter(|&&c| c.var() != a.var()) {
                    emit(sink, &[Sig::Lit(!c), g]);
                }
            } else {
                emit(sink, &[Sig::Lit(!a), Sig::Lit(!b), g]);
            }
        }
    }
}

/// Emits "exactly one of `lits` is true": [`at_most_one`] plus the clause over all of `lits`.
/// For empty `lits` that clause is the empty clause (the constraint is impossible).
pub fn exactly_one<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit]) {
    exactly_one_guarded(sink, lits, None)
}

/// [`exactly_one`] with every clause guarded (see [`at_most_one_guarded`]).
pub fn exactly_one_guarded<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], guard: Option<Lit>) {
    at_most_one_guarded(sink, lits, guard);
    let mut clause = lits.to_vec();
    clause.extend(guard);
    sink.add_clause(&clause);
}

/// The number of clauses [`at_most_one`] emits for `n` distinct variables: `n(n−1)/2`. Used by
/// the front end to decide, and by the size table.
pub fn at_most_one_size(n: usize) -> usize {
    n.saturating_mul(n.saturating_sub(1)) / 2
}
