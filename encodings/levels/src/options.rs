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
    /// The largest count integer kept in one piece (`families/counts/ints.rs`, "Blocks"): a
    /// count over more cells is split into blocks of at most this many, each an integer, so
    /// that a cell fixed at a reached bound is explained by its block's bound and ≤ this many
    /// cells, and the block's bound by `N`'s and one per other block, instead of by every
    /// cell of the count. `None` follows the default ([`GridOptions::count_block`], none);
    /// `Some(0)` keeps every integer in one piece. Tests set it small so that blocks form on
    /// tiny grids.
    pub count_block: Option<usize>,
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

    /// The block size of split count integers (see the field of the same name); 0, the
    /// default, keeps every integer in one piece. Off by default because it was measured
    /// slower where nothing needs it: on dungeon-locks-zoned-64 seed 4 it cuts the memory of
    /// 300 conflicts from 2.57 GB to 150 MB and their CPU time 8× (no reason above 63
    /// literals, up to 2,720 in one piece), yet that seed still needs more than 60 s (its
    /// search, not its reasons), and the caves' counts cost 25,000 more variables and up to
    /// 40% more instructions with the same conflicts
    /// (`benches/results/issue41-tree-2026-12-07.md`).
    pub fn count_block(&self) -> usize {
        self.count_block.unwrap_or(0)
    }
}
