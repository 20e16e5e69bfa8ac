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
//! Soft (`weight`): every pair clause is guarded by one relaxation literal, in every model
//! (the propagator part handles hard rules only).

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
                let cells: Vec<_> = (0..m.spec.cells())
                    .filter(|&c| sel[c] != ff && sel[c] != tt)
                    .map(|c| (c, sel[c]))
                    .collect();
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
