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
//! | [`Trickle`], [`assert_matches!`] | a one-byte-a-call reader; a pattern check that shows the value |
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

/// A reader that hands out one byte per call, so that every buffer boundary of a parser
/// falls inside a token: the DIMACS and WCNF readers must give the same result through it.
pub struct Trickle<'a>(pub &'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// Asserts that a value matches a pattern (with an optional guard), showing the value when it
/// does not: `assert_matches!(e => ParseError::Truncated { line: 4, column: 1, .. })`.
///
/// Why not `assert!(matches!(e, …), "{e:?}")`: rustfmt lays a struct pattern of more than 18
/// characters out one field a line, so each check of an error's position took 13 lines and
/// the test files were mostly that shape. The `=>` keeps rustfmt from re-laying the pattern
/// (it cannot parse the arguments as expressions), so a check stays one line. An optional
/// message after a comma replaces the default `{value:?}`.
#[macro_export]
macro_rules! assert_matches {
    ($value:expr => $pattern:pat $(if $guard:expr)? $(,)?) => {{
        // A place, not a moved value: the caller goes on using it.
        let value = &$value;
        assert!(
            matches!(*value, $pattern $(if $guard)?),
            "{value:?} does not match {}",
            stringify!($pattern $(if $guard)?)
        )
    }};
    ($value:expr => $pattern:pat $(if $guard:expr)?, $($message:tt)+) => {
        assert!(matches!($value, $pattern $(if $guard)?), $($message)+)
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn assert_matches_passes_a_match_and_leaves_the_value_usable() {
        let e: Result<u32, String> = Err("x".to_string());
        assert_matches!(&e => Err(s) if s == "x");
        assert_matches!(&e => Err(s) if s.len() == 1, "{e:?}");
        assert_eq!(e, Err("x".to_string()));
    }

    #[test]
    #[should_panic(expected = "Ok(3) does not match Ok(4)")]
    fn assert_matches_panics_naming_the_value_and_the_pattern() {
        assert_matches!(Ok::<u32, ()>(3) => Ok(4));
    }
}
