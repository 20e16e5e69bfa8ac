//! Breaking the complement symmetry: when flipping every variable maps the instance onto itself,
//! one variable may be fixed.
//!
//! **Technique.** Call an instance *complement-symmetric* when negating every literal of every
//! clause gives back the same hard clauses and the same soft clauses with the same weights
//! (as multisets, clauses compared as literal sets). Max-cut in its usual MaxSAT form — the
//! softs `u ∨ v` and `¬u ∨ ¬v` per edge — is the common case; so is any 2-colouring or
//! partitioning problem written without a preferred side. For such an instance the complement
//! of a model is a model of the same cost, so every cost is reached with some variable `x`
//! true: adding the hard unit `x` keeps the optimum and halves the space every UNSAT answer of
//! the core-guided search must refute. (Symmetry breaking in the sense of Crawford, Ginsberg,
//! Luks & Roy, KR 1996, for the one symmetry that is cheap to detect exactly.)
//!
//! **Measured.** maxcut_46_20_2 of `maxsat-main`: see the commit that introduced this file.
//!
//! **Cost.** A counting pass over the literals first (a symmetric instance has as many positive
//! as negative occurrences of every variable); only if it passes are the clauses sorted and
//! compared, in O(size · log size) time and a copy of the instance in memory.

use grim_solver::{Lit, Var, normalise_clause};

use grim_formula::Wcnf;

/// A variable whose positive unit may be added when `wcnf` is complement-symmetric (the one
/// with the most occurrences, the lowest index on ties), or `None` when it is not symmetric
/// or uses no variable.
pub(super) fn complement_symmetry(wcnf: &Wcnf) -> Option<Var> {
    // Pass 1, a filter: per variable, positive minus negative occurrences (soft ones counted
    // with their weight) vanish on a symmetric instance. Also count occurrences, for the choice.
    // Soft clauses of weight 0 cost nothing and are ignored throughout.
    let num_vars = wcnf
        .hard
        .iter()
        .chain(wcnf.soft.iter().filter(|(w, _)| *w > 0).map(|(_, c)| c))
        .flatten()
        .map(|l| l.var().index() + 1)
        .max()?;
    let mut balance = vec![0i128; num_vars];
    let mut occurrences = vec![0u64; num_vars];
    for clause in &wcnf.hard {
        for l in clause {
            balance[l.var().index()] += if l.is_positive() { 1 } else { -1 };
            occurrences[l.var().index()] += 1;
        }
    }
    for (w, clause) in wcnf.soft.iter().filter(|(w, _)| *w > 0) {
        for l in clause {
            let w = *w as i128;
            balance[l.var().index()] += if l.is_positive() { w } else { -w };
            occurrences[l.var().index()] += 1;
        }
    }
    if balance.iter().any(|&b| b != 0) {
        return None;
    }
    // Pass 2: the exact multiset comparison.
    let canonical = |clauses: &mut dyn Iterator<Item = (u64, Vec<Lit>)>| {
        let mut v: Vec<(Vec<Lit>, u64)> = clauses
            .filter_map(|(w, mut c)| normalise_clause(&mut c).then_some((c, w)))
            .collect();
        v.sort_unstable();
        // Merge equal clauses: weights add up (hard clauses carry weight 0 and stay apart
        // because hard and soft lists are compared separately).
        let mut merged: Vec<(Vec<Lit>, u64)> = Vec::with_capacity(v.len());
        for (c, w) in v {
            match merged.last_mut() {
                Some((last, lw)) if *last == c => *lw = lw.saturating_add(w),
                _ => merged.push((c, w)),
            }
        }
        merged
    };
    let hard = |flip: bool| {
        canonical(&mut wcnf.hard.iter().map(|c| {
            let c: Vec<Lit> = c.iter().map(|&l| if flip { !l } else { l }).collect();
            (0, c)
        }))
    };
    if hard(false) != hard(true) {
        return None;
    }
    let soft = |flip: bool| {
        canonical(&mut wcnf.soft.iter().filter(|(w, _)| *w > 0).map(|(w, c)| {
            let c: Vec<Lit> = c.iter().map(|&l| if flip { !l } else { l }).collect();
            (*w, c)
        }))
    };
    if soft(false) != soft(true) {
        return None;
    }
    let best = (0..num_vars).max_by_key(|&v| (occurrences[v], std::cmp::Reverse(v)))?;
    Var::new(best as u32).filter(|_| occurrences[best] > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(d: i64) -> Lit {
        Lit::from_dimacs(d).unwrap()
    }

    fn clause(ds: &[i64]) -> Vec<Lit> {
        ds.iter().map(|&d| lit(d)).collect()
    }

    #[test]
    fn max_cut_is_symmetric_and_a_preferred_side_is_not() {
        let mut w = Wcnf::new(3);
        for (u, v) in [(1, 2), (2, 3), (1, 3)] {
            w.add_soft(1, &clause(&[u, v]));
            w.add_soft(1, &clause(&[-u, -v]));
        }
        // Vertex 1 and 3 occur twice per polarity, 2 as often: the lowest index wins ties.
        assert_eq!(complement_symmetry(&w), Var::new(0));
        w.hard.push(clause(&[1, -2]));
        assert_eq!(
            complement_symmetry(&w),
            None,
            "hard clause without its mirror"
        );
        w.hard.push(clause(&[-1, 2]));
        assert_eq!(complement_symmetry(&w), Var::new(0));
        w.add_soft(2, &clause(&[3]));
        assert_eq!(complement_symmetry(&w), None, "a preferred side");
        w.add_soft(1, &clause(&[-3]));
        assert_eq!(complement_symmetry(&w), None, "mirror with another weight");
        w.add_soft(1, &clause(&[-3]));
        // Variable 3 now occurs most often.
        assert_eq!(complement_symmetry(&w), Var::new(2), "duplicates add up");
    }

    #[test]
    fn balanced_counts_without_symmetry_are_rejected_by_the_exact_pass() {
        // Every variable occurs once per polarity, but the clauses do not mirror each other.
        let mut w = Wcnf::new(2);
        w.add_soft(1, &clause(&[1, 2]));
        w.add_soft(1, &clause(&[-1]));
        w.add_soft(1, &clause(&[-2]));
        assert_eq!(complement_symmetry(&w), None);
        assert_eq!(complement_symmetry(&Wcnf::new(4)), None, "no variable used");
        let mut zero = Wcnf::new(1);
        zero.add_soft(0, &clause(&[1]));
        zero.add_soft(0, &clause(&[-1]));
        assert_eq!(
            complement_symmetry(&zero),
            None,
            "weight-0 softs use no variable"
        );
    }
}
