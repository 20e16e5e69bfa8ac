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
}
