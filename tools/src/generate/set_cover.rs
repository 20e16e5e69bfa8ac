//! Minimum-weight set cover (`grim-gen set-cover`).

use super::{GenError, GenWcnf, SplitMix64, check_size, check_weight, soft_units};

/// Minimum-weight set cover: `elements` elements, `sets` sets (one variable each, "chosen"),
/// each element in `per_element` distinct sets drawn uniformly — a hard clause listing them,
/// sorted — and a soft unit `¬s` per set with a weight from 1..=`max_weight`. Always
/// satisfiable (choose every set); the optimum is the cheapest cover (gen-maxsat.py's `wsc`).
///
/// Errors: `per_element` = 0 or > `sets` ([`GenError::ClauseWidth`]); `max_weight` = 0; size
/// limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct SetCover {
    /// Number of elements (hard clauses).
    #[arg(long)]
    pub elements: u64,
    /// Number of sets (variables).
    #[arg(long)]
    pub sets: u64,
    /// Sets containing each element.
    #[arg(long, default_value_t = 3)]
    pub per_element: u32,
    /// Set weights are drawn from 1..=max-weight.
    #[arg(long, default_value_t = 50)]
    pub max_weight: u64,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl SetCover {
    /// The instance (see the type's doc for the construction and the errors).
    pub fn generate(&self) -> Result<GenWcnf, GenError> {
        let SetCover {
            elements,
            sets,
            per_element,
            max_weight,
            seed,
        } = *self;
        if per_element == 0 || u64::from(per_element) > sets {
            return Err(GenError::ClauseWidth {
                k: per_element,
                vars: sets,
            });
        }
        check_weight(max_weight)?;
        check_size(
            "elements",
            u128::from(sets),
            u128::from(elements) * u128::from(per_element) + u128::from(sets),
        )?;
        let mut rng = SplitMix64::new(seed);
        let mut hard = Vec::with_capacity(elements as usize);
        for _ in 0..elements {
            let mut clause: Vec<i64> = Vec::with_capacity(per_element as usize);
            while clause.len() < per_element as usize {
                let s = rng.below(sets) as i64 + 1;
                if !clause.contains(&s) {
                    clause.push(s);
                }
            }
            clause.sort_unstable();
            hard.push(clause);
        }
        let soft = soft_units(&mut rng, sets, max_weight, true);
        Ok(GenWcnf {
            num_vars: sets,
            hard,
            soft,
            description: format!(
                "set-cover elements={elements} sets={sets} per_element={per_element} \
                 max_weight={max_weight} seed={seed}"
            ),
        })
    }
}
