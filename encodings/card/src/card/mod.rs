//! Cardinality encodings: clauses over fresh variables that bound how many of a list of
//! literals are true.
//!
//! - [`pairwise`]: at-most-one / exactly-one as binary clauses, no variables.
//! - [`seqcounter`]: Sinz's sequential counter, biconditional, serving `lo ≤ Σ ≤ hi`; a trimmed
//!   hard form and an assumable structure ([`SeqCounter`]).
//! - [`totalizer`]: the incremental, k-truncated totalizer (assumable outputs, lazy bound,
//!   mergeable inputs) — what OLL builds over its cores.
//! - [`cardnet`]: cardinality networks, the encoding that stays small for large bounds.
//! - the front end [`at_most`], [`at_least`], [`exactly`], [`between`]: degenerate bounds
//!   handled once, the bound oriented, the encoding chosen by [`choose`].
//!
//! Inputs are multisets throughout: a literal listed twice counts twice, `x` and `¬x` one each.
//! Every encoding is checked both ways by exhaustive enumeration for n ≤ 8 and for complete
//! unit propagation (`tests/card_*.rs`).
//!
//! # Sizes
//! Auxiliary variables / clauses for "at most k" (bound-asserting clauses included), from
//! `cargo run -p grim-encodings --example card_sizes`:
//!
//! | encoding | n=10 k=1 | n=10 k=5 | n=100 k=1 | n=100 k=10 | n=100 k=50 | n=1000 k=1 | n=1000 k=100 | n=1000 k=500 |
//! |---|---|---|---|---|---|---|---|---|
//! | pairwise | 0 / 45 | – | 0 / 4,950 | – | – | 0 / 499,500 | – | – |
//! | seqcounter, trimmed | 8 / 25 | 24 / 49 | 98 / 295 | 899 / 1,879 | 2,499 / 4,999 | 998 / 2,995 | 89,999 / 180,799 | 249,999 / 499,999 |
//! | SeqCounter (both ways, max k+1) | 18 / 63 | 44 / 163 | 198 / 693 | 1,044 / 4,068 | 3,824 / 15,148 | 1,998 / 6,993 | 95,949 / 382,698 | 375,749 / 1,501,498 |
//! | totalizer, ≥, bound k+1 | 18 / 36 | 30 / 70 | 198 / 396 | 428 / 1,463 | 626 / 4,401 | 1,998 / 3,996 | 7,499 / 103,349 | 9,474 / 384,724 |
//! | totalizer, both ways, bound k+1 | 18 / 63 | 30 / 135 | 198 / 693 | 428 / 2,836 | 626 / 8,752 | 1,998 / 6,993 | 7,499 / 205,798 | 9,474 / 768,948 |
//! | cardnet | 25 / 42 | 45 / 69 | 295 / 492 | 1,121 / 1,723 | 1,697 / 2,546 | 2,995 / 4,992 | 28,987 / 43,881 | 38,957 / 58,436 |
//! | **front end [`at_most`]** | 8 / 25 | 28 / 53 | 98 / 295 | 428 / 1,463 | 1,697 / 2,546 | 998 / 2,995 | 28,987 / 43,881 | 38,957 / 58,436 |
//!
//! Against PySAT 1.9 (`atmost`, measured there): `seqcounter` n=1000 k=100 is 90,000 / 180,800 —
//! ours 89,999 / 180,799, the same trimmed counter (we fold the asserted register into a
//! constant: one variable and one unit fewer). `totalizer` n=1000 is 9,976 / 509,477 for any k
//! (every node built to full size); ours, truncated at k+1, is 7,499 / 103,349 at k=100 and
//! 9,474 / 384,724 at k=500. `cardnetwrk` n=1000 k=500 is 44,541 / 66,812; ours is 38,957 /
//! 58,436 (−13%), from building comparator halves lazily backwards from the asserted output.
//!
//! "Exactly k" (the front end splits `lo = 1` into a clause; the totalizer row is one "≥"
//! totalizer to k+1 and one "≤" totalizer to k):
//!
//! | encoding | n=10 k=1 | n=10 k=5 | n=100 k=1 | n=100 k=10 | n=100 k=50 | n=1000 k=1 | n=1000 k=100 | n=1000 k=500 |
//! |---|---|---|---|---|---|---|---|---|
//! | seqcounter, trimmed | 8 / 34 | 28 / 102 | 98 / 394 | 908 / 3,607 | 2,548 / 10,047 | 998 / 3,994 | 90,098 / 360,097 | 250,498 / 1,000,497 |
//! | totalizer, split | 27 / 46 | 58 / 129 | 297 / 496 | 844 / 2,735 | 1,250 / 8,701 | 2,997 / 4,996 | 14,983 / 204,884 | 18,946 / 768,447 |
//! | cardnet | 26 / 52 | 50 / 137 | 296 / 592 | 1,122 / 3,364 | 1,698 / 5,092 | 2,996 / 5,992 | 28,988 / 86,962 | 38,958 / 116,872 |
//! | **front end [`exactly`]** | 8 / 26 | 28 / 102 | 98 / 296 | 844 / 2,735 | 1,698 / 5,092 | 998 / 2,996 | 28,988 / 86,962 | 38,958 / 116,872 |
//!
//! # Choosing
//! Every encoding grows with the highest output it needs (`top = hi + 1` for an upper bound, `lo`
//! for a lower one), so [`between`] first orients the bound (counting the negations when that
//! lowers `top`) and [`choose`] decides on `(n, top)`. The thresholds
//! ([`THRESHOLDS_AT_MOST`], [`THRESHOLDS_AT_LEAST`], [`THRESHOLDS_BETWEEN`]) come from
//! `examples/card_sweep.rs`, which prices every encoding (aux variables + clauses) for every
//! bound on n from 4 to 2048 (all bounds up to 64, then 64 evenly spaced ones):
//! - pairwise at-most-one up to n = 7 (21 binary clauses, against 5 variables + 16 clauses for
//!   the counter; at n = 8 it is 28 against 6 + 19);
//! - the trimmed counter while `top ≤ 4` (≤ 2 for lower bounds alone, where the "≤"
//!   totalizer is already cheaper at lo = 3) and for small n (≤ 16; ≤ 24 two-sided) — its
//!   `~3·top·n` beats the totalizer's tree there (n = 1024, at most 1: 4,089 against 6,138
//!   variables + clauses; at most 3 is a near tie, 10,205 against 10,223);
//! - the totalizer up to `top = 40` (one-sided) or 24 (two-sided), the cardinality network above
//!   (n = 1024: the network wins from k ≈ 45 one-sided, from k ≈ 26 exactly-k).
//!
//! Measured cost of the rule against the best encoding per bound: at most k, 1,277 bounds,
//! +0.18% summed, worst +10.7% (n = 1500, k = 40); at least k, 1,252 bounds, +0.19%, worst
//! +11.0%; two-sided, 2,504 bounds, +0.78%, worst +31% (n = 1500, lo = 17, hi = 32, where the
//! network's output count jumps from 32 to 64 and the totalizer is cheaper until top ≈ 38). A
//! rule that also looked at the power-of-two rounding would close that gap; not worth the
//! complexity for under 1% overall (an assumption about typical use, not a measurement of it).

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

