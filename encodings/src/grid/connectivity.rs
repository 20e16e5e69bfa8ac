//! Connectivity: every cell of a class is reachable from a root through cells of the class
//! (4-neighbour) — sound and complete: a disconnected map is impossible, and every connected
//! map stays possible.
//!
//! # The eager encoding (what an exported CNF carries)
//! A *founded* reachability: every class cell `c` other than the root picks a parent
//! `par(c, d)` among its class neighbours, and parents must have a strictly smaller rank,
//! a binary number of `⌈log₂ cells⌉` bits per cell compared by a chain of `LT` literals
//! (`LT_i → ¬x_i ∨ y_i`, `LT_i → ¬x_i ∨ LT_{i−1}`, `LT_i → y_i ∨ LT_{i−1}`, `LT_{-1} = ⊥`; 3 clauses
//! and one variable per bit and directed edge, `LT_top = par`). Sound: following parents the
//! rank decreases, so the walk ends, and only at the root. Complete: a connected map has a BFS
//! tree; its depths are ranks. With `"root": "any"` the root is the first class cell in
//! row-major order (`r(c) ↔ class(c) ∧ ¬before(c)`, `before` a prefix-or chain), which also
//! breaks the symmetry between roots. Size at 32×32: 1,024 cells × 10 bits, 3,968 directed
//! edges → about 44,000 variables and 120,000 clauses.
//!
//! Layered reachability (`reach_t(c)` for t = 0..L) is complete only within `L` steps and
//! needs `L = cells` to be complete in general: 1,048,576 variables at 32×32 — rejected. The
//! issue measured a rank encoding at 304 s in CaDiCaL at 32×32; that is why [`super::solve`]
//! does not use this encoding (see below) — it is there for external solvers, for which
//! soundness and completeness matter more than speed.
//!
//! # The lazy cuts (what `solve` uses)
//! Solve without connectivity, flood-fill the model, and for every component `C` that is not
//! the root's (or, with root "any", not the largest) add the separator clause
//! `¬f(u) ∨ ¬f(v) ∨ ⋁_{w ∈ ∂C} f(w)` with `u ∈ C`, `v` in the main component and `∂C` the
//! cells around `C` (with a given root, `v` is the root and `¬f(v)` is dropped: the root is
//! pinned to the class). Every connected map satisfies every such clause (a path from `u` to
//! `v` must leave `C` through `∂C`), so no connected map is lost; the loop ends when the model
//! is connected, which a BFS checks, so no disconnected map is returned. Measured numbers are
//! in `FORMAT.md`.

use super::GridModel;
use super::model::ConnMode;
use grim_solver::Lit;

/// Emits every connectivity rule: the root in any case, the founded encoding when eager.
pub(crate) fn encode(m: &mut GridModel, mode: ConnMode) {
    let rules = m.spec.connectivity.clone();
    for rule in &rules {
        let class = m.class_lits(&rule.class);
        let cells = m.spec.cells();
        let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
        let root: Vec<Lit> = match rule.root {
            Some((x, y)) => {
                let r = m.spec.index(x, y);
                m.problem.add_clause(&[class[r]], None);
                (0..cells).map(|c| if c == r { tt } else { ff }).collect()
            }
            None => {
                if mode == ConnMode::Lazy {
                    continue;
                }
                // r(c) ↔ class(c) ∧ ¬before(c); before(c+1) ↔ before(c) ∨ class(c).
                let mut before = ff;
                let mut roots = Vec::with_capacity(cells);
                for &f in class.iter() {
                    let r = m.problem.conj(&[f, !before]);
                    roots.push(r);
                    let next = m.problem.conj(&[!f, !before]);
                    before = !next;
                }
                roots
            }
        };
        if mode == ConnMode::Eager {
            founded(m, &class, &root, None);
        }
    }
}

/// The founded-reachability core shared with `paths`: every `reach[c]` that is not `base[c]`
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
            // par → rank(d) < rank(c), most significant bit first.
            let mut lt = par;
            for i in (0..bits).rev() {
                let (x, y) = (rank[d][i], rank[c][i]);
                let next = if i == 0 {
                    ff
                } else {
                    m.problem.new_var().pos()
                };
                m.problem.add_clause(&[!lt, !x, y], None);
                m.problem.add_clause(&[!lt, !x, next], None);
                m.problem.add_clause(&[!lt, y, next], None);
                lt = next;
            }
        }
        m.problem.add_clause(&support, None);
    }
}

/// The separator cuts for one rule on a level: `class[c]` is the class literal of cell `c`,
/// `holds[c]` whether the level has the class there, `root` the given root. Empty when the
/// class cells are connected (and, with a root, contain it).
pub(crate) fn cuts(
    spec: &super::GridSpec,
    class: &[Lit],
    holds: &[bool],
    root: Option<usize>,
) -> Vec<Vec<Lit>> {
    let comps = components(spec, holds);
    if comps.len() <= 1 && root.is_none_or(|r| holds[r]) {
        return Vec::new();
    }
    let main = match root {
        Some(r) => comps.iter().position(|c| c.contains(&r)),
        None => {
            // The largest component (the first among equals).
            let mut best = 0;
            for (i, c) in comps.iter().enumerate() {
                if c.len() > comps[best].len() {
                    best = i;
                }
            }
            Some(best)
        }
    };
    let mut out = Vec::new();
    let mut in_comp = vec![false; spec.cells()];
    for (i, comp) in comps.iter().enumerate() {
        if Some(i) == main {
            continue;
        }
        for &c in comp {
            in_comp[c] = true;
        }
        let mut clause = vec![!class[comp[0]]];
        match (root, main) {
            (Some(_), _) => {}
            (None, Some(mi)) => clause.push(!class[comps[mi][0]]),
            (None, None) => {}
        }
        let mut seen = vec![false; spec.cells()];
        for &c in comp {
            for w in spec.neighbours(c) {
                if !in_comp[w] && !seen[w] {
                    seen[w] = true;
                    clause.push(class[w]);
                }
            }
        }
        for &c in comp {
            in_comp[c] = false;
        }
        out.push(clause);
    }
    out
}

/// The 4-connected components of the cells where `holds`, each in BFS order from its first
/// cell (row-major), listed by first cell.
pub(crate) fn components(spec: &super::GridSpec, holds: &[bool]) -> Vec<Vec<usize>> {
    let mut comp = vec![usize::MAX; spec.cells()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for s in 0..spec.cells() {
        if !holds[s] || comp[s] != usize::MAX {
            continue;
        }
        let id = out.len();
        comp[s] = id;
        let mut list = vec![s];
        let mut i = 0;
        while i < list.len() {
            let c = list[i];
            i += 1;
            for d in spec.neighbours(c) {
                if holds[d] && comp[d] == usize::MAX {
                    comp[d] = id;
                    list.push(d);
                }
            }
        }
        out.push(list);
    }
    out
}
