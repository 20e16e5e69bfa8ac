//! grim-formula: what the file readers and every encoder of grimoire share — the
//! [`ClauseSink`] an encoding writes to (a live [`Solver`] or an in-memory [`Cnf`] / [`Wcnf`]),
//! and the one seeded stream ([`SplitMix64`]). A crate of its own so that a program that only
//! reads CNF or WCNF files (`grim-formats`) builds no cardinality encoding, MaxSAT optimiser or
//! level generator, and every encoder builds no file reader.
//!
//! The engine types these APIs speak in ([`Budget`], [`Terminator`], [`Solver`], [`Status`],
//! [`Options`], [`Lit`], [`Var`]) are re-exported, and so is the engine crate itself
//! ([`grim_solver`]).
//!
//! ```
//! use grim_formula::{ClauseSink, Cnf, Lit, Wcnf};
//!
//! // The same code writes into a formula in memory or into a live solver.
//! fn at_least_one_of_two<S: ClauseSink>(sink: &mut S) -> [Lit; 2] {
//!     let (a, b) = (sink.new_var().pos(), sink.new_var().pos());
//!     sink.add_clause(&[a, b]);
//!     [a, b]
//! }
//! let mut cnf = Cnf::default();
//! let [a, _] = at_least_one_of_two(&mut cnf);
//! assert_eq!((cnf.num_vars, cnf.clauses.len()), (2, 1));
//!
//! // A weighted instance: clauses through the sink are hard; a wish costs its weight.
//! let mut wcnf = Wcnf::default();
//! let [_, b] = at_least_one_of_two(&mut wcnf);
//! wcnf.add_soft(3, &[!b]);
//! assert_eq!(wcnf.cost(&[false, true]), Some(3)); // b true: the wish is unmet
//! assert_eq!(wcnf.cost(&[false, false]), None); // a hard clause is falsified
//!
//! let mut solver = grim_formula::Solver::new();
//! at_least_one_of_two(&mut solver);
//! assert_eq!(solver.solve(&[!a], grim_formula::Budget::UNLIMITED), grim_formula::Status::Sat);
//! ```
//!
//! # Modules
//! - `sink`: the `ClauseSink` trait, the in-memory `Cnf` / `Wcnf`, and the `Counting` sink that
//!   measures an encoding's size.
//! - `rng`: the one seeded stream, `SplitMix64` (the engine's type).
//! - [`families`]: formula families the tests of several crates and `grim-gen` share (the
//!   pigeonhole formula).
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod families;
pub mod rng;
pub mod sink;

/// The engine, for everything not re-exported below.
pub use grim_solver;
pub use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
pub use rng::SplitMix64;
pub use sink::{ClauseSink, Cnf, Wcnf};
