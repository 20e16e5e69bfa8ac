//! The paths family: `paths[i]`, a 4-neighbour walk from a `from` cell to a `to` cell through
//! `through` cells, of at most `max_length` steps.
//!
//! - `rule.rs`: [`rule::PathRule`], [`rule::Endpoint`] and their reading.
//! - `encode.rs`: the clauses of the export's and the cut loop's models (layers when bounded,
//!   the founded encoding when not), and the literals a propagated model leaves to the search.
//! - `propagate.rs`: the part of the grid propagator that keeps a witness walk and refutes the
//!   rule as soon as none is left.

pub(crate) mod rule;

mod encode;
mod propagate;

use crate::error::GridError;
use crate::family::{Family, Pass, Switch, rule_ref};
use crate::model::{GridModel, SearchPlan};
use crate::search::SearchPart;
use crate::spec::reader::{Reader, field};
use crate::spec::{GridSpec, RuleRef};
use encode::PathLits;
use propagate::Witnesses;
use rule::{NAME, tag};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Paths;

impl Family for Paths {
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
            spec.paths = reader.list(v, NAME, rule::read_rule)?;
        }
        Ok(())
    }

    fn encode(&self, m: &mut GridModel) {
        let left = encode::encode(m);
        if !left.is_empty() {
            m.plans.push(Arc::new(Plan(left)));
        }
    }

    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        (0..spec.paths.len())
            .map(|i| {
                let keys = ["from", "to", "through", "max_length"];
                (rule_ref(spec, NAME, i, &keys), Switch::Tagged(tag(i)))
            })
            .collect()
    }
}

/// The path rules a propagated model leaves to the search, by their literals.
#[derive(Debug)]
struct Plan(Vec<PathLits>);

impl SearchPlan for Plan {
    fn part(&self, m: &GridModel) -> Box<dyn SearchPart> {
        Box::new(Witnesses::new(m.spec.width, m.spec.height, &self.0))
    }
}
