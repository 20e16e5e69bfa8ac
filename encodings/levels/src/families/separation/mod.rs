//! Separation: any two cells holding a tile, class or layer value are at least `min_distance`
//! apart (Manhattan) — spawn points, chests, enemies spread over the map.
//!
//! The rule is a set of binary clauses, one per pair of cells closer than `min_distance`:
//! `¬sel(c) ∨ ¬sel(d)`. That is what the export writes (sound and complete; at most
//! `cells · d · (d − 1)` clauses, 1.56 million for `d` = 20 on 64×64, so the reader refuses a
//! rule above `MAX_SEPARATION_PAIRS`). The propagated model leaves the hard rules' pairs to
//! a part of the grid propagator instead (`propagate.rs`): when `sel(c)` becomes true it
//! sets `sel(d)` false for every cell `d` of the diamond around `c`, each with the binary
//! reason — the same inferences as the clauses, without storing a million of them or
//! watching them. Pairs with a cell whose selection is a constant (a pinned cell) stay clauses
//! in every model (units, after simplification).
//!
//! Why not a smaller export: rotating the grid by 45° turns the Manhattan diamond into a
//! `d × d` square of the rotated lattice, and "at most one in every window" has encodings
//! linear in the cells (prefix/suffix ORs per block); not done yet — the pairwise clauses are
//! what the propagator's reasons are, so the two models stay easy to compare.
//!
//! **The export** (issue 40) writes the same rule through row windows instead (`windows`):
//! per row, `or_k(x)` ⇐ "some cell of `[x, x + 2^k)` holds the selection" (one direction,
//! two clauses per node of a sparse table), and per cell and row of its diamond two clauses
//! `¬sel(c) ∨ ¬or(w)` on two power-of-two windows covering the diamond's span in that row.
//! Sound: a selected cell in a forbidden span makes some window's `or` true. Complete: `or` =
//! the true OR satisfies every clause when no two selected cells are close. Unit propagation
//! infers what the pairs do (`sel(c)` empties every window, each window its cells). Size
//! `O(cells · (d + log W))` against `cells · d²`: on the 64×64 arenas (spawns 24 apart),
//! 1,756,758 clauses → 239,420 (`benches/results/issue40-export-2026-12-06.md`).
//!
//! Soft (`weight`): every pair clause (in the export: every window clause) is guarded by one
//! relaxation literal, in every model (the propagator part handles hard rules only).

pub(crate) mod rule;

mod propagate;
mod walk;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::model::{GridModel, Mode};
use crate::spec::{GridSpec, RuleRef, RuleTag};
use rule::NAME;
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Separation;

impl Family for Separation {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.separation = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.separation.clone();
        let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            let sel = m.selection_lits(&rule.of);
            let guard = rule.weight.map(|_| m.problem.new_var().pos());
            if let Some(through) = &rule.through {
                let through = m.class_lits(through);
                walk::encode(m, &sel, &through, rule.min_distance, guard);
                if let (Some(g), Some(wt)) = (guard, rule.weight) {
                    m.problem.add_clause(&[!g], Some(wt));
                }
                continue;
            }
            let searched = m.mode == Mode::Propagate && guard.is_none();
            let d = rule.min_distance;
            if m.mode == Mode::Eager {
                windows(m, &sel, d, guard);
                if let (Some(g), Some(wt)) = (guard, rule.weight) {
                    m.problem.add_clause(&[!g], Some(wt));
                }
                continue;
            }
            for c in 0..m.spec.cells() {
                if sel[c] == ff {
                    continue;
                }
                for e in propagate::ball(m.spec.width, m.spec.height, c, d) {
                    // Each pair once, from its first cell.
                    if e <= c || sel[e] == ff {
                        continue;
                    }
                    let constant = sel[c] == tt || sel[e] == tt;
                    if searched && !constant {
                        continue;
                    }
                    let mut clause = vec![!sel[c], !sel[e]];
                    clause.extend(guard);
                    m.problem.add_clause(&clause, None);
                }
            }
            if let (Some(g), Some(wt)) = (guard, rule.weight) {
                m.problem.add_clause(&[!g], Some(wt));
            }
            if searched {
                let mut cells: Vec<_> = (0..m.spec.cells())
                    .filter(|&c| sel[c] != ff && sel[c] != tt)
                    .map(|c| (c, sel[c]))
                    .collect();
                // The order the part decides in (`propagate.rs`): the cells the seeded wishes
                // put the selection on first, then the others scattered over the grid by a
                // fixed multiplicative hash (row-major would crowd the items into the top rows).
                cells.sort_by_key(|&(c, l)| {
                    let wished = m.wished(l) == Some(true);
                    (!wished, (c as u32).wrapping_mul(0x9E37_79B1), c)
                });
                m.plans.push(Arc::new(propagate::Plan {
                    width: m.spec.width,
                    height: m.spec.height,
                    distance: d,
                    cells,
                }));
            }
        }
        m.tag(None);
    }

    /// The hard separation rules (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.separation.len()).filter(|&i| spec.separation[i].weight.is_none());
        tagged(spec, NAME, &["of", "min_distance", "metric"], hard)
    }
}

