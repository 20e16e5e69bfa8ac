//! The paths family: `paths[i]`, a 4-neighbour walk from a `from` cell to a `to` cell through
//! `through` cells, of at most `max_length` steps.
//!
//! - `rule.rs`: [`rule::PathRule`], [`rule::Endpoint`] and their reading.
//! - `encode.rs`: the clauses of the export's and the cut loop's models (layers when bounded,
//!   the founded encoding when not), and the literals a propagated model leaves to the search.
//! - `floor.rs`: `min_length` inside the search (walks over the cells certainly in the class).
//! - `route.rs`: `min_length`'s decisions (a long walk laid first, when the ends are fixed).
//! - `propagate.rs`: the part of the grid propagator that keeps a witness walk and refutes the
//!   rule as soon as none is left.

pub(crate) mod rule;

mod encode;
mod floor;
mod propagate;
mod route;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::model::GridModel;
use crate::spec::{GridSpec, RuleRef};
use rule::NAME;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Paths;

impl Family for Paths {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.paths = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        encode::encode(m);
    }

    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let keys = ["from", "to", "through", "max_length", "min_length"];
        tagged(spec, NAME, &keys, 0..spec.paths.len())
    }
}
