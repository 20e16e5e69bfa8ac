//! What may sit beside what.
//!
//! The spec holds one table per direction, already merged from the symmetric and directional
//! rules and symmetric by construction (`b` east of `a` ⇔ `a` west of `b`). Each adjacent pair
//! of cells is visited once, through its east and south sides, and every forbidden tile pair
//! becomes the binary clause `¬a(c) ∨ ¬b(c')` — pairs the two domains already exclude are
//! skipped. Binary clauses are the engine's cheapest (watched specially); a support encoding
//! (`a(c) → ⋁ allowed b(c')`) would be smaller only when most pairs are forbidden, which hand
//! written tables rarely do (an assumption, not measured).

use super::{Dir, GridModel};

/// Emits the forbidden-pair clauses.
pub(crate) fn encode(m: &mut GridModel) {
    let t = m.spec.tiles.len();
    for c in 0..m.spec.cells() {
        for d in [Dir::E, Dir::S] {
            let Some(e) = m.spec.neighbour(c, d) else {
                continue;
            };
            for a in (0..t).filter(|&a| m.spec.domains[c][a]) {
                for b in (0..t).filter(|&b| m.spec.domains[e][b]) {
                    if !m.spec.adjacent[d as usize][a][b] {
                        let clause = [!m.tile_lit(c, a), !m.tile_lit(e, b)];
                        m.problem.add_clause(&clause, None);
                    }
                }
            }
        }
    }
}
