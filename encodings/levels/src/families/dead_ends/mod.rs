//! Dead ends: the number of `class` cells with exactly one 4-neighbour in the class lies
//! between `min` and `max` — `max: 0` asks for a level without dead ends (every corridor
//! loops back or widens), a `min` for a maze with places to hide things.
//!
//! Encoded the same way in every model: one indicator `d(c)` per cell, defined both ways,
//! `d(c) ↔ class(c) ∧ exactly one of class(n), n the neighbours of c` —
//! `d → class(c)`, `d → ⋁ class(n)`, `d → ¬class(n) ∨ ¬class(n')` per pair of neighbours, and
//! `class(c) ∧ class(n) ∧ ⋀_{n' ≠ n} ¬class(n') → d` per neighbour: at most 4 + 6 + 4 clauses
//! per cell, no clause longer than 6 literals. The count `min ≤ Σ d ≤ max` is grim-encodings'
//! cardinality (`Problem::count`: its choice of encoding by size; `max: 0` is a unit per
//! indicator, which unit propagation turns into "a class cell with one class neighbour has a
//! second"). Defined both ways, the indicators count exactly the dead ends, so the encoding is
//! sound and complete for both bounds; a cell whose domain rules the class out gets no
//! indicator.
//!
//! No part in the propagator: with the usual `max: 0` every inference is local, and the
//! measured benchmark (`instances/grid/cave-no-dead-ends-64.json`, with connectivity:
//! 0.27–0.47 CPU s) solves without one; a propagator reasoning about dead ends together with
//! connectivity (a corridor that must end somewhere) is left to the issue's "search-time
//! reasoning" item.

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::model::GridModel;
use crate::spec::{GridSpec, RuleRef, RuleTag};
use rule::NAME;

/// The family in the table (`families/mod.rs`).
pub(crate) struct DeadEnds;

impl Family for DeadEnds {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.dead_ends = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.dead_ends.clone();
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            let class = m.class_lits(&rule.class);
            let ff = m.problem.always_false();
            let mut ends = Vec::new();
            for c in 0..m.spec.cells() {
                if class[c] == ff {
                    continue;
                }
                let nbrs: Vec<_> = m.spec.neighbours(c).map(|n| class[n]).collect();
                let d = m.problem.new_var().pos();
                m.problem.add_clause(&[!d, class[c]], None);
                let mut some = vec![!d];
                some.extend(&nbrs);
                m.problem.add_clause(&some, None);
                for (j, &a) in nbrs.iter().enumerate() {
                    for &b in &nbrs[j + 1..] {
                        m.problem.add_clause(&[!d, !a, !b], None);
                    }
                    let mut only = vec![d, !class[c], !a];
                    only.extend(
                        nbrs.iter()
                            .enumerate()
                            .filter(|&(k, _)| k != j)
                            .map(|(_, &b)| b),
                    );
                    m.problem.add_clause(&only, None);
                }
                ends.push(d);
            }
            let hi = rule
                .max
                .map_or(ends.len(), |x| x.min(ends.len() as u64) as usize);
            let lo = usize::try_from(rule.min).unwrap_or(usize::MAX);
            // `Problem::count` turns an impossible bound (min above the cells that could be
            // dead ends, or above max) into the empty clause: no level, or always the price.
            m.problem.count(&ends, lo, hi, rule.weight);
        }
        m.tag(None);
    }

    /// The hard dead-end rules (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.dead_ends.len()).filter(|&i| spec.dead_ends[i].weight.is_none());
        tagged(spec, NAME, &["class", "min", "max"], hard)
    }
}
