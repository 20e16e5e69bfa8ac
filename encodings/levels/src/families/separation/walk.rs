//! Walking separation (`"metric": "walk"`): any two distinct cells holding the selection are at
//! least `d` steps apart along walks whose inner cells hold `through` (no walk: far enough).
//!
//! Clauses in every model, sound and complete: from each cell `s` that may hold the
//! selection, distance layers in the forcing direction (as `min_length` in
//! `families/paths/encode.rs`): `r_k(v)` = "a walk of at most `k` steps from `s` ends at `v`",
//! forced by `sel(s)` for `s`'s neighbours at `k = 1`, by `r_{k−1}(v)`, and by
//! `r_{k−1}(u) ∧ through(u)` for a neighbour `u ≠ s`; then `¬(r_{d−1}(v) ∧ sel(v))` for `v ≠ s`.
//! Sound: along a too-short walk between two selected cells the clauses force its end.
//! Complete: the true distances from a selected `s` (and all false for an unselected one)
//! satisfy every clause of a level that keeps the rule. Each cell gets the layers from its
//! Manhattan distance to `s` up to `d − 1`. Size about `cells · d³ / 1.5`: the reader refuses
//! rules above `MAX_SEPARATION_PAIRS` of `cells · d² (d − 1)`. No propagator part: the
//! propagated model carries the same clauses.

use crate::model::GridModel;
use grim_solver::Lit;

/// The clauses of the module doc for the selection `sel` at distance `d`, each forbidding
/// clause guarded by `guard` when the rule is soft.
pub(super) fn encode(
    m: &mut GridModel,
    sel: &[Lit],
    through: &[Lit],
    d: usize,
    guard: Option<Lit>,
) {
    let (w, h) = (m.spec.width, m.spec.height);
    let cells = w * h;
    let ff = m.problem.always_false();
    if d <= 1 {
        return; // distinct cells are at least 1 apart
    }
    let top = d - 1;
    for s in 0..cells {
        if sel[s] == ff {
            continue;
        }
        let (sx, sy) = (s % w, s / w);
        // layers[v] = (first layer, literals up to `top`), for v ≠ s within Manhattan `top`.
        let mut layers: Vec<Option<(usize, Vec<Lit>)>> = vec![None; cells];
        for (v, slot) in layers.iter_mut().enumerate() {
            let md = (v % w).abs_diff(sx) + (v / w).abs_diff(sy);
            if v == s || md > top {
                continue;
            }
            let lits: Vec<Lit> = (md..=top).map(|_| m.problem.new_var().pos()).collect();
            for pair in lits.windows(2) {
                m.problem.add_clause(&[!pair[0], pair[1]], None);
            }
            *slot = Some((md, lits));
        }
        let at = |layers: &[Option<(usize, Vec<Lit>)>], v: usize, k: usize| -> Option<Lit> {
            let (first, lits) = layers[v].as_ref()?;
            k.checked_sub(*first).and_then(|i| lits.get(i)).copied()
        };
        let nbrs: Vec<usize> = m.spec.neighbours(s).collect();
        for &n in &nbrs {
            if let Some(r1) = at(&layers, n, 1) {
                m.problem.add_clause(&[!sel[s], r1], None);
            }
        }
        for u in 0..cells {
            let Some((first, lits)) = layers[u].clone() else {
                continue;
            };
            if through[u] != ff {
                let around: Vec<usize> = m.spec.neighbours(u).collect();
                for (i, &r) in lits.iter().enumerate() {
                    for &v in &around {
                        if let Some(next) = at(&layers, v, first + i + 1) {
                            m.problem.add_clause(&[!r, !through[u], next], None);
                        }
                    }
                }
            }
            if sel[u] != ff
                && let Some(&last) = lits.last()
            {
                let mut clause = vec![!sel[s], !last, !sel[u]];
                clause.extend(guard);
                m.problem.add_clause(&clause, None);
            }
        }
    }
}
