//! Graph colouring of random graphs (`grim-gen color`).

use super::{Expected, GenCnf, GenError, SplitMix64, check_probability, check_size};

/// Graph `colors`-colouring of a random graph G(`vertices`, `edge_probability`). Variable
/// `v·colors + c + 1` says vertex `v` has colour `c`. Clauses: each vertex has a colour, at
/// most one (pairwise), and the two ends of an edge differ in every colour.
///
/// When `planted` is true, every vertex first gets a random hidden colour and only pairs of
/// differently coloured vertices may become edges (each with `edge_probability`): the hidden
/// colouring is a model, so the answer is SAT. Unplanted, the answer is unknown — except that
/// `edge_probability` 1 gives the complete graph, UNSAT exactly when `vertices` > `colors`,
/// and the generator reports that.
///
/// Errors: a probability outside [0, 1]; size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Colouring {
    /// Number of vertices.
    #[arg(long)]
    pub vertices: u32,
    /// Number of colours.
    #[arg(long)]
    pub colors: u32,
    /// Probability of each edge, in [0, 1].
    #[arg(long)]
    pub edge_probability: f64,
    /// Hide a colouring first and only draw edges it allows (guarantees SAT).
    #[arg(long)]
    pub planted: bool,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Colouring {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        let Colouring {
            vertices,
            colors: colours,
            edge_probability,
            planted,
            seed,
        } = *self;
        check_probability("edge-probability", edge_probability)?;
        let n = u64::from(vertices);
        let k = u64::from(colours);
        let vars = u128::from(n) * u128::from(k);
        let pairs = u128::from(n) * u128::from(n.saturating_sub(1)) / 2;
        let literals =
            vars + u128::from(n) * u128::from(k) * u128::from(k) + pairs * u128::from(k) * 2;
        check_size("vertices", vars, literals)?;

        let mut rng = SplitMix64::new(seed);
        let hidden: Vec<u64> = if planted && k > 0 {
            (0..n).map(|_| rng.below(k)).collect()
        } else {
            Vec::new()
        };
        let var = |v: u64, c: u64| (v * k + c + 1) as i64;
        let mut clauses: Vec<Vec<i64>> = Vec::new();
        for v in 0..n {
            clauses.push((0..k).map(|c| var(v, c)).collect());
            for c in 0..k {
                for d in c + 1..k {
                    clauses.push(vec![-var(v, c), -var(v, d)]);
                }
            }
        }
        let mut complete = true;
        for a in 0..n {
            for b in a + 1..n {
                let allowed = hidden.is_empty() || hidden[a as usize] != hidden[b as usize];
                // Draw for every pair, allowed or not, so the stream does not depend on `planted`.
                let drawn = rng.chance(edge_probability);
                if allowed && drawn {
                    for c in 0..k {
                        clauses.push(vec![-var(a, c), -var(b, c)]);
                    }
                } else {
                    complete = false;
                }
            }
        }
        let expected = if planted || n == 0 {
            Expected::Sat
        } else if complete {
            if n > k {
                Expected::Unsat
            } else {
                Expected::Sat
            }
        } else if k == 0 {
            Expected::Unsat
        } else {
            Expected::Unknown
        };
        Ok(GenCnf {
            num_vars: n * k,
            clauses,
            description: format!(
                "color vertices={vertices} colors={colours} edge-probability={edge_probability}{} \
                 seed={seed}",
                if planted { " planted" } else { "" }
            ),
            expected,
        })
    }
}
