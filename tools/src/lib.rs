//! grim-tools: file formats (DIMACS CNF, WCNF in both dialects, solver outputs) and the
//! command-line tools `grim-sat` (CDCL on CNF, OLL MaxSAT on WCNF), `grim-check`, `grim-gen`
//! and `grim-encode` (grid.json levels to CNF/WCNF, solver answers back to levels and
//! pictures: [`grid`]).
#![forbid(unsafe_code)]

/// The README's Rust examples, compiled (and run, except the one that reads a file of the
/// reader's own) by `cargo test` as doctests, so the front page cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

pub mod cli;
pub mod formats;
pub mod generate;
pub mod grid;
