//! Cardinality networks: odd–even sorting and simplified merging, truncated to the bound.
//!
//! **Technique.** A comparator maps `(a, b)` to `(a ∨ b, a ∧ b)`; Batcher's odd–even merge
//! sorts, and a network of comparators sorting the inputs (true first) turns "at most `k`"
//! into "output `k + 1` is false" and "at least `k`" into "output `k` is true". A *cardinality
//! network* only needs the top `m` outputs (`m` a power of two ≥ the largest bound used): it sorts
//! blocks of `m` inputs with half-sorters and folds them with the *simplified merge*, which
//! keeps `m + 1` of the `2m` merged outputs. Size `O(n log² m)` variables and clauses — unlike a
//! counter or totalizer, it stays small when the bound is large.
//!
//! **Paper.** Asín, Nieuwenhuis, Oliveras & Rodríguez-Carbonell, "Cardinality networks: a
//! theoretical and empirical study", Constraints 16(2), 2011, doi:10.1007/s10601-010-9105-0
//! (half-merge, half-sort, simplified merge, the one-directional clauses and their arc
//! consistency); Batcher, "Sorting networks and their applications", AFIPS 1968.
//!
//! **Where ours differs.**
//! - Comparators are split into their two halves (`max = a ∨ b`, `min = a ∧ b`) and built
//!   lazily, backwards from the asserted outputs: a half whose output no asserted output depends
//!   on gets no variable and no clause. This prunes what the power-of-two rounding of `m` and the
//!   dropped merge outputs leave dangling.
//! - Padding is with the constant ⊥ and constants fold at build time (a comparator with a ⊥
//!   input is a wire), so padding costs nothing; `x` against `¬x` gives `(⊤, ⊥)`.
//! - Each half gets the clauses of the directions asked for: the "≥" direction (`a → max`,
//!   `b → max`, `a ∧ b → min`) for at-most bounds, the "≤" one (`max → a ∨ b`, `min → a`,
//!   `min → b`) for at-least bounds; [`encode_between`] asks for each only where needed.
//!
//! PySAT 1.9's `cardnetwrk` for n = 1000, k = 500 is 44,541 aux / 66,812 clauses; ours is in
//! the size table of `card/mod.rs`.

use super::sig::{Sig, Targets, between_entry_points, emit, emit_guarded};
use crate::sink::ClauseSink;
use grim_solver::Lit;

/// A node of the symbolic network.
#[derive(Clone, Copy, Debug)]
enum Node {
    Const(bool),
    Input(Lit),
    Max(usize, usize),
    Min(usize, usize),
}

/// The network under construction: nodes in creation order (operands before users).
#[derive(Default)]
struct Net {
    nodes: Vec<Node>,
}

const FALSE: usize = 0;
const TRUE: usize = 1;

impl Net {
    fn new() -> Net {
        Net {
            nodes: vec![Node::Const(false), Node::Const(true)],
        }
    }

    fn push(&mut self, n: Node) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    /// A comparator with constants and trivial cases folded: `(max, min)`.
    fn comparator(&mut self, a: usize, b: usize) -> (usize, usize) {
        let complementary = matches!(
            (self.nodes.get(a), self.nodes.get(b)),
            (Some(Node::Input(x)), Some(Node::Input(y))) if *x == !*y
        );
        match (a, b) {
            (FALSE, o) | (o, FALSE) => (o, FALSE),
            (TRUE, o) | (o, TRUE) => (TRUE, o),
            _ if a == b => (a, a),
            _ if complementary => (TRUE, FALSE),
            _ => (self.push(Node::Max(a, b)), self.push(Node::Min(a, b))),
        }
    }

    /// `x` and `y` sorted by one comparator, larger first: the merge of two one-element lists,
    /// where both merges' recursions end.
    fn sorted_pair(&mut self, x: usize, y: usize) -> Vec<usize> {
        let (hi, lo) = self.comparator(x, y);
        vec![hi, lo]
    }

    /// Batcher's odd–even merge of two sorted lists of the same power-of-two length.
    fn hmerge(&mut self, a: &[usize], b: &[usize]) -> Vec<usize> {
        if let ([x], [y]) = (a, b) {
            return self.sorted_pair(*x, *y);
        }
        let d = self.hmerge(&odds(a), &odds(b));
        let e = self.hmerge(&evens(a), &evens(b));
        self.interleave(&d, &e, a.len() + b.len())
    }

    /// `c_1 = d_1`, `(c_{2i}, c_{2i+1}) = comparator(d_{i+1}, e_i)`, then `e`'s last if room.
    fn interleave(&mut self, d: &[usize], e: &[usize], len: usize) -> Vec<usize> {
        let mut c = Vec::with_capacity(len);
        c.extend(d.first().copied());
        for (&di, &ei) in d.iter().skip(1).zip(e) {
            let (hi, lo) = self.comparator(di, ei);
            c.push(hi);
            c.push(lo);
        }
        if c.len() < len {
            // The full merge: e's last output is the overall minimum.
            c.extend(e.last().copied());
        }
        c.truncate(len);
        c
    }

