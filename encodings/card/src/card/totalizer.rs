//! The incremental, k-truncated totalizer.
//!
//! **Technique.** A binary tree over the inputs; every node holds *unary* output literals
//! `r_1, r_2, …` with `r_m` meaning "at least `m` inputs below this node are true". A leaf's
//! single output is its input literal. An inner node with children outputs `a_1..a_p` and
//! `b_1..b_q` gets, for `0 ≤ i ≤ p`, `0 ≤ j ≤ q`:
//! - the "≥" clauses `¬a_i ∨ ¬b_j ∨ r_{i+j}` (for `i + j ≥ 1`, with `a_0 = b_0 = ⊤` dropped);
//! - optionally the "≤" clauses `a_{i+1} ∨ b_{j+1} ∨ ¬r_{i+j+1}` (with `a_{p+1}`, `b_{q+1}`
//!   dropped when the child is complete, i.e. they are `⊥`).
//!
//! Assuming `¬r_{k+1}` at the root then enforces "at most `k`", and unit propagation is
//! complete for it: `k` true inputs force every other input false, `k + 1` give a conflict
//! (checked in `tests/card_totalizer.rs`).
//!
//! **Papers.** Bailleux & Boufkhad, "Efficient CNF encoding of Boolean cardinality
//! constraints", CP 2003, doi:10.1007/978-3-540-45193-8_8 (the encoding). Büttner & Rintanen,
//! "Satisfiability planning with constraints on the number of actions", ICAPS 2005 (the
//! k-truncation: outputs above the bound are never built). Martins, Joshi, Manquinho & Lynce,
//! "Incremental cardinality constraints for MaxSAT", CP 2014, doi:10.1007/978-3-319-10428-7_39
//! (extending the bound and merging new inputs without re-encoding, as OLL needs).
//!
//! **Where ours differs.** Every node is truncated at the same bound `k` (outputs up to
//! `min(k, size)`), which is sound for both directions: a "≥" clause with `i + j > k` is
//! implied by one with `i + j = k` (take `i' = min(i, k)`, `j' = k − i'`), and a "≤" clause for
//! `r_m`, `m ≤ k`, only mentions child outputs of index `≤ m`. Extending the bound from `k` to
//! `k'` therefore adds exactly the clauses with `k < i + j ≤ k'` (resp. `k < i + j + 1 ≤ k'`) at
//! every incomplete node — nothing is re-encoded and every existing literal keeps its meaning.
//! `add_inputs` builds a balanced tree over the new inputs and joins it with the old root under
//! a new root (Martins et al.'s "merge"); the tree is then no longer balanced, which costs
//! depth, not clauses. All traversals are iterative, so repeated merges cannot overflow the
//! stack.
//!
//! Inputs are counted as a multiset: a literal given twice counts twice, `x` and `¬x` count one
//! each. PySAT's `ITotalizer` builds every node to its full size (9,976 aux / 509,477 clauses at
//! n = 1000 whatever k); truncation is what makes ours small for small `k` (see the size table
//! in `card/mod.rs`).

use super::sig::{Targets, between_entry_points};
use crate::sink::ClauseSink;
use grim_solver::Lit;

/// One tree node. Children always have smaller indices than their parent.
#[derive(Clone, Debug)]
struct Node {
    kind: Kind,
    /// Number of inputs below this node.
    size: usize,
    /// Output literals for counts `1..=outputs.len()`; `outputs.len() == min(bound, size)` for
    /// the bound the node was last extended to. Invariant: a child is always extended at least
    /// as far as its parent (`child.outputs.len() >= min(parent_bound, child.size)`).
    outputs: Vec<Lit>,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Leaf(Lit),
    Inner(usize, usize),
}

/// An incremental totalizer: assumable output literals counting its inputs.
///
/// Why this is the encoding OLL uses: its outputs are literals one can assume, the bound grows
/// by adding clauses only, and new inputs merge in — a core-guided optimiser relaxes a core once
/// and then only tightens or extends. Its size is `O(n·k)` variables and `O(n·k²)` clauses in
/// the worst case (a lot less near the leaves); for one static large-`k` constraint the front
/// end in [`crate::card`] picks by measured size.
#[derive(Clone, Debug, Default)]
pub struct Totalizer {
    nodes: Vec<Node>,
    root: Option<usize>,
    /// The largest bound requested so far.
    bound: usize,
    /// Whether the "≥" clauses are encoded (always, except for the front end's at-least-only
    /// totalizers built by [`Totalizer::new_lower`]).
    up: bool,
    /// Whether the "≤" clauses are encoded (outputs exact, not only lower bounds).
    down: bool,
}

