//! [`GridOptions`]: what a caller overrides of the file, read by the model (the seed and the
//! preferences' mode) and by the referee's pricing; a module of its own so that the referee
//! depends on no part of the encoder.

/// Options of [`GridModel::build`](crate::GridModel::build) and [`solve`](fn@crate::solve);
/// `Default` follows the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridOptions {
    /// Overrides `preferences.seed` (and turns preferences on, as hints, when the file has
    /// none).
    pub seed: Option<u64>,
    /// Overrides `preferences.mode`: `Some(true)` soft clauses, `Some(false)` phase hints.
    pub soft_preferences: Option<bool>,
    /// Whether the propagated model gives its large counts integer variables with order
    /// literals `[count ≥ k]` (`families/counts/ints.rs`): `None` follows the default
    /// ([`GridOptions::count_ints`], on); `Some(false)` keeps the cell-explained counters of
    /// `families/counts/propagate.rs`. Only the propagated model (the default `solve`) reads it.
    pub count_ints: Option<bool>,
}

impl GridOptions {
    /// Whether the counts are integers in this build (see the field of the same name): on
    /// unless turned off. They refute contradicting counts and ratio chains at the root that
    /// the counters need a search for, and since their order literals are decided last they
    /// cost no conflicts on the shipped specs
    /// (`benches/results/issue41-ints-2026-12-07b.md`).
    pub fn count_ints(&self) -> bool {
        self.count_ints.unwrap_or(true)
    }
}
