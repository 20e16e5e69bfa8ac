//! Minimum-weight vertex cover of random graphs (`grim-gen vertex-cover`).

use super::{GenError, GenWcnf, MAX_VARS, SplitMix64, check_size, check_weight, soft_units};

/// Minimum-weight vertex cover on a random graph: one variable per vertex ("in the cover"),
/// a hard clause `u ∨ v` per edge (`edges` distinct edges drawn uniformly; fewer when the
/// graph is complete), and a soft unit `¬v` per vertex with a weight from 1..=`max_weight`.
/// Always satisfiable (take every vertex); the optimum is the cheapest cover.
///
/// Errors: `vertices` < 2 or `max_weight` = 0 ([`GenError::OutOfRange`]); size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct VertexCover {
    /// Number of vertices.
    #[arg(long)]
    pub vertices: u64,
    /// Number of distinct edges.
    #[arg(long)]
    pub edges: u64,
    /// Vertex weights are drawn from 1..=max-weight.
    #[arg(long, default_value_t = 1)]
    pub max_weight: u64,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl VertexCover {
    /// The instance (see the type's doc for the construction and the errors).
    pub fn generate(&self) -> Result<GenWcnf, GenError> {
        let VertexCover {
            vertices,
            edges,
            max_weight,
            seed,
        } = *self;
        if vertices < 2 {
            return Err(GenError::OutOfRange {
                parameter: "vertices",
                value: vertices,
                min: 2,
                max: MAX_VARS,
            });
        }
        check_weight(max_weight)?;
        let possible = u128::from(vertices) * u128::from(vertices - 1) / 2;
        let edges = u64::try_from(u128::from(edges).min(possible)).unwrap_or(edges);
        check_size(
            "edges",
            u128::from(vertices),
            u128::from(edges) * 2 + u128::from(vertices),
        )?;
        let mut rng = SplitMix64::new(seed);
        let mut seen = std::collections::BTreeSet::new();
        let mut hard = Vec::with_capacity(edges as usize);
        while (hard.len() as u64) < edges {
            let u = rng.below(vertices) as i64 + 1;
            let v = rng.below(vertices) as i64 + 1;
            if u != v && seen.insert((u.min(v), u.max(v))) {
                hard.push(vec![u, v]);
            }
        }
        let soft = soft_units(&mut rng, vertices, max_weight, true);
        Ok(GenWcnf {
            num_vars: vertices,
            hard,
            soft,
            description: format!(
                "vertex-cover vertices={vertices} edges={edges} max_weight={max_weight} seed={seed}"
            ),
        })
    }
}