/// The thresholds of [`choose`], one row per kind of bound: `(pairwise_max_n, seq_max_top,
/// seq_max_n, totalizer_max_top)`. An encoding is used when `n` (pairwise) or the highest
/// needed output `top` is at most the row's value; the cardinality network above. Measured by
/// `examples/card_sweep.rs` (aux variables + clauses, n from 4 to 2048); see the module doc.
pub const THRESHOLDS_AT_MOST: (usize, usize, usize, usize) = (7, 4, 16, 40);
/// See [`THRESHOLDS_AT_MOST`]; for lower bounds alone (`top = lo`).
pub const THRESHOLDS_AT_LEAST: (usize, usize, usize, usize) = (0, 2, 12, 40);
/// See [`THRESHOLDS_AT_MOST`]; for two-sided bounds (`top = hi + 1`). No pairwise row:
/// exactly-one reaches [`choose`] as at-most-one plus its clause (`lo == 1` is split off).
pub const THRESHOLDS_BETWEEN: (usize, usize, usize, usize) = (0, 4, 24, 24);

/// The encoding the front end uses for `lo ≤ Σ ≤ hi` over `n` inputs, once the degenerate
/// cases are taken out and the bound is oriented (see [`between`]). Every encoding's size grows
/// with the highest output it needs, `top = hi + 1` for an upper bound (`hi < n`) and `lo` for a
/// lower one, so that and `n` decide, by the measured [`THRESHOLDS_AT_MOST`] and its siblings.
/// Public so the size sweep and the tests can ask.
pub fn choose(n: usize, lo: usize, hi: usize) -> Encoding {
    let (upper, lower) = (hi < n, lo > 0);
    let (pairwise_n, seq_top, seq_n, tot_top) = match (upper, lower) {
        (true, false) => THRESHOLDS_AT_MOST,
        (false, true) => THRESHOLDS_AT_LEAST,
        _ => THRESHOLDS_BETWEEN,
    };
    let top = if upper { hi + 1 } else { lo };
    if top == 2 && upper && n <= pairwise_n {
        Encoding::Pairwise
    } else if top <= seq_top || n <= seq_n {
        Encoding::SeqCounter
    } else if top <= tot_top {
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
/// emit unit clauses; "at least one" / "at most n − 1" one clause. Otherwise the bound is
/// oriented (a count of `lits` in `[lo, hi]` is a count of their negations in `[n − hi, n − lo]`;
/// the side whose highest needed output is lower is encoded, since every encoding grows with
/// it), a lower bound of 1 becomes its clause, and [`choose`] picks the encoding for the rest.
/// Inputs are a multiset; unit propagation is complete for both bounds whichever encoding is
/// chosen (each is tested for it).
pub fn between<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], lo: usize, hi: usize) {
    between_with(sink, lits, lo, hi, CardOptions::default())
}

