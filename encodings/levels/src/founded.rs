//! Founded reachability as clauses, shared by the connectivity family (every class cell reached
//! from the root) and the paths family (an unbounded walk from a `from` cell): every reached
//! cell that is not a base cell has a parent neighbour, reached, with a strictly smaller rank,
//! a binary number of `⌈log₂ cells⌉` bits per cell compared by a chain of `LT` literals (3
//! clauses and one variable per bit and directed edge). Sound: following parents the rank
//! decreases, so every walk of parents ends, and only at a base cell. Complete: true
//! reachability has a BFS tree, whose depths are ranks. Why ranks and not layers: layered
//! reachability is complete only within its number of layers, which must be the number of
//! cells in general (1,048,576 variables at 32×32); the ranks cost `log₂ cells` bits a cell.

use crate::model::GridModel;
use grim_solver::Lit;

/// The founded reachability of `reach` from `base`: every `reach[c]` that is not `base[c]`
/// has a parent neighbour `d` with `reach[d]`, `pass[d]` (when given) and a smaller rank.
pub(crate) fn founded(m: &mut GridModel, reach: &[Lit], base: &[Lit], pass: Option<&[Lit]>) {
    let cells = m.spec.cells();
    let bits = (usize::BITS - (cells.max(2) - 1).leading_zeros()) as usize;
    let rank: Vec<Vec<Lit>> = (0..cells)
        .map(|_| (0..bits).map(|_| m.problem.new_var().pos()).collect())
        .collect();
    let ff = m.problem.always_false();
    for c in 0..cells {
        if reach[c] == ff || base[c] == m.problem.always_true() {
            continue;
        }
        let mut support = vec![!reach[c], base[c]];
        let nbrs: Vec<usize> = m.spec.neighbours(c).collect();
        for d in nbrs {
            if reach[d] == ff {
                continue;
            }
            let par = m.problem.new_var().pos();
            support.push(par);
            m.problem.add_clause(&[!par, reach[d]], None);
            if let Some(pass) = pass {
                m.problem.add_clause(&[!par, pass[d]], None);
            }
            rank_below(m, par, &rank[d], &rank[c]);
        }
        m.problem.add_clause(&support, None);
    }
}

/// A binary rank of `⌈log₂ n⌉` bits for each cell whose literal in `lits` is not the constant
/// false (`n` of them), none for the others: what the rank-based encodings over one class
/// (the acyclic family's parent pointers, the chokepoints' st-numbering) number the class by.
pub(crate) fn class_ranks(m: &mut GridModel, lits: &[Lit]) -> Vec<Vec<Lit>> {
    let ff = m.problem.always_false();
    let used = lits.iter().filter(|&&l| l != ff).count();
    let bits = (usize::BITS - (used.max(2) - 1).leading_zeros()) as usize;
    lits.iter()
        .map(|&l| {
            if l == ff {
                Vec::new()
            } else {
                (0..bits).map(|_| m.problem.new_var().pos()).collect()
            }
        })
        .collect()
}

/// `guard → lower < higher`, two binary ranks of equal width compared most significant bit
/// first by a chain of `LT` literals (3 clauses and one variable per bit but the last, which
/// takes 2). The comparison every rank-based encoding here uses (founded reachability, the
/// chokepoints' pieces, the acyclic family's parent pointers).
pub(crate) fn rank_below(m: &mut GridModel, guard: Lit, lower: &[Lit], higher: &[Lit]) {
    let ff = m.problem.always_false();
    let mut lt = guard;
    for i in (0..lower.len()).rev() {
        let (x, y) = (lower[i], higher[i]);
        let next = if i == 0 {
            ff
        } else {
            m.problem.new_var().pos()
        };
        if i > 0 {
            // At the last bit `next` is false and the two clauses below say `¬x` and `y`,
            // which subsume this one.
            m.problem.add_clause(&[!lt, !x, y], None);
        }
        m.problem.add_clause(&[!lt, !x, next], None);
        m.problem.add_clause(&[!lt, y, next], None);
        lt = next;
    }
}
