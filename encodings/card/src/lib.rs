//! grim-encodings: cardinality encodings on the engine. An encoding never owns a solver: it
//! writes to any [`ClauseSink`] — a live incremental [`grim_solver::Solver`] or an in-memory
//! [`Cnf`] / [`Wcnf`] — so the same code serves an optimiser and a file writer.
//!
//! The formula vocabulary is the `grim-formula` crate's ([`ClauseSink`], [`Cnf`], [`Wcnf`], the
//! seeded stream), and the engine types a caller needs with these APIs ([`Budget`],
//! [`Terminator`], [`Solver`], [`Status`], [`Options`], [`Lit`], [`Var`]) are re-exported here,
//! so one dependency is enough for encoding; so is the engine crate itself ([`grim_solver`]).
//! The layers above live in their own crates: OLL MaxSAT and the Problem API in `grim-maxsat`,
//! grid levels in `grim-levels`.
//!
//! ```
//! use grim_encodings::{Budget, Cnf, card};
//!
//! // At most one of four, on a live solver: two of them assumed true cannot hold.
//! let mut s = grim_encodings::Solver::new();
//! let xs: Vec<_> = (0..4).map(|_| s.new_var().pos()).collect();
//! card::at_most(&mut s, &xs, 1);
//! assert_eq!(s.solve(&xs[..2], Budget::UNLIMITED), grim_encodings::Status::Unsat);
//! assert_eq!(s.solve(&xs[..1], Budget::UNLIMITED), grim_encodings::Status::Sat);
//!
//! // The same front end into a formula in memory: between two and three of six.
//! let mut cnf = Cnf::new(6);
//! let ys: Vec<_> = (0..6).map(|v| grim_encodings::Var::new(v).unwrap().pos()).collect();
//! card::between(&mut cnf, &ys, 2, 3);
//! assert!(!cnf.clauses.is_empty());
//! ```
//!
//! # Modules
//! - `card`: cardinality encodings (pairwise, sequential counter, incremental totalizer,
//!   cardinality networks) and a front end (`at_most`, `at_least`, `exactly`, `between`) that
//!   picks one by measured size; sizes are tabled in `card/mod.rs`.
//! - `sink`, `rng`: `grim-formula`'s modules, re-exported (the `ClauseSink` trait, the
//!   in-memory `Cnf` / `Wcnf`, the `Counting` sink; the one seeded stream).
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod card;

/// The formula crate's modules, under the paths they had when they lived here.
pub use grim_formula::{rng, sink};
/// The engine, for everything not re-exported below.
pub use grim_solver;
pub use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
pub use sink::{ClauseSink, Cnf, Wcnf};
