//! Uniform random k-SAT (`grim-gen ksat`), by clause count or by clause/variable ratio.

use super::{Expected, GenCnf, GenError, MAX_LITERALS, SplitMix64, check_size};

/// Uniform random k-SAT: `clauses` clauses over `vars` variables, each of `k` distinct
/// variables drawn uniformly, each negated with probability ½ (the fixed-clause-length model
/// of Mitchell, Selman & Levesque, AAAI 1992). Give the size as `clauses`, or as `ratio`:
/// `round(ratio · vars)` clauses, the way the phase-transition literature states sizes
/// ("n = 250 at 4.26"; the description then records the ratio as given). With both, the
/// ratio wins (`grim-gen` accepts exactly one of them).
///
/// Expected answer: unknown. For k = 3 the satisfiability threshold sits near
/// clauses/vars ≈ 4.26: well below (≈ 3.5) almost all instances are SAT, well above (≈ 5.5)
/// almost all are UNSAT, and at the threshold half are each and they are hardest.
/// Thresholds for k = 4, 5 are ≈ 9.93 and ≈ 21.1.
///
/// Errors: `k` = 0 or `k` > `vars` ([`GenError::ClauseWidth`]); a ratio that is negative or not
/// finite ([`GenError::OutOfRange`], shown as the ratio's integer part); size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
#[command(group = clap::ArgGroup::new("size").required(true).multiple(false))]
pub struct Ksat {
    /// Number of variables.
    #[arg(long)]
    pub vars: u64,
    /// Number of clauses (or --ratio).
    #[arg(long, group = "size")]
    pub clauses: Option<u64>,
    /// Clauses per variable instead of --clauses (round(ratio x vars) clauses).
    #[arg(long, group = "size")]
    pub ratio: Option<f64>,
    /// Literals per clause (distinct variables).
    #[arg(long, default_value_t = 3)]
    pub k: u32,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Ksat {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        match self.ratio {
            Some(ratio) => self.at_ratio(ratio),
            None => self.with_clauses(self.clauses.unwrap_or(0)),
        }
    }

    fn with_clauses(&self, clauses: u64) -> Result<GenCnf, GenError> {
        let Ksat { vars, k, seed, .. } = *self;
        if k == 0 || u64::from(k) > vars {
            return Err(GenError::ClauseWidth { k, vars });
        }
        check_size(
            "clauses",
            u128::from(vars),
            u128::from(clauses) * u128::from(k),
        )?;
        let mut rng = SplitMix64::new(seed);
        let out = (0..clauses)
            .map(|_| random_clause(&mut rng, vars, k))
            .collect();
        Ok(GenCnf {
            num_vars: vars,
            clauses: out,
            description: format!("ksat vars={vars} clauses={clauses} k={k} seed={seed}"),
            expected: Expected::Unknown,
        })
    }

    fn at_ratio(&self, ratio: f64) -> Result<GenCnf, GenError> {
        let Ksat { vars, k, seed, .. } = *self;
        if !(ratio.is_finite() && ratio >= 0.0) {
            return Err(GenError::OutOfRange {
                parameter: "ratio",
                value: if ratio.is_finite() {
                    ratio as u64
                } else {
                    u64::MAX
                },
                min: 0,
                max: u64::MAX,
            });
        }
        let clauses = (ratio * vars as f64).round();
        if clauses > MAX_LITERALS as f64 {
            return Err(GenError::TooLarge {
                parameter: "ratio",
                needed: clauses as u64,
                limit: MAX_LITERALS,
            });
        }
        let mut f = self.with_clauses(clauses as u64)?;
        f.description = format!(
            "ksat vars={vars} ratio={ratio} clauses={} k={k} seed={seed}",
            clauses as u64
        );
        Ok(f)
    }
}

/// One uniform random clause of `k` distinct variables from 1..=`vars`, each with a random
/// sign, in draw order: the clause of [`Ksat`], and the clauses of
/// [`RandomMaxSat`](super::RandomMaxSat) and
/// [`Lexicographic`](super::Lexicographic). Each try draws a variable and, when it is new,
/// its sign.
/// Precondition: 1 ≤ `k` ≤ `vars` (checked by every caller).
pub(super) fn random_clause(rng: &mut SplitMix64, vars: u64, k: u32) -> Vec<i64> {
    let mut clause: Vec<i64> = Vec::with_capacity(k as usize);
    while clause.len() < k as usize {
        // Rejection keeps the variables distinct; k ≤ vars, and k is small in practice,
        // so the expected number of draws is at most k·H(k) even when k = vars.
        let var = rng.below(vars) as i64 + 1;
        if clause.iter().all(|l| l.abs() != var) {
            clause.push(if rng.coin() { -var } else { var });
        }
    }
    clause
}
