//! The counts family: `counts[i]`, how many cells of a selection — absolute, a ratio of a
//! region, or a ratio of another selection's count — hard or soft.
//!
//! - `rule.rs`: [`rule::CountRule`] and its reading.
//! - `encode.rs`: the clauses (the front end's unary encodings for small counts, binary adders
//!   for large ones and ratios, the confinement units), and the rows a propagated model leaves
//!   to the search.
//! - `unary.rs`: the export's clauses (every count unary, ratios on shared sorted outputs).
//! - `propagate.rs`: the part of the grid propagator that checks those rows as linear
//!   constraints (with `GridOptions::count_ints` off).
//! - `ints.rs`: the same counts as integers with order literals `[count ≥ k]` (the default,
//!   `GridOptions::count_ints`), whose reasons between counts are bound literals.

pub(crate) mod rule;

mod encode;
mod ints;
mod propagate;
mod unary;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::model::GridModel;
use crate::spec::{GridSpec, RuleRef};
use rule::NAME;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Counts;

impl Family for Counts {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.counts = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        encode::encode(m);
    }

    /// The hard counts (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let hard = (0..spec.counts.len()).filter(|&i| spec.counts[i].weight.is_none());
        tagged(spec, NAME, &["of", "per", "min", "max", "region"], hard)
    }
}
