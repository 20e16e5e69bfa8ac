//! Cardinality encodings: clauses over fresh variables that bound how many of a list of
//! literals are true.
//!
//! - [`pairwise`]: at-most-one / exactly-one as binary clauses, no variables.
//! - [`seqcounter`]: Sinz's sequential counter, biconditional, serving `lo ≤ Σ ≤ hi`.
//! - [`totalizer`]: the incremental, k-truncated totalizer (assumable outputs, lazy bound,
//!   mergeable inputs) — what OLL builds over its cores.
//! - [`cardnet`]: cardinality networks, small when the bound is large.
//!
//! Inputs are multisets throughout: a literal listed twice counts twice.

pub mod cardnet;
pub mod pairwise;
pub mod seqcounter;
mod sig;
pub mod totalizer;

pub use seqcounter::SeqCounter;
pub use totalizer::Totalizer;

use crate::sink::ClauseSink;
use grim_solver::Lit;

/// The encodings the front end chooses between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// [`pairwise`]: at-most-one / exactly-one without auxiliary variables.
    Pairwise,
    /// [`seqcounter::encode_between`]: the trimmed sequential counter.
    SeqCounter,
    /// [`Totalizer`] truncated at the bound (both directions for a two-sided bound).
    Totalizer,
    /// [`cardnet::encode_between`]: a cardinality network.
    CardNet,
}

/// Largest `n` for which pairwise at-most-one is used (see the table in the module doc).
pub const PAIRWISE_MAX: usize = 7;
/// Bounds `k ≤ SEQCOUNTER_MAX_K` (or `n ≤ SEQCOUNTER_MAX_N`) use the sequential counter.
pub const SEQCOUNTER_MAX_K: usize = 3;
/// See [`SEQCOUNTER_MAX_K`].
pub const SEQCOUNTER_MAX_N: usize = 16;
/// One-sided bounds `k < TOTALIZER_MAX_K_ONE_SIDED` (above the counter's range) use the
/// totalizer, larger ones the cardinality network.
pub const TOTALIZER_MAX_K_ONE_SIDED: usize = 40;
/// Two-sided bounds `hi < TOTALIZER_MAX_K_TWO_SIDED` use the totalizer, larger ones the
/// cardinality network.
pub const TOTALIZER_MAX_K_TWO_SIDED: usize = 24;

/// The encoding the front end uses for `lo ≤ Σ ≤ hi` over `n` inputs, after the degenerate
/// cases are taken out and the bound is oriented so that `hi + 1 ≤ n − lo + 1` (see [`between`]).
/// `lo == 0` is a one-sided bound. Public so the size sweep and tests can ask.
pub fn choose(n: usize, lo: usize, hi: usize) -> Encoding {
    let two_sided = lo > 0;
    if hi == 1 && n <= PAIRWISE_MAX {
        return Encoding::Pairwise;
    }
    if hi <= SEQCOUNTER_MAX_K || n <= SEQCOUNTER_MAX_N {
        return Encoding::SeqCounter;
    }
    let limit = if two_sided {
        TOTALIZER_MAX_K_TWO_SIDED
    } else {
        TOTALIZER_MAX_K_ONE_SIDED
    };
    if hi < limit {
        Encoding::Totalizer
    } else {
        Encoding::CardNet
    }
}

/// Emits "at most `k` of `lits` are true" (see [`between`]).
pub fn at_most<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
    between(sink, lits, 0, k)
}

/// Emits "at least `k` of `lits` are true" (see [`between`]).
pub fn at_least<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
    between(sink, lits, k, usize::MAX)
}

/// Emits "exactly `k` of `lits` are true" (see [`between`]).
pub fn exactly<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
    between(sink, lits, k, k)
}

/// Emits `lo ≤ |{l ∈ lits : l}| ≤ hi` as hard clauses, choosing the encoding by size.
///
/// Degenerate bounds are total and emit the least possible: vacuous (`lo == 0`, `hi ≥ n`) emits
/// nothing; impossible (`lo > hi` or `lo > n`) emits the empty clause; `hi == 0` or `lo == n`
/// emit unit clauses. Otherwise the bound is oriented (a count of `lits` in `[lo, hi]` is a
/// count of their negations in `[n − hi, n − lo]`; the side with the smaller upper bound is
/// encoded, since every encoding grows with it) and [`choose`] picks the encoding. Inputs are a
/// multiset; unit propagation is complete for both bounds whichever encoding is chosen.
pub fn between<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], lo: usize, hi: usize) {
    let n = lits.len();
    if lo > hi || lo > n {
        sink.add_clause(&[]);
        return;
    }
    let hi = hi.min(n);
    if lo == 0 && hi == n {
        return;
    }
    if hi == 0 || lo == n {
        let positive = lo == n;
        for &l in lits {
            sink.add_clause(&[if positive { l } else { !l }]);
        }
        return;
    }
    let flipped;
    let (lits, lo, hi) = if n - lo < hi {
        flipped = lits.iter().map(|&l| !l).collect::<Vec<Lit>>();
        (&flipped[..], n - hi, n - lo)
    } else {
        (lits, lo, hi)
    };
    match choose(n, lo, hi) {
        Encoding::Pairwise if lo == 0 => pairwise::at_most_one(sink, lits),
        Encoding::Pairwise => pairwise::exactly_one(sink, lits),
        Encoding::SeqCounter => seqcounter::encode_between(sink, lits, lo, hi),
        Encoding::Totalizer => {
            let mut t = if lo > 0 {
                Totalizer::new_both(sink, lits, hi + 1)
            } else {
                Totalizer::new(sink, lits, hi + 1)
            };
            if let Some(l) = t.at_most(sink, hi) {
                sink.add_clause(&[l]);
            }
            if let Some(l) = t.at_least(sink, lo) {
                sink.add_clause(&[l]);
            }
        }
        Encoding::CardNet => cardnet::encode_between(sink, lits, lo, hi),
    }
}
