//! Weighted max-cut of random graphs (`grim-gen maxcut`).

use super::{GenError, GenWcnf, weighted_graph};

/// Weighted max-cut of a random graph G(`vertices`, `edge_probability`): one variable per
/// vertex (its side), each edge `{u, v}` with a weight from 1..=`max_weight` gives two soft
/// clauses of that weight, `u ∨ v` and `¬u ∨ ¬v`. A cut edge satisfies both, an uncut one
/// falsifies exactly one, so the cost of an assignment is the weight of the edges it leaves
/// uncut and the optimum is the total edge weight minus the maximum cut. No hard clauses
/// (max-cut is the classic "all soft" MaxSAT family; weight 1 gives gen-maxsat.py's `maxcut`).
///
/// Errors: a probability outside [0, 1]; `max_weight` = 0; size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct MaxCut {
    /// Number of vertices.
    #[arg(long)]
    pub vertices: u64,
    /// Probability of each edge, in [0, 1].
    #[arg(long)]
    pub edge_probability: f64,
    /// Edge weights are drawn from 1..=max-weight (1: unweighted max-cut).
    #[arg(long, default_value_t = 1)]
    pub max_weight: u64,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl MaxCut {
    /// The instance (see the type's doc for the construction and the errors).
    pub fn generate(&self) -> Result<GenWcnf, GenError> {
        let max_weight = self.max_weight;
        let graph = (self.vertices, self.edge_probability, max_weight, self.seed);
        weighted_graph("maxcut", graph, (4, 0), |rng, edges| {
            let mut soft = Vec::with_capacity(edges.len() * 2);
            for (u, v) in edges {
                let w = 1 + rng.below(max_weight);
                soft.push((w, vec![u, v]));
                soft.push((w, vec![-u, -v]));
            }
            (Vec::new(), soft)
        })
    }
}
