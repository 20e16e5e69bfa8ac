//! The n-queens puzzle (`grim-gen queens`).

use super::{Expected, GenCnf, GenError, check_size};

/// The n-queens puzzle: `n` queens on an n×n board, none attacking another. Variable
/// `r·n + c + 1` says a queen stands on row `r`, column `c`. Clauses: some queen in every row;
/// at most one per row, column and diagonal (pairwise).
///
/// Expected answer: SAT for n = 0, 1 and n ≥ 4; UNSAT for n = 2 and 3 (known by
/// enumeration). Pairwise at-most-one is O(n³) clauses: n = 20 is about 25 000.
///
/// Errors: size limits (n around 250).
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Queens {
    /// Board size and number of queens.
    #[arg(long)]
    pub n: u32,
}

impl Queens {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        let m = u64::from(self.n);
        let literals = u128::from(m).pow(3) * 12 + u128::from(m).pow(2);
        check_size("n", u128::from(m) * u128::from(m), literals)?;
        let var = |r: u64, c: u64| (r * m + c + 1) as i64;
        let mut clauses = Vec::new();
        for r in 0..m {
            clauses.push((0..m).map(|c| var(r, c)).collect());
        }
        // Every unordered pair of squares that attack each other, listed once.
        for r in 0..m {
            for c in 0..m {
                for r2 in r..m {
                    for c2 in 0..m {
                        if (r2, c2) <= (r, c) {
                            continue;
                        }
                        let same_row = r == r2;
                        let same_col = c == c2;
                        let diagonal = r2 - r == c.abs_diff(c2);
                        if same_row || same_col || diagonal {
                            clauses.push(vec![-var(r, c), -var(r2, c2)]);
                        }
                    }
                }
            }
        }
        Ok(GenCnf {
            num_vars: m * m,
            clauses,
            description: format!("queens n={}", self.n),
            expected: if m == 2 || m == 3 {
                Expected::Unsat
            } else {
                Expected::Sat
            },
        })
    }
}