impl Totalizer {
    /// Encodes a totalizer over `inputs` with outputs for counts `1..=bound` (k-truncated:
    /// counts above `bound` are not encoded until `extend`).
    ///
    /// Only the "≥" direction is encoded: an output may be true without its count being
    /// reached, which is all an at-most bound needs and saves half the clauses. Use
    /// [`Totalizer::new_both`] for exact outputs. Empty `inputs` or `bound == 0` build nothing.
    pub fn new<S: ClauseSink + ?Sized>(sink: &mut S, inputs: &[Lit], bound: usize) -> Totalizer {
        Totalizer::build(sink, inputs, bound, true, false)
    }

    /// Like [`Totalizer::new`], and also encodes the "≤" direction: `outputs()[j]` is false
    /// whenever fewer than `j + 1` inputs are true, so the outputs count exactly (up to the
    /// bound) and can be assumed in either polarity — `outputs()[j]` enforces "at least
    /// `j + 1`". Costs roughly twice the clauses.
    pub fn new_both<S: ClauseSink + ?Sized>(
        sink: &mut S,
        inputs: &[Lit],
        bound: usize,
    ) -> Totalizer {
        Totalizer::build(sink, inputs, bound, true, true)
    }

    /// Only the "≤" direction: for an at-least bound alone ([`Totalizer::at_least`]), at half
    /// the clauses of [`Totalizer::new_both`]. Crate-private because [`Totalizer::at_most`] has
    /// no literal to offer on it (it answers `None`, which a caller would read as "vacuous").
    pub(crate) fn new_lower<S: ClauseSink + ?Sized>(
        sink: &mut S,
        inputs: &[Lit],
        bound: usize,
    ) -> Totalizer {
        Totalizer::build(sink, inputs, bound, false, true)
    }

    fn build<S: ClauseSink + ?Sized>(
        sink: &mut S,
        inputs: &[Lit],
        bound: usize,
        up: bool,
        down: bool,
    ) -> Totalizer {
        let mut t = Totalizer {
            nodes: Vec::new(),
            root: None,
            bound,
            up,
            down,
        };
        t.root = t.subtree(sink, inputs);
        t
    }

    /// `outputs()[j]` is true whenever at least `j+1` inputs are true (the "≥" direction, enough
    /// for at-most bounds by assuming `¬outputs()[k]`); `len = min(bound, num_inputs)`. With
    /// [`Totalizer::new_both`] it is also false whenever fewer are true.
    pub fn outputs(&self) -> &[Lit] {
        match self.root.and_then(|r| self.nodes.get(r)) {
            Some(node) => &node.outputs,
            None => &[],
        }
    }

    /// The number of inputs (with multiplicity).
    pub fn num_inputs(&self) -> usize {
        self.root
            .and_then(|r| self.nodes.get(r))
            .map_or(0, |n| n.size)
    }

    /// The bound the outputs are currently encoded to (the largest requested so far; the
    /// outputs stop at `min(bound, num_inputs)`).
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// Whether the "≤" direction is encoded ([`Totalizer::new_both`]).
    pub fn is_exact(&self) -> bool {
        self.up && self.down
    }

