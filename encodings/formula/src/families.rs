//! Formula families that the tests of several crates and `grim-gen` share, written once here:
//! the lowest crate that both `grim-tools` (whose `generate/` turns them into DIMACS text with
//! parameters from the command line) and the test kit (publish = false, so `grim-tools` cannot
//! depend on it, and the engine's tests, which reach nothing above the engine but the kit) can
//! depend on.
//!
//! The rest of `grim-gen`'s families stay in `grim-tools`: no test outside it builds them.

use grim_solver::{Lit, Var};

use crate::Cnf;

/// The pigeonhole formula PHP(`pigeons`, `holes`): pigeon `i` sits in hole `j` is variable
/// `i·holes + j` (DIMACS `i·holes + j + 1`). Clauses, in this order: every pigeon sits in some
/// hole (one clause of width `holes` per pigeon, pigeon by pigeon), then no hole holds two
/// pigeons (hole by hole, the pairs of pigeons in order). Unsatisfiable when `pigeons` >
/// `holes`, and hard for resolution (Haken 1985): a small one still makes many conflicts.
///
/// `None` when the variables do not fit the engine (`pigeons · holes` above
/// `Var::MAX_INDEX + 1`).
pub fn pigeonhole(pigeons: u32, holes: u32) -> Option<Cnf> {
    let num_vars = u64::from(pigeons) * u64::from(holes);
    if num_vars > u64::from(Var::MAX_INDEX) + 1 {
        return None;
    }
    // In range: i·holes + j < pigeons·holes ≤ MAX_INDEX + 1.
    let x = |i: u32, j: u32| Var::new(i * holes + j).map(Var::pos);
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    for i in 0..pigeons {
        clauses.push((0..holes).map(|j| x(i, j)).collect::<Option<_>>()?);
    }
    for j in 0..holes {
        for a in 0..pigeons {
            for b in a + 1..pigeons {
                clauses.push(vec![!x(a, j)?, !x(b, j)?]);
            }
        }
    }
    Some(Cnf {
        num_vars: num_vars as usize,
        clauses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_pigeons_in_two_holes_have_three_long_and_six_binary_clauses() {
        let php = pigeonhole(3, 2).expect("small");
        assert_eq!(php.num_vars, 6);
        let dimacs: Vec<Vec<i64>> = php
            .clauses
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        assert_eq!(
            dimacs,
            vec![
                vec![1, 2],
                vec![3, 4],
                vec![5, 6],
                vec![-1, -3],
                vec![-1, -5],
                vec![-3, -5],
                vec![-2, -4],
                vec![-2, -6],
                vec![-4, -6],
            ]
        );
        assert!(pigeonhole(u32::MAX, u32::MAX).is_none());
    }
}
