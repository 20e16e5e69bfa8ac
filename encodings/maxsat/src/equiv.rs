//! Equivalent soft literals merged: two objective terms whose literals the hard clauses make
//! equal (or opposite) become one term (or a constant and a smaller pair).
//!
//! **Technique.** The hard binary clauses `¬a ∨ b` and `a ∨ ¬b` make `a ≡ b` in every solution.
//! For terms on equivalent literals `x ≡ y` with weights `w₁`, `w₂`, violating one violates the
//! other: `w₁·[¬x] + w₂·[¬y] = (w₁ + w₂)·[¬x]`, so the first term takes both weights and the
//! second leaves the objective. For opposite literals `x ≡ ¬y`, exactly one of the two is
//! violated: `w₁·[¬x] + w₂·[x] = m + (w₁ − m)·[¬x] + (w₂ − m)·[¬y]` with `m = min(w₁, w₂)`, so
//! the lower bound rises by `m` at once. Both keep the cost of *every* solution (the invariant
//! of `oll.rs`), not only the optimum. Identical soft clauses and complementary unit softs are
//! merged in `oll.rs` already; this adds the pairs that only the hard clauses relate, which WCSP
//! and planning encodings produce when a value and its channelling literal are both priced.
//!
//! **Paper.** MaxPre's equivalence reasoning on the binary implication graph (Korhonen, Berg,
//! Saikko & Järvisalo, SAT 2017, doi:10.1007/978-3-319-66263-3_28), read to learn.
//!
//! **Measured, and off by default** (`OllOptions::equiv`): one pair on the 42-instance real
//! set (planning bwt3cc, solved in milliseconds either way), none on `maxsat-main` (identical
//! conflict counts with and without). It stays an option, checked by brute force on instances
//! with planted equivalences.
//!
//! **Where ours differs.** MaxPre finds equivalence classes as strongly connected components
//! of the implication graph; we only take the equivalences written directly as two binary
//! clauses (no chains), in one pass, before the search. It costs a sort of the binary clauses.

use grim_solver::Lit;

use super::oll::{Kind, Oll};

impl Oll {
    /// Merges the terms related by a direct equivalence in `hard`; returns how many pairs.
    pub(super) fn merge_equivalent_terms(&mut self, hard: &[Vec<Lit>]) -> u64 {
        let key = |a: Lit, b: Lit| if a < b { (a, b) } else { (b, a) };
        let mut binaries: Vec<(Lit, Lit)> = hard
            .iter()
            .filter_map(|c| match c.as_slice() {
                [a, b] if a.var() != b.var() => Some(key(*a, *b)),
                _ => None,
            })
            .collect();
        binaries.sort_unstable();
        binaries.dedup();
        let soft_term = |oll: &Oll, l: Lit| {
            oll.term_index(l)
                .filter(|&t| oll.terms[t].live && oll.terms[t].kind == Kind::Soft)
        };
        let mut merged = 0;
        for &(a, b) in &binaries {
            // a ∨ b and ¬a ∨ ¬b: a ≡ ¬b. Visit each equivalence once (from its first clause).
            let other = key(!a, !b);
            if other <= (a, b) || binaries.binary_search(&other).is_err() {
                continue;
            }
            // Terms on x ∈ {a, ¬a} and y ∈ {b, ¬b}: x ≡ y when (x, y) is (a, ¬b) or (¬a, b).
            for (x, y, same) in [(a, !b, true), (!a, b, true), (a, b, false), (!a, !b, false)] {
                let (Some(s), Some(t)) = (soft_term(self, x), soft_term(self, y)) else {
                    continue;
                };
                if s == t {
                    continue;
                }
                merged += 1;
                if same {
                    let w = self.terms[t].weight;
                    self.terms[s].weight = self.terms[s].weight.saturating_add(w);
                    self.reduce(t, w);
                } else {
                    let m = self.terms[s].weight.min(self.terms[t].weight);
                    self.raise_lb(m);
                    self.reduce(s, m);
                    self.reduce(t, m);
                }
            }
        }
        self.stats.equiv_merged += merged;
        merged
    }
}
