//! grim-encodings: the layer above the engine. An encoding never owns a solver: it writes to
//! any [`ClauseSink`] — a live incremental [`grim_solver::Solver`] or an in-memory [`Cnf`] /
//! [`Wcnf`] — so the same code serves an optimiser and a file writer.
//!
//! # Modules
//! - `sink`: the `ClauseSink` trait and the in-memory `Cnf` / `Wcnf`.
//! - `card`: cardinality encodings (pairwise, sequential counter, incremental totalizer,
//!   cardinality networks) and a front end (`at_most`, `at_least`, `exactly`, `between`) that
//!   picks one by measured size; sizes are tabled in `card/mod.rs`.
//! - `maxsat`: OLL core-guided weighted MaxSAT (stratification, hardening, core trimming and
//!   minimisation, exhaustion, weight-aware core extraction, at-most-one groups).
//! - `problem`: the mid-level constraint API level generation is written against (hard and
//!   weighted soft constraints, phase hints, an independent referee, solve to a proven optimum).
//! - `grid`: tiled levels from `grid.json` (format in `grid/FORMAT.md`): the rules encoded on
//!   the Problem API, solved with lazy connectivity cuts, checked by an independent referee.
#![forbid(unsafe_code)]

pub mod card;
pub mod grid;
pub mod maxsat;
pub mod problem;
pub mod rng;
pub mod sink;

pub use grim_solver::{Lit, Var};
pub use sink::{ClauseSink, Cnf, Wcnf};
