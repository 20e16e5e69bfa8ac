//! Maximum-weight independent set of random graphs (`grim-gen wis`).

use super::{GenError, GenWcnf, soft_units, weighted_graph};

/// Maximum-weight independent set of a random graph G(`vertices`, `edge_probability`): one
/// variable per vertex ("in the set"), a hard clause `¬u ∨ ¬v` per edge, a soft unit `v` per
/// vertex with a weight from 1..=`max_weight`. The cost of a set is the weight left out, so the
/// optimum is the total weight minus the heaviest independent set. Always satisfiable (the
/// empty set). Many overlapping cores of size two: the family where at-most-one detection
/// pays (gen-maxsat.py's `wmis`).
///
/// Errors: a probability outside [0, 1]; `max_weight` = 0; size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct IndependentSet {
    /// Number of vertices.
    #[arg(long)]
    pub vertices: u64,
    /// Probability of each edge, in [0, 1].
    #[arg(long)]
    pub edge_probability: f64,
    /// Vertex weights are drawn from 1..=max-weight.
    #[arg(long, default_value_t = 100)]
    pub max_weight: u64,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl IndependentSet {
    /// The instance (see the type's doc for the construction and the errors).
    pub fn generate(&self) -> Result<GenWcnf, GenError> {
        // One hard clause `¬u ∨ ¬v` per edge, then one soft unit per vertex.
        let graph = (
            self.vertices,
            self.edge_probability,
            self.max_weight,
            self.seed,
        );
        weighted_graph("wis", graph, (2, 1), |rng, edges| {
            let hard = edges.into_iter().map(|(u, v)| vec![-u, -v]).collect();
            (hard, soft_units(rng, self.vertices, self.max_weight, false))
        })
    }
}
