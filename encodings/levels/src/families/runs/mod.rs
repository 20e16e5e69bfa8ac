//! Runs: no more than `max` consecutive cells of a selection along a row and/or a column
//! (DeBroglie's MaxConsecutive), hard or soft.
//!
//! Encoded locally, the same way in every model: every window of `max + 1` consecutive cells
//! of a row (column) inside the region gets the clause "one of them does not hold `of`",
//! `⋁ ¬sel(c)`. A level has a run longer than `max` exactly when some window of `max + 1`
//! lies inside it, so the clauses are sound and complete on their own and unit propagation
//! does all the search-time work (the last free cell of a window is pushed out), which is why
//! the family has no part in the propagator. Size: at most one clause of `max + 1` literals
//! per cell and axis (8,192 clauses on a 64×64 grid, both axes).
//!
//! Why windows and not a counter per row (a sequential counter of run lengths, `O(cells·max)`
//! auxiliaries): the windows need no auxiliary variable, and for the `max` a designer writes
//! (2 to 8) they are no larger; their propagation is as strong (an assumption, not measured
//! beyond the benchmark spec `instances/grid/cave-runs-64.json`).
//!
//! Soft (`weight`): every window clause is guarded by one relaxation literal `r`, and `¬r`
//! is a soft unit of the weight: the level pays it once however many runs are too long.

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::model::GridModel;
use crate::spec::{GridSpec, RuleRef, RuleTag};
use rule::NAME;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Runs;

impl Family for Runs {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.runs = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.runs.clone();
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            let sel = m.selection_lits(&rule.of);
            let guard = rule.weight.map(|_| m.problem.new_var().pos());
            for line in windows(&m.spec, rule) {
                let mut clause: Vec<_> = line.iter().map(|&c| !sel[c]).collect();
                clause.extend(guard);
                m.problem.add_clause(&clause, None);
            }
            if let (Some(g), Some(w)) = (guard, rule.weight) {
                m.problem.add_clause(&[!g], Some(w));
            }
        }
        m.tag(None);
    }

    /// The hard run rules (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.runs.len()).filter(|&i| spec.runs[i].weight.is_none());
        tagged(spec, NAME, &["of", "max", "axis", "region"], hard)
    }
}

/// Every window of `max + 1` consecutive cells of the rule's region along the rule's axes, as
/// cell indices (rows first, each west to east; then columns, each north to south).
fn windows(spec: &GridSpec, rule: &rule::RunRule) -> Vec<Vec<usize>> {
    let k = rule.max + 1;
    let lines = rule
        .region
        .windows(spec.width, k, rule.axis.rows(), rule.axis.columns());
    lines
        .into_iter()
        .map(|(first, step)| (0..k).map(|i| first + i * step).collect())
        .collect()
}
