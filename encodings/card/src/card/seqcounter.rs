//! The sequential counter, in the biconditional form that serves `lo ≤ Σ ≤ hi` with one
//! structure.
//!
//! **Technique.** Registers `s[i][j]` ("at least `j` of the first `i` inputs are true") laid out
//! row by row, with `s[i][j] ⇔ s[i−1][j] ∨ (x_i ∧ s[i−1][j−1])` (`s[i−1][0] = ⊤`,
//! `s[i−1][j] = ⊥` for `j ≥ i`). The "≥" half of that equivalence is
//! `¬s[i−1][j] ∨ s[i][j]` and `¬x_i ∨ ¬s[i−1][j−1] ∨ s[i][j]` (what an at-most bound needs);
//! the "≤" half is `¬s[i][j] ∨ s[i−1][j] ∨ x_i` and `¬s[i][j] ∨ s[i−1][j] ∨ s[i−1][j−1]` (what
//! an at-least bound needs). With both, the last row counts exactly and one structure
//! answers any `lo ≤ Σ ≤ hi` by asserting `s[n][lo]` and `¬s[n][hi+1]`; unit propagation is
//! complete for both bounds (checked in `tests/card_seqcounter.rs`).
//!
//! **Paper.** Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints",
//! CP 2005, doi:10.1007/11564751_73 (the one-directional at-most form, `LT^{n,k}_SEQ`); the
//! biconditional form is the one of the original constraint module this crate grew from.
//!
//! **Where ours differs.**
//! - [`SeqCounter`] keeps every register up to a cap, both directions, so its last row can be
//!   assumed in either polarity for any bound up to the cap (the Problem API guards soft counts
//!   this way). The first row is the first input itself: no variable for `s[1][1]`.
//! - [`encode_between`] asserts the bounds as it goes and trims every register that cannot reach
//!   an asserted one: for the upper target `t = hi + 1` only `j ≥ t − (n − i)` (the rest can never
//!   climb to `t`), for the lower target only `lo − (n − i) ≤ j ≤ lo`, and each register gets
//!   only the half of the equivalence its target needs. The asserted registers are constants:
//!   `s[i][t] = ⊥` turns the "≥" clause into Sinz's overflow clause `¬x_i ∨ ¬s[i−1][hi]`, and
//!   `s[n][lo] = ⊤` needs no variable. The trimmed at-most form has `k(n − k)`-odd registers —
//!   PySAT 1.9's `seqcounter` figure for n = 1000, k = 100 is 90,000 aux / 180,800 clauses, and
//!   ours is in the size table of `card/mod.rs`.

use super::sig::{Sig, Targets, between_entry_points, emit_guarded};
use crate::sink::ClauseSink;
use grim_solver::Lit;

/// A sequential counter whose last row can be assumed: `outputs()[j]` ⇔ at least `j + 1` inputs
/// are true, for `j < min(max, n)`.
///
/// Why keep a structure rather than only [`encode_between`]: a soft count, or a bound decided
/// later, needs literals to guard or assume; this is the counter that has them in both
/// directions. It costs `O(n·max)` registers and `4` clauses each; for a hard bound
/// [`encode_between`] (or the front end [`crate::card::between`]) is smaller.
#[derive(Clone, Debug, Default)]
pub struct SeqCounter {
    outputs: Vec<Lit>,
    num_inputs: usize,
}

impl SeqCounter {
    /// Encodes registers for counts `1..=max` (capped at `inputs.len()`), both directions.
    /// Empty `inputs` or `max == 0` build nothing.
    pub fn new<S: ClauseSink + ?Sized>(sink: &mut S, inputs: &[Lit], max: usize) -> SeqCounter {
        let cap = max.min(inputs.len());
        let last = rows(sink, inputs, cap, &|_, _| (true, true), &|_, _| None, None);
        SeqCounter {
            outputs: last
                .into_iter()
                .filter_map(|s| match s {
                    Reg::Sig(Sig::Lit(l)) => Some(l),
                    _ => None,
                })
                .collect(),
            num_inputs: inputs.len(),
        }
    }

    /// `outputs()[j]` is true iff at least `j + 1` inputs are true; `len = min(max, n)`.
    pub fn outputs(&self) -> &[Lit] {
        &self.outputs
    }

    /// The number of inputs (with multiplicity).
    pub fn num_inputs(&self) -> usize {
        self.num_inputs
    }

    /// The literal that enforces "at least `j` inputs are true" when asserted or assumed:
    /// `Some(outputs()[j − 1])`. `None` when `j == 0` (vacuous), `j > n` (impossible — the caller
    /// adds the empty clause) or `j > max` (not encoded); [`SeqCounter::num_inputs`] tells them
    /// apart.
    pub fn at_least(&self, j: usize) -> Option<Lit> {
        j.checked_sub(1).and_then(|i| self.outputs.get(i)).copied()
    }

