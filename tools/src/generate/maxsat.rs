//! Random weighted partial MaxSAT with planted hard clauses (`grim-gen maxsat`).

use super::ksat::random_clause;
use super::{GenError, GenWcnf, SplitMix64, check_size, check_weight};

/// Random weighted partial MaxSAT with satisfiable hard clauses: `hard` random clauses of
/// width `hard_k` that a hidden planted assignment satisfies (a clause it falsifies gets one
/// literal flipped), and `soft` random clauses of width 1..=`soft_k` with weights drawn
/// uniformly from 1..=`max_weight` (weight 1 throughout: unweighted). Soft clauses ignore the
/// planted assignment, so the optimum is usually positive, and with many soft clauses per
/// variable the instance is hard for core-guided solvers (many overlapping cores).
///
/// Errors: `hard_k` or `soft_k` = 0 or > `vars` ([`GenError::ClauseWidth`]); `max_weight` = 0
/// ([`GenError::OutOfRange`]); size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct RandomMaxSat {
    /// Number of variables.
    #[arg(long)]
    pub vars: u64,
    /// Number of hard clauses.
    #[arg(long)]
    pub hard: u64,
    /// Literals per hard clause.
    #[arg(long, default_value_t = 3)]
    pub hard_k: u32,
    /// Number of soft clauses.
    #[arg(long)]
    pub soft: u64,
    /// Largest soft clause width (each drawn from 1..=soft-k).
    #[arg(long, default_value_t = 2)]
    pub soft_k: u32,
    /// Soft weights are drawn from 1..=max-weight (1: unweighted).
    #[arg(long, default_value_t = 1)]
    pub max_weight: u64,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl RandomMaxSat {
    /// The instance (see the type's doc for the construction and the errors).
    pub fn generate(&self) -> Result<GenWcnf, GenError> {
        let RandomMaxSat {
            vars,
            hard,
            hard_k,
            soft,
            soft_k,
            max_weight,
            seed,
        } = *self;
        for k in [hard_k, soft_k] {
            if k == 0 || u64::from(k) > vars {
                return Err(GenError::ClauseWidth { k, vars });
            }
        }
        check_weight(max_weight)?;
        check_size(
            "clauses",
            u128::from(vars),
            u128::from(hard) * u128::from(hard_k) + u128::from(soft) * u128::from(soft_k),
        )?;
        let mut rng = SplitMix64::new(seed);
        let planted: Vec<bool> = (0..vars).map(|_| rng.coin()).collect();
        let mut hard_clauses = Vec::with_capacity(hard as usize);
        for _ in 0..hard {
            let mut clause = random_clause(&mut rng, vars, hard_k);
            let satisfied = clause
                .iter()
                .any(|&l| planted.get(l.unsigned_abs() as usize - 1).copied() == Some(l > 0));
            if !satisfied {
                let i = rng.index(clause.len());
                if let Some(l) = clause.get_mut(i) {
                    *l = -*l;
                }
            }
            hard_clauses.push(clause);
        }
        let mut soft_clauses = Vec::with_capacity(soft as usize);
        for _ in 0..soft {
            let k = 1 + rng.below(u64::from(soft_k)) as u32;
            let clause = random_clause(&mut rng, vars, k);
            let weight = 1 + rng.below(max_weight);
            soft_clauses.push((weight, clause));
        }
        Ok(GenWcnf {
            num_vars: vars,
            hard: hard_clauses,
            soft: soft_clauses,
            description: format!(
                "maxsat vars={vars} hard={hard} hard_k={hard_k} soft={soft} soft_k={soft_k} \
                 max_weight={max_weight} seed={seed}"
            ),
        })
    }
}
