//! Exactly one tile per cell, and the cell domains.
//!
//! Exactly-one is pairwise: `t` binary clauses `¬a ∨ ¬b` plus one clause `⋁ a` per cell. With
//! the few tiles a level has (5 in the dungeon: 10 binaries) pairwise beats a counter (the
//! crate's measured threshold is 7 literals, `card::THRESHOLDS_AT_MOST`) and propagates best.
//! Tiles the domain excludes (mask, pins, `allowed`) get a unit `¬a` and drop out of the
//! clauses, so a pinned cell costs one unit per excluded tile and nothing else.

use super::GridModel;

/// Emits the exactly-one clauses and the domain units of every cell.
pub(crate) fn encode(m: &mut GridModel) {
    let t = m.spec.tiles.len();
    for c in 0..m.spec.cells() {
        let mut allowed = Vec::with_capacity(t);
        for a in 0..t {
            let lit = m.tile_lit(c, a);
            if m.spec.domains[c][a] {
                allowed.push(lit);
            } else {
                m.problem.add_clause(&[!lit], None);
            }
        }
        m.problem.add_clause(&allowed, None);
        for i in 0..allowed.len() {
            for j in i + 1..allowed.len() {
                m.problem.add_clause(&[!allowed[i], !allowed[j]], None);
            }
        }
    }
}
