//! The compile stage: a [`GridSpec`] into a [`GridModel`], every family encoding its rules through
//! the one interface ([`Family`](crate::family::Family)), in the table's order (`families/mod.rs`).
//!
//! Two rounds: every family first records the wished values it knows (the preferences draw the
//! wished level), then every family encodes. Why two: an encoding that defines an auxiliary
//! variable as a function of cells (a class literal, an adder's output) gives it the wished
//! value the cells imply, which makes every hint consistent with the wished level; so the
//! wishes must be known before the first clause. The table order fixes the variable numbering
//! of the export (`FORMAT.md`, "The variable map"), so a new family goes where its variables
//! may be appended without renumbering anyone's.

use crate::error::GridError;
use crate::families::FAMILIES;
use crate::model::{GridModel, Mode};
use crate::options::GridOptions;
use crate::spec::GridSpec;
use grim_maxsat::problem::Problem;

impl GridModel {
    /// Encodes `spec` completely (the eager connectivity encoding included): what an external
    /// solver gets through [`GridModel::to_cnf`] / [`GridModel::to_wcnf`].
    pub fn build(spec: &GridSpec, options: &GridOptions) -> Result<GridModel, GridError> {
        GridModel::build_with(spec, options, Mode::Eager)
    }

    /// The model [`solve`](fn@crate::solve) starts from with the cut loop: every rule encoded as
    /// in [`GridModel::build`] except connectivity, which is only the small-fragment cuts (and
    /// a given root pinned to the class). Complete — every valid level is a model — but not
    /// sound for connectivity on its own: `solve` adds separator cuts until the model is
    /// connected. Public for callers who run their own loop, and for the tests.
    pub fn build_relaxed(spec: &GridSpec, options: &GridOptions) -> Result<GridModel, GridError> {
        GridModel::build_with(spec, options, Mode::Lazy)
    }

    /// The model [`solve`](fn@crate::solve) uses by default: every rule encoded as in
    /// [`GridModel::build`] except connectivity, of which only a given root is (pinned to the
    /// class), bounded paths, and counts too large for the unary encodings; those rules are
    /// enforced during the search by the propagator from [`GridModel::propagator`], which the
    /// engine solving this model must have connected. For callers who run their own engine,
    /// and for the tests.
    pub fn build_for_propagator(
        spec: &GridSpec,
        options: &GridOptions,
    ) -> Result<GridModel, GridError> {
        GridModel::build_with(spec, options, Mode::Propagate)
    }

    /// The model of `spec` in `mode`: the families' wishes, then their clauses, in table order.
    pub(crate) fn build_with(
        spec: &GridSpec,
        options: &GridOptions,
        mode: Mode,
    ) -> Result<GridModel, GridError> {
        GridModel::build_into(spec, options, mode, Problem::new())
    }

    /// [`GridModel::build`] into `problem` (empty: [`Problem::new`], or
    /// [`Problem::streaming`] for the streamed export, `encode.rs`).
    pub(crate) fn build_into(
        spec: &GridSpec,
        options: &GridOptions,
        mode: Mode,
        problem: Problem,
    ) -> Result<GridModel, GridError> {
        let mut m = GridModel::new_in(spec, options, mode, problem);
        for family in FAMILIES {
            family.wish(&mut m);
        }
        for family in FAMILIES {
            m.part(family.name());
            let first_var = m.problem.num_vars();
            family.encode(&mut m);
            if family.name() == "locks" {
                // The CNF export keeps the locks family's orientation: negating its auxiliary
                // variables took CaDiCaL from 0.1 s (383 conflicts) to 2.8 s (35,243) on
                // dungeon-locks-16 (`GridModel::export_negated`,
                // `benches/results/issue40-solvers-2026-12-07.md`).
                let end_var = m.problem.num_vars();
                m.export_plain.push(first_var..end_var);
            }
        }
        if let Some(why) = m.refused.take() {
            return Err(why);
        }
        if m.is_soft() && m.problem.as_wcnf().total_soft_weight().is_none() {
            return Err(GridError::WeightOverflow);
        }
        Ok(m)
    }
}