/// The export's separation (module doc): sparse-table row windows, then two clauses per cell
/// and row of its diamond (pairs once: rows below, and the cells east of `c` in its own row),
/// each or-ed with `guard`.
fn windows(m: &mut GridModel, sel: &[grim_solver::Lit], d: usize, guard: Option<grim_solver::Lit>) {
    use grim_solver::Lit;
    let (w, h) = (m.spec.width, m.spec.height);
    let ff = m.problem.always_false();
    if d < 2 {
        return;
    }
    // table[y][k][x] ⇐ some cell of row y in [x, x + 2^k) is selected.
    let mut table: Vec<Vec<Vec<Lit>>> = Vec::with_capacity(h);
    for y in 0..h {
        let mut levels: Vec<Vec<Lit>> = vec![(0..w).map(|x| sel[y * w + x]).collect()];
        let mut len = 1;
        while 2 * len <= w {
            let below = levels.last().cloned().unwrap_or_default();
            let next: Vec<Lit> = (0..=w - 2 * len)
                .map(|x| {
                    let (a, b) = (below[x], below[x + len]);
                    if a == ff {
                        b
                    } else if b == ff {
                        a
                    } else {
                        let o = m.problem.new_var().pos();
                        m.problem.add_clause(&[!a, o], None);
                        m.problem.add_clause(&[!b, o], None);
                        o
                    }
                })
                .collect();
            levels.push(next);
            len *= 2;
        }
        table.push(levels);
    }
    // The windows covering [a, b] of row y: one or two table entries.
    let cover = |table: &Vec<Vec<Vec<Lit>>>, y: usize, a: usize, b: usize| -> [Lit; 2] {
        let n = b - a + 1;
        let k = (usize::BITS - 1 - n.leading_zeros()) as usize;
        let row = &table[y][k];
        [row[a], row[b + 1 - (1 << k)]]
    };
    let r = d - 1;
    for c in 0..w * h {
        if sel[c] == ff {
            continue;
        }
        let (x, y) = (c % w, c / w);
        for dy in 0..=r.min(h - 1 - y) {
            let span = r - dy;
            let (a, b) = if dy == 0 {
                if x + 1 >= w || span == 0 {
                    continue;
                }
                (x + 1, (x + span).min(w - 1))
            } else {
                (x.saturating_sub(span), (x + span).min(w - 1))
            };
            let [p, q] = cover(&table, y + dy, a, b);
            for o in if p == q { vec![p] } else { vec![p, q] } {
                let mut clause = vec![!sel[c], !o];
                clause.extend(guard);
                m.problem.add_clause(&clause, None);
            }
        }
    }
}
