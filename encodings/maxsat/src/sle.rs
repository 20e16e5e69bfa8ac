//! Subsumed label elimination: a soft literal whose violation only ever helps clauses that a
//! cheaper violation helps too is made hard.
//!
//! **Technique.** Read each unit soft term `t` (weight `w`) as a *label* `ℓ = ¬t`: setting `ℓ`
//! true costs `w`. Call `ℓ` *pure* when `t` itself occurs in no hard clause (nor in a selector
//! definition, nor as another term): then making `ℓ` true can only satisfy clauses, never
//! falsify one. For pure labels `ℓ_i`, `ℓ_j` with every clause containing `ℓ_i` also
//! containing `ℓ_j`, and `w_j ≤ w_i`, any solution with `ℓ_i` true stays a solution, no dearer,
//! with `ℓ_i` false and `ℓ_j` true; so some optimum has `ℓ_i` false, and `t_i` becomes a hard
//! unit. A pure label in no clause at all is never worth paying for, and is fixed the same
//! way. In set cover (a label per set, a clause per element), this drops every set whose
//! elements another set, no dearer, covers too; in combinatorial auctions, a bid whose only
//! conflict is a cheaper bid is accepted.
//!
//! **Paper.** Berg, Saikko & Järvisalo, "Subsumed label elimination for maximum
//! satisfiability", ECAI 2016, doi:10.3233/978-1-61499-672-9-630; one of MaxPre's techniques
//! (Korhonen, Berg, Saikko & Järvisalo, SAT 2017). Read to learn, written here.
//!
//! **Measured, and off by default** (`OllOptions::sle`): on the 42-instance real set it fires
//! on two spot5 instances only (1 and 8 labels; both are solved in under 0.1 s with or without
//! it), and on `maxsat-main` it changes nothing beyond noise (engine seed 0: 4.33M conflicts
//! with it, 4.35M without; 116.4 s CPU both) — its random set-cover family has no set whose
//! elements another, no dearer, set covers too. It stays an option, checked by brute force.
//!
//! **Where ours differs.** MaxPre adds a fresh label to every soft clause first; we only use the
//! unit softs' own literals as labels (a selector occurs in exactly one clause, its definition,
//! which no other label shares, so selectors are never subsumed), and we run once, before the
//! search, within an effort limit. It keeps the optimum's cost, not every optimal model; it runs
//! after the complement-symmetry unit, whose clause it sees, so the two reductions compose.
//! Every model is still priced on the original instance.

use grim_solver::Lit;

use super::oll::{Kind, Oll};

/// Literal comparisons allowed over the whole pass (occurrence-list merges).
const EFFORT: u64 = 20_000_000;

impl Oll {
    /// Runs the pass over `clauses` (the hard clauses, the selector definitions and any fact
    /// added before); returns how many terms it hardened.
    pub(super) fn eliminate_subsumed_labels<'a>(
        &mut self,
        clauses: impl Iterator<Item = &'a [Lit]>,
    ) -> u64 {
        let clauses: Vec<&[Lit]> = clauses.collect();
        let codes = 2 * self.solver.num_vars().max(self.num_vars);
        // occ[l.code()]: the clauses containing l (ascending, deduplicated).
        let mut occ: Vec<Vec<u32>> = vec![Vec::new(); codes];
        for (c, clause) in clauses.iter().enumerate() {
            for &l in clause.iter() {
                if let Some(o) = occ.get_mut(l.code())
                    && o.last() != Some(&(c as u32))
                {
                    o.push(c as u32);
                }
            }
        }
        // Candidate labels: live unit soft terms whose own literal is pure.
        let pure = |oll: &Oll, t: usize| -> Option<Lit> {
            let term = oll.terms.get(t)?;
            if !term.live || term.kind != Kind::Soft || term.lit.var().index() >= oll.num_vars {
                return None;
            }
            let label = !term.lit;
            let t_occurs = occ.get(term.lit.code()).is_some_and(|o| !o.is_empty());
            (!t_occurs && oll.term_index(label).is_none()).then_some(label)
        };
        let mut live: Vec<bool> = vec![false; self.terms.len()];
        for (t, flag) in live.iter_mut().enumerate() {
            *flag = pure(self, t).is_some();
        }
        let mut work = 0u64;
        let mut hardened = 0;
        for i in 0..self.terms.len() {
            if !live[i] || work > EFFORT {
                continue;
            }
            let label = !self.terms[i].lit;
            let wi = self.terms[i].weight;
            let oi = occ.get(label.code()).map_or(&[][..], Vec::as_slice);
            let subsumed = match oi.first() {
                None => true,
                Some(&c0) => clauses[c0 as usize].iter().any(|&lj| {
                    let Some(j) = self.term_index(!lj) else {
                        return false;
                    };
                    if j == i || !live[j] || self.terms[j].weight > wi {
                        return false;
                    }
                    let oj = occ.get(lj.code()).map_or(&[][..], Vec::as_slice);
                    work += (oi.len() + oj.len()) as u64;
                    oj.len() >= oi.len() && is_subset(oi, oj)
                }),
            };
            if subsumed {
                live[i] = false;
                self.terms[i].live = false;
                let lit = self.terms[i].lit;
                self.add_fact(lit);
                hardened += 1;
            }
        }
        self.stats.sle_hardened += hardened;
        hardened
    }
}

/// Whether sorted `a` is a subset of sorted `b`.
fn is_subset(a: &[u32], b: &[u32]) -> bool {
    let mut k = 0;
    for &x in a {
        while k < b.len() && b[k] < x {
            k += 1;
        }
        if k == b.len() || b[k] != x {
            return false;
        }
        k += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_subset;

    #[test]
    fn subsets_of_sorted_lists() {
        assert!(is_subset(&[], &[1]));
        assert!(is_subset(&[1, 3], &[0, 1, 2, 3]));
        assert!(!is_subset(&[1, 4], &[0, 1, 2, 3]));
        assert!(!is_subset(&[2], &[]));
    }
}