    /// Encodes outputs up to `bound` (no-op if already there), adding only new clauses;
    /// existing output literals keep their meaning.
    pub fn extend<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, bound: usize) {
        if bound <= self.bound {
            return;
        }
        self.bound = bound;
        let Some(root) = self.root else { return };
        // Post-order over the nodes that are not yet at the new bound. A node at its target
        // has children at theirs (the invariant on `Node::outputs`), so its subtree is skipped.
        let mut stack = vec![(root, false)];
        while let Some((id, children_done)) = stack.pop() {
            let Some(node) = self.nodes.get(id) else {
                continue;
            };
            if node.outputs.len() >= bound.min(node.size) {
                continue;
            }
            match node.kind {
                Kind::Leaf(lit) => {
                    if let Some(n) = self.nodes.get_mut(id) {
                        n.outputs = vec![lit];
                    }
                }
                Kind::Inner(l, r) if !children_done => {
                    stack.push((id, true));
                    stack.push((r, false));
                    stack.push((l, false));
                }
                Kind::Inner(l, r) => self.grow(sink, id, l, r),
            }
        }
    }

    /// Adds inputs: builds a totalizer for them and merges it with the old root into a new root
    /// (existing clauses stay valid); `outputs()` then refers to the new root.
    ///
    /// Outputs of the old root keep their meaning for the old inputs only; callers that assumed
    /// them should switch to the new `outputs()`. Adding no inputs is a no-op.
    pub fn add_inputs<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, inputs: &[Lit]) {
        let Some(fresh) = self.subtree(sink, inputs) else {
            return;
        };
        let Some(old) = self.root else {
            self.root = Some(fresh);
            return;
        };
        self.root = Some(self.join(sink, old, fresh));
    }

    /// The literal whose assumption enforces "at most `k` inputs are true": `Some(¬outputs()[k])`
    /// after extending to `k+1` if needed; `None` when `k >= num_inputs` (vacuous).
    pub fn at_most<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, k: usize) -> Option<Lit> {
        if k >= self.num_inputs() || !self.up {
            return None;
        }
        self.extend(sink, k.saturating_add(1));
        self.outputs().get(k).map(|&o| !o)
    }

    /// The literal whose assumption enforces "at least k inputs are true": `Some(outputs()[k-1])`
    /// after extending to `k` if needed; `None` when `k == 0` (vacuous). Only meaningful on an
    /// exact totalizer ([`Totalizer::new_both`]); on a "≥"-only one the output is free to be true
    /// and this returns `None`. When `k > num_inputs` the bound is impossible: the caller should
    /// add the empty clause (this returns `None` there too, as no literal expresses it).
    pub fn at_least<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, k: usize) -> Option<Lit> {
        if !self.down || k == 0 || k > self.num_inputs() {
            return None;
        }
        self.extend(sink, k);
        self.outputs().get(k - 1).copied()
    }

    /// Every inner node as (its inputs below it, as a multiset in tree order; its output
    /// literals, `outputs[m - 1]` meaning "at least `m` of those inputs"). Children come
    /// before their parents.
    ///
    /// Why: a proof logger (grim-maxsat's VeriPB proofs) defines each output by reification
    /// over the inputs below it and derives every clause of the node from those definitions;
    /// it needs the tree, which the clauses alone do not name.
    pub fn inner_nodes(&self) -> Vec<(Vec<Lit>, Vec<Lit>)> {
        let mut below: Vec<Vec<Lit>> = Vec::with_capacity(self.nodes.len());
        let mut inner = Vec::new();
        for node in &self.nodes {
            let inputs = match node.kind {
                Kind::Leaf(lit) => vec![lit],
                Kind::Inner(l, r) => {
                    let mut v = below.get(l).cloned().unwrap_or_default();
                    v.extend(below.get(r).into_iter().flatten().copied());
                    inner.push((v.clone(), node.outputs.clone()));
                    v
                }
            };
            below.push(inputs);
        }
        inner
    }

    /// Builds a balanced subtree over `inputs` at the current bound; `None` when empty.
    fn subtree<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, inputs: &[Lit]) -> Option<usize> {
        if inputs.is_empty() {
            return None;
        }
        // Leaves first, then pair up level by level: iterative, children before parents, and
        // the result is as balanced as the recursive halving (depth ⌈log₂ n⌉).
        let mut level: Vec<usize> = inputs.iter().map(|&lit| self.leaf(lit)).collect();
        while level.len() > 1 {
            let mut next = Vec::with_capacity(level.len().div_ceil(2));
            for pair in level.chunks(2) {
                match *pair {
                    [a, b] => next.push(self.join(sink, a, b)),
                    [a] => next.push(a),
                    _ => {}
                }
            }
            level = next;
        }
        level.first().copied()
    }

    fn leaf(&mut self, lit: Lit) -> usize {
        let outputs = if self.bound >= 1 {
            vec![lit]
        } else {
            Vec::new()
        };
        self.nodes.push(Node {
            kind: Kind::Leaf(lit),
            size: 1,
            outputs,
        });
        self.nodes.len() - 1
    }

    /// A new inner node over `l` and `r` (both already at the current bound), encoded to it.
    fn join<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, l: usize, r: usize) -> usize {
        let size = self.size(l).saturating_add(self.size(r));
        self.nodes.push(Node {
            kind: Kind::Inner(l, r),
            size,
            outputs: Vec::new(),
        });
        let id = self.nodes.len() - 1;
        self.grow(sink, id, l, r);
        id
    }

    fn size(&self, id: usize) -> usize {
        self.nodes.get(id).map_or(0, |n| n.size)
    }

    /// Extends inner node `id` (children `l`, `r`, already at the bound) from its current
    /// outputs to `min(self.bound, size)`, adding the clauses whose output index is new.
    fn grow<S: ClauseSink + ?Sized>(&mut self, sink: &mut S, id: usize, l: usize, r: usize) {
        let (Some(a), Some(b), Some(node)) =
            (self.nodes.get(l), self.nodes.get(r), self.nodes.get(id))
        else {
            return;
        };
        let old = node.outputs.len();
        let new = self.bound.min(node.size);
        if new <= old {
            return;
        }
        let (a, b) = (a.outputs.clone(), b.outputs.clone());
        let mut out = node.outputs.clone();
        out.extend((old..new).map(|_| sink.new_var().pos()));
        let mut clause = Vec::with_capacity(3);
        // "≥": a_i ∧ b_j → r_{i+j}, for old < i + j ≤ new (index 0 is the constant ⊤).
        for i in (0..=a.len()).filter(|_| self.up) {
            let jmin = (old + 1).saturating_sub(i);
            let jmax = new.saturating_sub(i).min(b.len());
            for j in jmin..=jmax {
                clause.clear();
                if i > 0 {
                    clause.push(!a[i - 1]);
                }
                if j > 0 {
                    clause.push(!b[j - 1]);
                }
                clause.push(out[i + j - 1]);
                sink.add_clause(&clause);
            }
        }
        if self.down {
            // "≤": r_{i+j+1} → a_{i+1} ∨ b_{j+1}, for old < i + j + 1 ≤ new. A child output
            // beyond its list is ⊥: the child is complete there (see the module doc).
            for i in 0..=a.len() {
                let jmin = old.saturating_sub(i);
                let jmax = match (new - 1).checked_sub(i) {
                    Some(m) => m.min(b.len()),
                    None => continue,
                };
                for j in jmin..=jmax {
                    clause.clear();
                    if let Some(&x) = a.get(i) {
                        clause.push(x);
                    }
                    if let Some(&y) = b.get(j) {
                        clause.push(y);
                    }
                    clause.push(!out[i + j]);
                    sink.add_clause(&clause);
                }
            }
        }
        if let Some(node) = self.nodes.get_mut(id) {
            node.outputs = out;
        }
    }
}

