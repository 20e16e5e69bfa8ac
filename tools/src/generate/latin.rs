//! Latin square completion (`grim-gen latin`).

use super::{Expected, GenCnf, GenError, SplitMix64, check_probability, check_size};

/// Latin square completion (quasigroup completion, Gomes & Selman 1997): an `order`×`order`
/// grid, each cell one of `order` symbols, every symbol exactly once in each row and column,
/// with some cells given. Variable `(r·order + c)·order + s + 1` says cell (r, c) holds `s`.
/// Clauses: exactly one symbol per cell, each symbol exactly once per row and per column
/// (at-least-one plus pairwise at-most-one), and one unit clause per given cell.
///
/// The givens come from a planted square — the cyclic square (r + c) mod order with its rows,
/// columns and symbols randomly permuted — each cell revealed with probability
/// `givens`. The planted square is a model, so the answer is SAT. Around 40 % givens
/// the completion problem is hardest (the phase transition Gomes & Selman describe).
///
/// Errors: a fraction outside [0, 1]; size limits (order around 100).
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Latin {
    /// Side of the square and number of symbols.
    #[arg(long)]
    pub order: u32,
    /// Fraction of cells given, in [0, 1].
    #[arg(long, default_value_t = 0.4)]
    pub givens: f64,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Latin {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        let Latin {
            order,
            givens: given_fraction,
            seed,
        } = *self;
        check_probability("givens", given_fraction)?;
        let n = u64::from(order);
        let vars = u128::from(n).pow(3);
        let literals = u128::from(n).saturating_pow(4).saturating_mul(4);
        check_size("order", vars, literals)?;
        let n_us = order as usize;
        let mut rng = SplitMix64::new(seed);
        let mut rows: Vec<u64> = (0..n).collect();
        let mut cols: Vec<u64> = (0..n).collect();
        let mut syms: Vec<u64> = (0..n).collect();
        rng.shuffle(&mut rows);
        rng.shuffle(&mut cols);
        rng.shuffle(&mut syms);
        let var = |r: u64, c: u64, s: u64| ((r * n + c) * n + s + 1) as i64;
        let mut clauses: Vec<Vec<i64>> = Vec::new();
        // Exactly one of the `n` literals produced by `lit(i)`.
        let mut exactly_one = |lit: &dyn Fn(u64) -> i64| {
            clauses.push((0..n).map(lit).collect());
            for i in 0..n {
                for j in i + 1..n {
                    clauses.push(vec![-lit(i), -lit(j)]);
                }
            }
        };
        for a in 0..n {
            for b in 0..n {
                exactly_one(&|s| var(a, b, s)); // cell (a, b) holds one symbol
                exactly_one(&|c| var(a, c, b)); // row a holds symbol b once
                exactly_one(&|r| var(r, a, b)); // column a holds symbol b once
            }
        }
        let mut givens = 0u64;
        for r in 0..n_us {
            for c in 0..n_us {
                let symbol = syms[(rows[r] + cols[c]) as usize % n_us];
                if rng.chance(given_fraction) {
                    clauses.push(vec![var(r as u64, c as u64, symbol)]);
                    givens += 1;
                }
            }
        }
        Ok(GenCnf {
            num_vars: n * n * n,
            clauses,
            description: format!(
                "latin order={order} givens={given_fraction} seed={seed} (cells given: {givens})"
            ),
            expected: Expected::Sat,
        })
    }
}
