//! grim-tools: the command-line tools `grim-sat` (CDCL on CNF, OLL MaxSAT on WCNF),
//! `grim-check`, `grim-gen` and `grim-encode` (grid.json levels to CNF/WCNF, solver answers
//! back to levels and pictures: the `grim-levels` crate; its exit codes: [`grid`]). The
//! binaries are thin: `grim-sat`'s two runs are the library functions of [`run`] (tested
//! there, through `tests/run.rs`), its help and option handling [`cli`]; `grim-check`'s
//! verdicts are [`check`], `grim-gen`'s families [`generate`]; each binary parses arguments,
//! (for `grim-sat`) installs signal handlers, calls, and prints.
//!
//! The file formats (DIMACS CNF, WCNF in both dialects, solver outputs) are the `grim-formats`
//! crate, re-exported here as [`formats`]; a program that only reads and writes those files
//! should depend on `grim-formats` alone, which has no command-line dependency. Reading a
//! DIMACS file (plain, gzip, xz, bzip2 or lzma) and solving it needs only this crate: the
//! engine ([`Solver`], [`Budget`], [`Status`], ...) and the layers above it (the formula,
//! encodings, MaxSAT and levels crates) are re-exported.
//!
//! ```
//! use grim_tools::formats::dimacs::{ParseOptions, read_cnf};
//! use grim_tools::formats::{ParseError, ParseErrorKind};
//! use grim_tools::{Budget, Solver, Status};
//!
//! let text = "c a tiny instance\np cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n";
//! let parsed = read_cnf(text.as_bytes(), ParseOptions::default()).expect("well-formed");
//! let mut solver = Solver::new();
//! for clause in &parsed.cnf.clauses {
//!     solver.add_clause(clause);
//! }
//! assert_eq!(solver.solve(&[], Budget::UNLIMITED), Status::Sat);
//! let model = solver.model().expect("a model after SAT");
//! let value = |l: grim_tools::Lit| model.get(l.var().index()).map(|&v| v == l.is_positive());
//! assert!(parsed.cnf.first_unsatisfied(value).is_none());
//!
//! // A file cut off at a clause boundary is refused with the position and the counts.
//! let truncated = "p cnf 3 3\n1 2 0\n-1 3 0\n";
//! let error = read_cnf(truncated.as_bytes(), ParseOptions::default()).unwrap_err();
//! let kind = &error.kind;
//! assert!(matches!(kind, ParseErrorKind::Truncated { declared: 3, found: 2 }));
//! assert!(error.with_path("x.cnf").to_string().starts_with("x.cnf:4:1: the input ends"));
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// The README's Rust examples, compiled (and run, except the one that reads a file of the
/// reader's own) by `cargo test` as doctests, so the front page cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The engine and the layers above it, for everything not re-exported below.
pub use grim_encodings;
pub use grim_formula;
pub use grim_formula::{Budget, Lit, Options, Solver, Status, Terminator, Var, Wcnf};
pub use grim_levels;
pub use grim_maxsat;
pub use grim_solver;

pub mod check;
pub mod cli;
/// The file formats: the `grim-formats` crate, re-exported under its old path.
pub use grim_formats as formats;
pub mod generate;
pub mod grid;
pub mod output;
pub mod range;
pub mod run;