/// The body of [`encode_between_guarded`] once [`targets`](super::sig::targets) has settled the
/// degenerate cases: a totalizer per target (`hi + 1` above, `lo` below), each output asserted.
fn encode_targets<S: ClauseSink + ?Sized>(
    sink: &mut S,
    inputs: &[Lit],
    Targets { upper, lower }: Targets,
    guard: Option<Lit>,
) {
    let assert = |sink: &mut S, l: Lit| {
        let mut clause = vec![l];
        clause.extend(guard);
        sink.add_clause(&clause);
    };
    if let Some(t) = upper {
        // t = hi + 1: "at most hi" is the negation of output t.
        let mut tot = Totalizer::new(sink, inputs, t);
        if let Some(l) = tot.at_most(sink, t - 1) {
            assert(sink, l);
        }
    }
    if let Some(lo) = lower {
        let mut tot = Totalizer::new_lower(sink, inputs, lo);
        if let Some(l) = tot.at_least(sink, lo) {
            assert(sink, l);
        }
    }
}

between_entry_points! {
    /// Emits `lo ≤ |{i : inputs[i]}| ≤ hi` as hard clauses with k-truncated totalizers: a
    /// "≥"-only one with bound `hi + 1` for the upper bound and a "≤"-only one with bound `lo`
    /// for the lower bound, each asserted by a unit clause.
    ///
    /// Why two one-directional totalizers and not one [`Totalizer::new_both`] with bound
    /// `hi + 1`: the lower one is truncated at `lo`, so a small `lo` costs little (n = 1000,
    /// lo = 1, hi = 23: 64,378 variables + clauses shared, far fewer split — see
    /// `examples/card_sweep.rs`), and for `lo == hi` the two cost what the shared one does,
    /// plus `hi` output variables. Degenerate bounds are total: vacuous (`lo == 0` and
    /// `hi >= n`) emits nothing; impossible (`lo > hi` or `lo > n`) emits the empty clause.
    encode_between;
    /// [`encode_between`] whose asserting clauses also hold `guard` (when given): the bound is
    /// enforced only while the guard is false; the totalizers' defining clauses stay unguarded.
    /// An impossible bound emits the clause `(guard)` (empty without a guard).
    encode_between_guarded => encode_targets;
}
