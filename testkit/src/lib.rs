//! grim-testkit: what the tests of every grimoire crate and the fuzz targets share, so that
//! an oracle or a generator exists once and a fix to it reaches every test.
//!
//! | module | what |
//! | --- | --- |
//! | [`SplitMix64`] | the one seeded stream (re-exported from `grim_encodings::rng`) |
//! | [`compress`] | gzip, xz, bzip2 and lzma bytes from the reference encoders |
//! | [`generate`] | seeded generators: random CNF, random k-SAT, pigeonhole, random WCNF |
//! | [`oracle`] | brute force: satisfiability under assumptions, the MaxSAT optimum; naive unit propagation |
//! | [`referee`] | judges one answer: a model against clauses, a `solve` answer against brute force |
//! | [`grid`] | every level of a small grid spec (or a seeded sample), and the assumptions that fix one |
//! | [`propagator`] | external propagators a test can predict: hidden clauses revealed lazily, a cardinality bound |
//!
//! Why a crate and not a `tests/common` module per crate: the same oracle was copied into
//! the solver's tests, the encodings' tests, the C ABI's tests, the CLI's tests and
//! `fuzz/`, and the copies had started to differ (three spellings of `below`). A dev-only
//! crate (`publish = false`) is the one place all of them can reach: it depends on
//! `grim-solver` and `grim-encodings` (and the reference compressors, for inputs only), so
//! every crate's integration tests and `fuzz/` link the same library the tests exercise.
//!
//! Everything here is for tests: the oracles enumerate every assignment and panic when asked
//! for more variables than they enumerate (a test bug, not an engine one).
#![forbid(unsafe_code)]

pub mod compress;
pub mod generate;
pub mod grid;
pub mod oracle;
pub mod propagator;
pub mod referee;

pub use grim_encodings::rng::SplitMix64;
pub use oracle::{maxsat_optimum, satisfiable, unit_propagate, vars_of};
pub use referee::{Answer, check_answer, falsified, satisfies};

use grim_solver::{Lit, Var};

/// The literal of variable `v` (0-based), negative when `negative`.
///
/// Panics past the engine's variable limit (tests use small indices).
pub fn lit(v: u32, negative: bool) -> Lit {
    Lit::new(Var::new(v).expect("a small variable index"), negative)
}

/// The literal of a DIMACS integer (`3` is variable 2 positive, `-1` variable 0 negative).
///
/// Panics on 0 (a test bug).
pub fn dimacs(d: i64) -> Lit {
    Lit::from_dimacs(d).expect("a non-zero DIMACS literal")
}

/// Clauses of DIMACS integers as literals.
pub fn clauses_of(cs: &[Vec<i64>]) -> Vec<Vec<Lit>> {
    cs.iter()
        .map(|c| c.iter().map(|&d| dimacs(d)).collect())
        .collect()
}
