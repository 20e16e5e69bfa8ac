//! Signals: a literal or a Boolean constant, and clauses over them with the constants folded.
//!
//! Why: encodings meet constants at their edges (a counter row before the first input is all
//! false, a sorting network pads its input with false, an asserted output is a constant), and
//! folding them where the clause is written keeps every encoding free of "true" variables and
//! of the special cases they would otherwise need.

use crate::sink::ClauseSink;
use grim_solver::Lit;

/// A literal or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sig {
    True,
    False,
    Lit(Lit),
}

impl std::ops::Not for Sig {
    type Output = Sig;
    fn not(self) -> Sig {
        match self {
            Sig::True => Sig::False,
            Sig::False => Sig::True,
            Sig::Lit(l) => Sig::Lit(!l),
        }
    }
}

/// Adds the clause `sigs` with constants folded: nothing when a signal is true, false signals
/// dropped. All signals false gives the empty clause, which is the point: a contradiction among
/// constants must make the sink unsatisfiable, not vanish.
pub(crate) fn emit<S: ClauseSink + ?Sized>(sink: &mut S, sigs: &[Sig]) {
    // Every clause of the counters and networks has at most 3 signals: no allocation for them.
    let mut buf = [Lit::default(); 4];
    if sigs.len() > buf.len() {
        let mut lits = Vec::with_capacity(sigs.len());
        for &s in sigs {
            match s {
                Sig::True => return,
                Sig::False => {}
                Sig::Lit(l) => lits.push(l),
            }
        }
        sink.add_clause(&lits);
        return;
    }
    let mut len = 0;
    for &s in sigs {
        match s {
            Sig::True => return,
            Sig::False => {}
            Sig::Lit(l) => {
                if let Some(slot) = buf.get_mut(len) {
                    *slot = l;
                    len += 1;
                }
            }
        }
    }
    sink.add_clause(buf.get(..len).unwrap_or(&[]));
}

/// [`emit`] with `guard` appended (when given): the clause then holds only when the guard is
/// false. Used for the clauses that *assert* a bound, so that a soft bound can be relaxed by
/// one literal while the counter's defining clauses stay hard.
pub(crate) fn emit_guarded<S: ClauseSink + ?Sized>(sink: &mut S, sigs: &[Sig], guard: Option<Lit>) {
    match (guard, sigs) {
        (None, _) => emit(sink, sigs),
        (Some(g), [a]) => emit(sink, &[*a, Sig::Lit(g)]),
        (Some(g), [a, b]) => emit(sink, &[*a, *b, Sig::Lit(g)]),
        (Some(g), [a, b, c]) => emit(sink, &[*a, *b, *c, Sig::Lit(g)]),
        (Some(g), _) => {
            let mut v = sigs.to_vec();
            v.push(Sig::Lit(g));
            emit(sink, &v);
        }
    }
}

/// The counts a bound `lo ≤ |{i : inputs[i]}| ≤ hi` over `n` inputs asks an encoding to
/// watch, with its degenerate cases settled once for the three encodings that take both
/// bounds (sequential counter, totalizer, cardinality network), so they cannot drift apart
/// on them: an impossible bound (`lo > hi` or `lo > n`) emits the clause `(guard)` (the empty
/// clause without a guard) and a vacuous one (`lo = 0`, `hi ≥ n`) emits nothing; both answer
/// `None`, and the encoding then has nothing left to do.
pub(crate) fn targets<S: ClauseSink + ?Sized>(
    sink: &mut S,
    n: usize,
    (lo, hi): (usize, usize),
    guard: Option<Lit>,
) -> Option<Targets> {
    if lo > hi || lo > n {
        emit_guarded(sink, &[], guard);
        return None;
    }
    let targets = Targets {
        upper: (hi < n).then_some(hi + 1),
        lower: (lo > 0).then_some(lo),
    };
    (targets.upper.is_some() || targets.lower.is_some()).then_some(targets)
}

/// What [`targets`] found a non-degenerate bound to need; at least one is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Targets {
    /// `hi + 1`, the count that must not be reached, when `hi < n`.
    pub upper: Option<usize>,
    /// `lo`, the count that must be reached, when `lo > 0`.
    pub lower: Option<usize>,
}

impl Targets {
    /// The largest count an encoding must be able to tell: `hi + 1` when bounded above,
    /// else `lo` (never 0).
    pub fn top(&self) -> usize {
        self.upper.or(self.lower).unwrap_or(0)
    }
}

/// Defines the two public entry points of an encoding that takes both bounds, with the
/// signatures the three such encodings (sequential counter, totalizer, cardinality network)
/// share: `encode_between(sink, inputs, lo, hi)` is `encode_between_guarded` without a guard,
/// and `encode_between_guarded(sink, inputs, lo, hi, guard)` settles the degenerate cases with
/// [`targets`], then hands what is left to `$encode(sink, inputs, targets, guard)`. The
/// docs of both come from the invoking module (the attributes before each name).
///
/// Why a macro and not three hand-written pairs: the pairs were the same eight lines in three
/// files, and only the body after [`targets`] differs; a trait would have changed the public
/// API (free functions `cardnet::encode_between`, …), which the front end and users call.
macro_rules! between_entry_points {
    (
        $(#[$between:meta])*
        encode_between;
        $(#[$guarded:meta])*
        encode_between_guarded => $encode:path;
    ) => {
        $(#[$between])*
        pub fn encode_between<S>(sink: &mut S, inputs: &[$crate::Lit], lo: usize, hi: usize)
        where
            S: $crate::sink::ClauseSink + ?Sized,
        {
            encode_between_guarded(sink, inputs, lo, hi, None)
        }

        $(#[$guarded])*
        pub fn encode_between_guarded<S: $crate::sink::ClauseSink + ?Sized>(
            sink: &mut S,
            inputs: &[$crate::Lit],
            lo: usize,
            hi: usize,
            guard: Option<$crate::Lit>,
        ) {
            let n = inputs.len();
            if let Some(targets) = $crate::card::sig::targets(sink, n, (lo, hi), guard) {
                $encode(sink, inputs, targets, guard);
            }
        }
    };
}
pub(crate) use between_entry_points;
