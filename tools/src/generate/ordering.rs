//! The ordering principle (`grim-gen ordering`).

use super::{Expected, GenCnf, GenError, check_size};

/// The ordering principle GT_n (Krishnamurthy 1985): "a total order on n elements has no
/// minimum" — false, so UNSAT for every n ≥ 1. Variable `i·n + j + 1` (i ≠ j) says i < j; the
/// diagonal variables exist but occur in no clause. Clauses: antisymmetry ¬(i<j) ∨ ¬(j<i),
/// totality (i<j) ∨ (j<i), transitivity ¬(i<j) ∨ ¬(j<k) ∨ (i<k) for distinct i, j, k, and for
/// every j some i < j.
///
/// GT_n has polynomial resolution proofs yet needs wide clauses, which makes it a good check of
/// learning and minimisation: n = 10 is quick for CDCL solvers. n = 0 is the empty formula
/// (SAT): no element needs a smaller one.
///
/// Errors: size limits (n around 300).
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Ordering {
    /// Number of elements.
    #[arg(long)]
    pub n: u32,
}

impl Ordering {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        let Ordering { n } = *self;
        let m = u64::from(n);
        let literals = u128::from(m).pow(3) * 3 + u128::from(m).pow(2) * 4;
        check_size("n", u128::from(m) * u128::from(m), literals)?;
        let var = |i: u64, j: u64| (i * m + j + 1) as i64;
        let mut clauses = Vec::new();
        for i in 0..m {
            for j in i + 1..m {
                clauses.push(vec![-var(i, j), -var(j, i)]);
                clauses.push(vec![var(i, j), var(j, i)]);
            }
        }
        for i in 0..m {
            for j in 0..m {
                for k in 0..m {
                    if i != j && j != k && i != k {
                        clauses.push(vec![-var(i, j), -var(j, k), var(i, k)]);
                    }
                }
            }
        }
        for j in 0..m {
            clauses.push((0..m).filter(|&i| i != j).map(|i| var(i, j)).collect());
        }
        Ok(GenCnf {
            num_vars: m * m,
            clauses,
            description: format!("ordering n={n}"),
            expected: if n == 0 {
                Expected::Sat
            } else {
                Expected::Unsat
            },
        })
    }
}