    /// The literal that enforces "at most `k` inputs are true": `Some(¬outputs()[k])`. `None`
    /// when `k >= n` (vacuous) or `k >= max` (not encoded).
    pub fn at_most(&self, k: usize) -> Option<Lit> {
        self.outputs.get(k).map(|&l| !l)
    }
}

/// The body of [`encode_between_guarded`] once [`targets`](super::sig::targets) has settled the
/// degenerate cases: the rows, trimmed to the registers the targets can reach.
fn encode_targets<S: ClauseSink + ?Sized>(
    sink: &mut S,
    inputs: &[Lit],
    targets: Targets,
    guard: Option<Lit>,
) {
    let n = inputs.len();
    let Targets { upper, lower } = targets;
    let cap = targets.top();
    // Register (i, j) can reach the upper target iff j + (n − i) ≥ t, and the lower target iff
    // lo − (n − i) ≤ j ≤ lo. Both sets are closed under the predecessors their half of the
    // equivalence mentions, so a trimmed register is never referenced.
    let relevant = move |i: usize, j: usize| {
        let rest = n - i;
        let up = upper.is_some_and(|t| j + rest >= t);
        let down = lower.is_some_and(|l| j <= l && j + rest >= l);
        (up, down)
    };
    let constant = move |i: usize, j: usize| {
        if Some(j) == upper {
            Some(false)
        } else if i == n && Some(j) == lower {
            Some(true)
        } else {
            None
        }
    };
    rows(sink, inputs, cap, &relevant, &constant, guard);
}

between_entry_points! {
    /// Emits `lo ≤ |{i : inputs[i]}| ≤ hi` as a trimmed counter with the bounds asserted (see
    /// the module doc). Degenerate bounds are total: vacuous (`lo == 0` and `hi >= n`) emits
    /// nothing; impossible (`lo > hi` or `lo > n`) emits the empty clause.
    encode_between;
    /// [`encode_between`] whose asserting clauses also hold `guard` (when given): the bound is
    /// enforced only while the guard is false; the counter's defining clauses stay unguarded.
    /// The asserting clauses are exactly those of the constant registers (`s[i][hi+1] = ⊥`,
    /// `s[n][lo] = ⊤`), so the guard goes there and nowhere else. An impossible bound emits the
    /// clause `(guard)` (empty without a guard).
    encode_between_guarded => encode_targets;
}

/// A register: a signal, or trimmed (no variable, never referenced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reg {
    Sig(Sig),
    Trimmed,
}

/// Builds the rows `1..=n` of registers `1..=min(i, cap)` and returns the last one.
/// `relevant(i, j)` says which halves of the equivalence register (i, j) gets (neither: trimmed);
/// `constant(i, j)` fixes a register to a constant (its clauses are still emitted, folded, and
/// carry `guard`: they are the assertions).
fn rows<S: ClauseSink + ?Sized>(
    sink: &mut S,
    inputs: &[Lit],
    cap: usize,
    relevant: &dyn Fn(usize, usize) -> (bool, bool),
    constant: &dyn Fn(usize, usize) -> Option<bool>,
    guard: Option<Lit>,
) -> Vec<Reg> {
    let mut prev: Vec<Reg> = Vec::new();
    for (i, &x) in (1..).zip(inputs) {
        // s[i−1][j]: ⊤ for j = 0, ⊥ beyond the previous row.
        let p = |prev: &[Reg], j: usize| -> Sig {
            match j.checked_sub(1) {
                None => Sig::True,
                Some(idx) => match prev.get(idx) {
                    None => Sig::False,
                    Some(Reg::Sig(s)) => *s,
                    Some(Reg::Trimmed) => {
                        debug_assert!(false, "a trimmed register is referenced at ({i}, {j})");
                        // Unreachable by the closure argument; ⊥ keeps the clause (no unsound drop).
                        Sig::False
                    }
                },
            }
        };
        let x = Sig::Lit(x);
        let mut row = Vec::with_capacity(i.min(cap));
        for j in 1..=i.min(cap) {
            let (up, down) = relevant(i, j);
            let konst = constant(i, j);
            let r = match konst {
                Some(true) => Sig::True,
                Some(false) => Sig::False,
                None if !up && !down => {
                    row.push(Reg::Trimmed);
                    continue;
                }
                // s[1][1] ⇔ x_1: the input itself, no variable, no clauses.
                None if i == 1 => {
                    row.push(Reg::Sig(x));
                    continue;
                }
                None => Sig::Lit(sink.new_var().pos()),
            };
            let (pj, pj1) = (p(&prev, j), p(&prev, j - 1));
            let g = if konst.is_some() { guard } else { None };
            if up {
                emit_guarded(sink, &[!pj, r], g);
                emit_guarded(sink, &[!x, !pj1, r], g);
            }
            if down {
                emit_guarded(sink, &[!r, pj, x], g);
                if j >= 2 {
                    emit_guarded(sink, &[!r, pj, pj1], g);
                }
            }
            row.push(Reg::Sig(r));
        }
        prev = row;
    }
    prev
}