    /// Sorts a power-of-two list.
    fn hsort(&mut self, a: &[usize]) -> Vec<usize> {
        if a.len() <= 1 {
            return a.to_vec();
        }
        let (l, r) = a.split_at(a.len() / 2);
        let l = self.hsort(l);
        let r = self.hsort(r);
        self.hmerge(&l, &r)
    }

    /// The simplified merge: the top `p + 1` outputs of merging two sorted lists of length `p`.
    fn smerge(&mut self, a: &[usize], b: &[usize]) -> Vec<usize> {
        if let ([x], [y]) = (a, b) {
            return self.sorted_pair(*x, *y);
        }
        let d = self.smerge(&odds(a), &odds(b));
        let e = self.smerge(&evens(a), &evens(b));
        // d and e have p/2 + 1 outputs each; c_1 = d_1 and p/2 comparators give p + 1.
        let p = a.len();
        let mut c = Vec::with_capacity(p + 1);
        c.extend(d.first().copied());
        for (&di, &ei) in d.iter().skip(1).zip(&e).take(p / 2) {
            let (hi, lo) = self.comparator(di, ei);
            c.push(hi);
            c.push(lo);
        }
        c
    }

    /// The top `m` outputs (`m` a power of two) of sorting `inputs`, padded with ⊥.
    fn card(&mut self, inputs: &[Lit], m: usize) -> Vec<usize> {
        let leaves: Vec<usize> = inputs.iter().map(|&l| self.push(Node::Input(l))).collect();
        let mut acc: Option<Vec<usize>> = None;
        for block in leaves.chunks(m) {
            let mut block = block.to_vec();
            block.resize(m, FALSE);
            let sorted = self.hsort(&block);
            acc = Some(match acc {
                None => sorted,
                Some(prev) => {
                    let mut merged = self.smerge(&prev, &sorted);
                    merged.truncate(m);
                    merged
                }
            });
        }
        acc.unwrap_or_default()
    }

    /// Emits the clauses for the cone of `roots`: each entry is a node and the directions
    /// (`up`: "≥", `down`: "≤") it must support. Returns the signal of every node asked for.
    fn emit<S: ClauseSink + ?Sized>(
        &self,
        sink: &mut S,
        roots: &[(usize, bool, bool)],
    ) -> Vec<Sig> {
        // Directions each node needs: a "≥" half needs "≥" operands, a "≤" half "≤" ones.
        let mut need = vec![(false, false); self.nodes.len()];
        for &(id, up, down) in roots {
            if let Some(n) = need.get_mut(id) {
                n.0 |= up;
                n.1 |= down;
            }
        }
        // Operands precede their users, so one backward sweep propagates the needs.
        for id in (0..self.nodes.len()).rev() {
            let (up, down) = need.get(id).copied().unwrap_or_default();
            if let Some(Node::Max(a, b) | Node::Min(a, b)) = self.nodes.get(id) {
                for op in [*a, *b] {
                    if let Some(n) = need.get_mut(op) {
                        n.0 |= up;
                        n.1 |= down;
                    }
                }
            }
        }
        // Forward: give each needed node a signal and its clauses.
        let mut sig = vec![Sig::False; self.nodes.len()];
        for (id, node) in self.nodes.iter().enumerate() {
            let (up, down) = need.get(id).copied().unwrap_or_default();
            let s = match *node {
                Node::Const(b) => {
                    if b {
                        Sig::True
                    } else {
                        Sig::False
                    }
                }
                Node::Input(l) => Sig::Lit(l),
                _ if !up && !down => continue,
                Node::Max(a, b) => {
                    let (a, b) = (get(&sig, a), get(&sig, b));
                    let c = Sig::Lit(sink.new_var().pos());
                    if up {
                        emit(sink, &[!a, c]);
                        emit(sink, &[!b, c]);
                    }
                    if down {
                        emit(sink, &[!c, a, b]);
                    }
                    c
                }
                Node::Min(a, b) => {
                    let (a, b) = (get(&sig, a), get(&sig, b));
                    let c = Sig::Lit(sink.new_var().pos());
                    if up {
                        emit(sink, &[!a, !b, c]);
                    }
                    if down {
                        emit(sink, &[!c, a]);
                        emit(sink, &[!c, b]);
                    }
                    c
                }
            };
            if let Some(slot) = sig.get_mut(id) {
                *slot = s;
            }
        }
        roots.iter().map(|&(id, _, _)| get(&sig, id)).collect()
    }
}

fn get(sig: &[Sig], id: usize) -> Sig {
    sig.get(id).copied().unwrap_or(Sig::False)
}

/// Elements at 1-based odd positions (0, 2, 4, …).
fn odds(a: &[usize]) -> Vec<usize> {
    a.iter().step_by(2).copied().collect()
}

/// Elements at 1-based even positions (1, 3, 5, …).
fn evens(a: &[usize]) -> Vec<usize> {
    a.iter().skip(1).step_by(2).copied().collect()
}

