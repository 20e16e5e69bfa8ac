//! The counts family: `counts[i]`, how many cells of a selection — absolute, a ratio of a
//! region, or a ratio of another selection's count — hard or soft.
//!
//! - `rule.rs`: [`rule::CountRule`] and its reading.
//! - `encode.rs`: the clauses (the front end's unary encodings for small counts, binary adders
//!   for large ones and ratios, the confinement units), and the rows a propagated model leaves
//!   to the search.
//! - `propagate.rs`: the part of the grid propagator that checks those rows as linear
//!   constraints.

pub(crate) mod rule;

mod encode;
mod propagate;

use crate::error::GridError;
use crate::family::{Family, Pass, Switch, rule_ref};
use crate::model::{GridModel, SearchPlan};
use crate::search::SearchPart;
use crate::spec::reader::{Reader, field};
use crate::spec::{GridSpec, RuleRef};
use propagate::{Linear, Tally};
use rule::{NAME, tag};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Counts;

impl Family for Counts {
    fn name(&self) -> &'static str {
        NAME
    }

    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(
        &self,
        pass: Pass,
        reader: &mut Reader,
        doc: &Map<String, Value>,
        spec: &mut GridSpec,
    ) -> Result<(), GridError> {
        if pass == Pass::Rules
            && let Some(v) = field(doc, NAME)
        {
            spec.counts = reader.list(v, NAME, rule::read_rule)?;
        }
        Ok(())
    }

    fn encode(&self, m: &mut GridModel) {
        let left = encode::encode(m);
        if !left.is_empty() {
            m.plans.push(Arc::new(Plan(left)));
        }
    }

    /// The hard counts (a soft one is a price, not a rule that can clash).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let keys = ["of", "per", "min", "max", "region"];
        (0..spec.counts.len())
            .filter(|&i| spec.counts[i].weight.is_none())
            .map(|i| (rule_ref(spec, NAME, i, &keys), Switch::Tagged(tag(i))))
            .collect()
    }
}

/// The count rows a propagated model leaves to the search.
#[derive(Debug)]
struct Plan(Vec<Linear>);

impl SearchPlan for Plan {
    fn part(&self, _m: &GridModel) -> Box<dyn SearchPart> {
        Box::new(Tally::new(&self.0))
    }
}
