//! Symmetry: the tiles (and optionally one layer's values) of a region are invariant under a
//! mirror across its vertical or horizontal axis, a half turn or a quarter turn — a mirrored
//! arena, a symmetric temple; hard, or soft with a weight like counts.
//!
//! Encoded the same way in every model, by implications along the map `σ`: for every cell `c`
//! of the region and every tile `t`, `t(c) → t(σ(c))` (and the same per value of the layer).
//! `σ` is a permutation of the region's cells, so following a cycle of it (2 cells for the
//! mirrors and the half turn, 4 for the quarter turn) the implications make all its cells
//! equal: sound and complete, with one binary clause per cell and tile (4,096 · tiles on a
//! 64×64 grid) and nothing left to the search. A cell on the axis is its own image and costs
//! nothing (its clause is a tautology, dropped).
//!
//! Soft (`weight`): every clause is guarded by one relaxation literal; a level that is not
//! symmetric pays `weight` once (not per cell: "symmetric or not" is what a designer weighs;
//! a per-cell price is a count over mismatches, not done).

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::model::GridModel;
use crate::spec::{GridSpec, RuleRef, RuleTag};
use rule::NAME;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Symmetry;

impl Family for Symmetry {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.symmetry = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.symmetry.clone();
        let tiles = m.spec.tiles.len();
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            let guard = rule.weight.map(|_| m.problem.new_var().pos());
            let r = rule.region;
            for y in r.y..r.y + r.h {
                for x in r.x..r.x + r.w {
                    let (ix, iy) = rule.image(x, y);
                    let (c, d) = (m.spec.index(x, y), m.spec.index(ix, iy));
                    if c == d {
                        continue;
                    }
                    let mut pairs: Vec<_> = (0..tiles)
                        .map(|t| (m.tile_lit(c, t), m.tile_lit(d, t)))
                        .collect();
                    if let Some(l) = rule.layer {
                        let n = m.spec.layers[l].values.len();
                        pairs.extend((0..n).map(|v| (m.value_lit(l, c, v), m.value_lit(l, d, v))));
                    }
                    for (a, b) in pairs {
                        let mut clause = vec![!a, b];
                        clause.extend(guard);
                        m.problem.add_clause(&clause, None);
                    }
                }
            }
            if let (Some(g), Some(w)) = (guard, rule.weight) {
                m.problem.add_clause(&[!g], Some(w));
            }
        }
        m.tag(None);
    }

    /// The hard symmetry rules (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.symmetry.len()).filter(|&i| spec.symmetry[i].weight.is_none());
        tagged(spec, NAME, &["kind", "region", "layer"], hard)
    }
}