/// The body of [`encode_between_guarded`] once [`targets`](super::sig::targets) has settled the
/// degenerate cases: the network over the top `m` outputs and the asserted outputs.
fn encode_targets<S: ClauseSink + ?Sized>(
    sink: &mut S,
    inputs: &[Lit],
    targets: Targets,
    guard: Option<Lit>,
) {
    let Targets { upper, lower } = targets;
    let m = targets.top().next_power_of_two();
    let mut net = Net::new();
    let outs = net.card(inputs, m);
    let mut roots = Vec::with_capacity(2);
    if let Some(t) = upper {
        roots.push((
            outs.get(t - 1).copied().unwrap_or(FALSE),
            true,
            false,
            false,
        ));
    }
    if let Some(l) = lower {
        roots.push((outs.get(l - 1).copied().unwrap_or(FALSE), false, true, true));
    }
    let asked: Vec<(usize, bool, bool)> = roots
        .iter()
        .map(|&(id, up, down, _)| (id, up, down))
        .collect();
    let sigs = net.emit(sink, &asked);
    for (&(_, _, _, positive), &s) in roots.iter().zip(&sigs) {
        emit_guarded(sink, &[if positive { s } else { !s }], guard);
    }
}

between_entry_points! {
    /// Emits `lo ≤ |{i : inputs[i]}| ≤ hi` as a cardinality network over the top
    /// `m = next_pow2(max(lo, hi + 1))` outputs, asserting output `lo` and the negation of
    /// output `hi + 1`. Degenerate bounds are total: vacuous (`lo == 0` and `hi >= n`) emits
    /// nothing; impossible (`lo > hi` or `lo > n`) emits the empty clause.
    encode_between;
    /// [`encode_between`] whose asserting clauses (on the two outputs) also hold `guard` (when
    /// given): the bound is enforced only while the guard is false; the network's clauses stay
    /// unguarded. An impossible bound emits the clause `(guard)` (empty without a guard).
    encode_between_guarded => encode_targets;
}

/// The sorted top outputs of a network built for later assertion: `outputs()[j]` ⇔ at least
/// `j + 1` inputs are true (both directions encoded), for `j < min(m, n)`.
///
/// Why it exists beside [`encode_between`]: the size table and the front end compare the
/// network as a reusable structure against [`crate::card::Totalizer::new_both`] and
/// [`crate::card::SeqCounter`]. Every requested output gets a literal, so none folds away.
pub fn sorted_outputs<S: ClauseSink + ?Sized>(
    sink: &mut S,
    inputs: &[Lit],
    count: usize,
) -> Vec<Lit> {
    let count = count.min(inputs.len());
    if count == 0 {
        return Vec::new();
    }
    let need = vec![(true, true); count];
    sorted_outputs_directed(sink, inputs, &need)
        .into_iter()
        .flatten()
        .collect()
}

/// [`sorted_outputs`] with each output's directions chosen by the caller: `need[j]` is
/// `(up, down)` for output `j` ("at least `j + 1` inputs"), `up` the "≥" direction (enough
/// true inputs make the output true: what a clause reading the output *negatively* needs, as
/// in `¬out_{k+1}` for "at most `k`"), `down` the "≤" one (a true output needs that many true
/// inputs: a clause reading it positively). An output asked for in neither direction gets no
/// literal (`None`), and a comparator half only the clauses some asked output depends on.
///
/// Why: a clause set that reads a sorted count in one direction only at most of its outputs
/// (a ratio's numerator: "at least" only up to `⌈min·|B|⌉`, "at most" up to `max·|B|`) pays
/// for the other direction nowhere else; sound and complete as [`sorted_outputs`] for the
/// clauses that read the outputs only as asked (the one-directional clauses of Asín et al.).
pub fn sorted_outputs_directed<S: ClauseSink + ?Sized>(
    sink: &mut S,
    inputs: &[Lit],
    need: &[(bool, bool)],
) -> Vec<Option<Lit>> {
    let count = need.len().min(inputs.len());
    if count == 0 {
        return vec![None; need.len()];
    }
    let mut net = Net::new();
    let outs = net.card(inputs, count.next_power_of_two());
    let asked: Vec<usize> = (0..count).filter(|&j| need[j].0 || need[j].1).collect();
    let roots: Vec<(usize, bool, bool)> = asked
        .iter()
        .map(|&j| (outs[j], need[j].0, need[j].1))
        .collect();
    let mut lits = vec![None; need.len()];
    for (&j, s) in asked.iter().zip(net.emit(sink, &roots)) {
        lits[j] = Some(match s {
            Sig::Lit(l) => l,
            // A constant output (every input a complementary pair, say): name it with a fresh
            // variable fixed by a unit, so callers always get a literal.
            Sig::True | Sig::False => {
                let v = sink.new_var().pos();
                sink.add_clause(&[if s == Sig::True { v } else { !v }]);
                v
            }
        });
    }
    lits
}
