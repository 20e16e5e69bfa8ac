//! Seeded instance generators for tests. Every one takes the stream it draws from, so a test
//! that builds several instances from one seed gets the same sequence on every run and every
//! platform.

use grim_formula::Wcnf;
use grim_solver::Lit;

use crate::{SplitMix64, lit};

/// `clauses` random clauses over variables `0..vars`: one clause in twenty a unit, the rest of
/// 2 to `max_len` literals (repeats and complementary pairs allowed: the engine must take
/// them). The shape that makes ten-variable instances hit both answers.
pub fn random_cnf(rng: &mut SplitMix64, vars: u32, clauses: usize, max_len: u64) -> Vec<Vec<Lit>> {
    (0..clauses)
        .map(|_| {
            let len = if rng.below(20) == 0 {
                1
            } else {
                2 + rng.below(max_len.max(2) - 1) as usize
            };
            (0..len)
                .map(|_| lit(rng.below(u64::from(vars)) as u32, rng.coin()))
                .collect()
        })
        .collect()
}

/// Uniform random k-SAT as DIMACS integers: `clauses` clauses of `k` literals over variables
/// `1..=vars`, variables drawn with repetition (as SATLIB's generator does not: tests want
/// the odd tautology too).
pub fn random_ksat(rng: &mut SplitMix64, vars: u64, clauses: usize, k: usize) -> Vec<Vec<i64>> {
    (0..clauses)
        .map(|_| {
            (0..k)
                .map(|_| {
                    let v = rng.below(vars) as i64 + 1;
                    if rng.coin() { -v } else { v }
                })
                .collect()
        })
        .collect()
}

/// The pigeonhole formula PHP(p, h) as DIMACS integers: pigeon `i` sits in hole `j` is
/// variable `i·h + j + 1`; every pigeon in some hole, no hole with two. Unsatisfiable when
/// p > h, and hard for resolution (Haken 1985), so a small one still makes many conflicts.
/// The one pigeonhole of the workspace, [`grim_formula::families::pigeonhole`], in the
/// DIMACS integers the tests write files and proofs in.
pub fn pigeonhole(p: u32, h: u32) -> Vec<Vec<i64>> {
    grim_formula::families::pigeonhole(p, h)
        .expect("a test's pigeonhole fits the engine")
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect()
}

/// DIMACS CNF text of `clauses` (DIMACS integers) over `num_vars` variables, written here
/// rather than by `grim-formats`' writer, so that a reader test does not read what its own
/// crate wrote.
pub fn dimacs_text(num_vars: usize, clauses: &[Vec<i64>]) -> String {
    let mut s = format!("p cnf {num_vars} {}\n", clauses.len());
    for c in clauses {
        for l in c {
            s.push_str(&l.to_string());
            s.push(' ');
        }
        s.push_str("0\n");
    }
    s
}

/// A random weighted instance over `vars` variables: `hard` clauses of two or three literals
/// and `soft` clauses of one to three, weights in `1..=max_weight`. Small enough for
/// [`crate::maxsat_optimum`] when `vars` ≤ 20.
pub fn random_wcnf(
    rng: &mut SplitMix64,
    vars: usize,
    hard: usize,
    soft: usize,
    max_weight: u64,
) -> Wcnf {
    let clause = |rng: &mut SplitMix64, len: usize| -> Vec<Lit> {
        (0..len)
            .map(|_| lit(rng.below(vars as u64) as u32, rng.coin()))
            .collect()
    };
    let mut w = Wcnf {
        num_vars: vars,
        ..Wcnf::default()
    };
    for _ in 0..hard {
        let len = 2 + rng.index(2);
        w.hard.push(clause(rng, len));
    }
    for _ in 0..soft {
        let len = 1 + rng.index(3);
        let weight = 1 + rng.below(max_weight.max(1));
        w.soft.push((weight, clause(rng, len)));
    }
    w
}
