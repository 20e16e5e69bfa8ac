//! The pigeonhole principle (`grim-gen php`).

use super::{Expected, GenCnf, GenError, check_size};

/// The pigeonhole principle PHP(h+1, h): `holes` + 1 pigeons, `holes` holes. Variable
/// `p·holes + h + 1` says pigeon `p` sits in hole `h`. Clauses: every pigeon sits in some hole
/// (`holes`+1 clauses of width `holes`); no hole holds two pigeons (`holes`·C(holes+1, 2)
/// binary clauses). The clauses are [`grim_formula::families::pigeonhole`]'s, the one
/// pigeonhole the tests of every crate use too.
///
/// Expected answer: UNSAT for every `holes` (for 0 holes the one pigeon's clause is empty).
/// Resolution proofs need size exponential in `holes` (Haken 1985), so CDCL solvers slow
/// sharply around 10–12 holes; 5–8 are quick.
///
/// Errors: size limits (a few thousand holes).
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Pigeonhole {
    /// Number of holes.
    #[arg(long)]
    pub holes: u32,
}

impl Pigeonhole {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        let holes = self.holes;
        let h = u64::from(holes);
        let pigeons = h + 1;
        let vars = pigeons * h;
        let literals = u128::from(vars) + u128::from(h) * u128::from(pigeons) * u128::from(h);
        check_size("holes", u128::from(vars), literals)?;
        let too_large = GenError::TooLarge {
            parameter: "holes",
            needed: vars,
            limit: super::MAX_VARS,
        };
        let php = grim_formula::families::pigeonhole(holes + 1, holes).ok_or(too_large)?;
        let clauses = php
            .clauses
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        Ok(GenCnf {
            num_vars: vars,
            clauses,
            description: format!("php holes={holes}"),
            expected: Expected::Unsat,
        })
    }
}
