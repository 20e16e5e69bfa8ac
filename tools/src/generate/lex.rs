//! Random Max-3-SAT with lexicographic weights (`grim-gen lex`).

use super::ksat::random_clause;
use super::{GenError, GenWcnf, SplitMix64, check_size};

/// Random Max-3-SAT with lexicographic weights: `clauses` random soft 3-clauses over `vars`
/// variables, each put on one of `levels` levels uniformly, and level `l`'s weight chosen
/// larger than all the soft weight below it (1 at level 0; then one more than the lower
/// levels' total). Falsifying one clause of a level then costs more than falsifying every
/// clause below it: the optimum minimises the falsified clauses level by level, from the top
/// (a Boolean multilevel optimisation problem in the sense of Marques-Silva, Argelich, Graça
/// and Lynce, "Boolean lexicographic optimization: algorithms & applications", AMAI 2011,
/// DOI 10.1007/s10472-011-9233-2) — the shape stratification and BLO detection are for.
/// Unlike gen-maxsat.py's `bmo` (weights 10^l, lexicographic only while a level holds fewer
/// than ten clauses), this one is lexicographic at every size.
///
/// Errors: `vars` < 3 ([`GenError::ClauseWidth`]); `levels` outside 1..=63
/// ([`GenError::OutOfRange`]); weights beyond 64 bits ([`GenError::TooLarge`]); size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Lexicographic {
    /// Number of variables.
    #[arg(long)]
    pub vars: u64,
    /// Number of soft 3-clauses.
    #[arg(long)]
    pub clauses: u64,
    /// Number of levels (1..=63).
    #[arg(long, default_value_t = 3)]
    pub levels: u32,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Lexicographic {
    /// The instance (see the type's doc for the construction and the errors).
    pub fn generate(&self) -> Result<GenWcnf, GenError> {
        let Lexicographic {
            vars,
            clauses,
            levels,
            seed,
        } = *self;
        if vars < 3 {
            return Err(GenError::ClauseWidth { k: 3, vars });
        }
        if !(1..=63).contains(&levels) {
            return Err(GenError::OutOfRange {
                parameter: "levels",
                value: u64::from(levels),
                min: 1,
                max: 63,
            });
        }
        check_size("clauses", u128::from(vars), u128::from(clauses) * 3)?;
        let mut rng = SplitMix64::new(seed);
        let mut drawn = Vec::with_capacity(clauses as usize);
        let mut per_level = vec![0u64; levels as usize];
        for _ in 0..clauses {
            let level = rng.below(u64::from(levels)) as usize;
            let clause = random_clause(&mut rng, vars, 3);
            if let Some(n) = per_level.get_mut(level) {
                *n += 1;
            }
            drawn.push((level, clause));
        }
        let mut weights = Vec::with_capacity(levels as usize);
        let mut below: u64 = 0;
        let too_large = || GenError::TooLarge {
            parameter: "levels",
            needed: u64::MAX,
            limit: u64::MAX,
        };
        for n in &per_level {
            let w = below.checked_add(1).ok_or_else(too_large)?;
            below = n
                .checked_mul(w)
                .and_then(|x| x.checked_add(below))
                .ok_or_else(too_large)?;
            weights.push(w);
        }
        let soft = drawn
            .into_iter()
            .map(|(level, clause)| (weights.get(level).copied().unwrap_or(1), clause))
            .collect();
        Ok(GenWcnf {
            num_vars: vars,
            hard: Vec::new(),
            soft,
            description: format!("lex vars={vars} clauses={clauses} levels={levels} seed={seed}"),
        })
    }
}