/// How [`between_with`] encodes a bound; `Default` is what [`between`] does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardOptions {
    /// Force this encoding instead of asking [`choose`] (for tests and measurements).
    /// [`Encoding::Pairwise`] only applies to at-most-one and exactly-one, and falls back to the
    /// sequential counter otherwise.
    pub encoding: Option<Encoding>,
    /// Guard every clause that *asserts* the bound with this literal: the bound is enforced only
    /// while the guard is false, and the encoding's defining clauses stay unguarded. This is how
    /// a soft bound is relaxed (the Problem API makes the guard a relaxation variable with a
    /// soft unit clause `¬guard`). Degenerate bounds follow: vacuous still emits nothing,
    /// impossible emits the clause `(guard)`, unit bounds emit `(guard ∨ l)`.
    pub guard: Option<Lit>,
}

/// [`between`] with the encoding forced or the assertions guarded (see [`CardOptions`]);
/// degenerate cases and orientation are handled the same way.
pub fn between_with<S: ClauseSink + ?Sized>(
    sink: &mut S,
    lits: &[Lit],
    lo: usize,
    hi: usize,
    options: CardOptions,
) {
    let n = lits.len();
    let guard = options.guard;
    // A clause of `lits` (negated or not) plus the guard.
    let clause = |sink: &mut S, lits: &[Lit], negate: bool| {
        let mut c: Vec<Lit> = lits.iter().map(|&l| if negate { !l } else { l }).collect();
        c.extend(guard);
        sink.add_clause(&c);
    };
    if lo > hi || lo > n {
        clause(sink, &[], false);
        return;
    }
    let hi = hi.min(n);
    if lo == 0 && hi == n {
        return;
    }
    if hi == 0 || lo == n {
        for &l in lits {
            clause(sink, &[l], hi == 0);
        }
        return;
    }
    if lo == 1 && hi == n {
        clause(sink, lits, false);
        return;
    }
    if lo == 0 && hi + 1 == n {
        clause(sink, lits, true);
        return;
    }
    // Orient: a count of `lits` in [lo, hi] is a count of their negations in [n − hi, n − lo].
    // Encode the side whose highest needed output (`top` in `choose`) is lower.
    let top = |lo: usize, hi: usize| if hi < n { hi + 1 } else { lo };
    let flipped;
    let (lits, lo, hi) = if top(n - hi, n - lo) < top(lo, hi) {
        flipped = lits.iter().map(|&l| !l).collect::<Vec<Lit>>();
        (&flipped[..], n - hi, n - lo)
    } else {
        (lits, lo, hi)
    };
    if lo == 1 && hi < n && options.encoding != Some(Encoding::Pairwise) {
        // "At least one" is a clause; no structure serves it cheaper.
        clause(sink, lits, false);
        between_with(sink, lits, 0, hi, options);
        return;
    }
    match options.encoding.unwrap_or_else(|| choose(n, lo, hi)) {
        Encoding::Pairwise if lo == 0 && hi == 1 => {
            pairwise::at_most_one_guarded(sink, lits, guard)
        }
        Encoding::Pairwise if lo == 1 && hi == 1 => {
            pairwise::exactly_one_guarded(sink, lits, guard)
        }
        Encoding::Pairwise | Encoding::SeqCounter => {
            seqcounter::encode_between_guarded(sink, lits, lo, hi, guard)
        }
        Encoding::Totalizer => totalizer::encode_between_guarded(sink, lits, lo, hi, guard),
        Encoding::CardNet => cardnet::encode_between_guarded(sink, lits, lo, hi, guard),
    }
}
