//! grim-encodings: the layer above the engine. An encoding never owns a solver: it writes to
//! any [`ClauseSink`] — a live incremental [`grim_solver::Solver`] or an in-memory [`Cnf`] /
//! [`Wcnf`] — so the same code serves an optimiser and a file writer.
//!
//! One dependency is enough for every job here: the engine types a caller needs with these
//! APIs ([`Budget`], [`Terminator`], [`Solver`], [`Status`], [`Options`], [`Lit`], [`Var`]) are
//! re-exported, and so is the engine crate itself ([`grim_solver`]).
//!
//! ```
//! use grim_encodings::problem::Problem;
//! use grim_encodings::maxsat::{MaxSatStatus, Oll, OllOptions};
//! use grim_encodings::{Budget, card};
//!
//! // Hard rules and weighted wishes, solved to a proven optimum and checked by the referee.
//! let mut p = Problem::new();
//! let cells: Vec<_> = (0..6).map(|_| p.new_var().pos()).collect();
//! p.count(&cells, 2, 3, None);               // hard: two or three of the six
//! p.count(&cells[..2], 2, 2, Some(4));       // a wish worth 4: both of the first two
//! p.add_clause(&[!cells[0]], Some(1));       // a wish worth 1: not the first
//! let solution = p.solve(Budget::UNLIMITED).expect("the hard rules are satisfiable");
//! assert_eq!(solution.cost(), 1);            // the first wish kept, the second given up
//!
//! // The same instance as WCNF, optimised by OLL directly.
//! let mut oll = Oll::new(&p.to_wcnf(), OllOptions::default()).expect("fits the engine");
//! assert_eq!(oll.solve(Budget::UNLIMITED, &mut |_| {}), MaxSatStatus::Optimum);
//! assert_eq!(oll.best_cost(), Some(1));
//!
//! // An encoding on its own, into any sink: at most one of four, on a live solver.
//! let mut s = grim_encodings::Solver::new();
//! let xs: Vec<_> = (0..4).map(|_| s.new_var().pos()).collect();
//! card::at_most(&mut s, &xs, 1);
//! assert_eq!(s.solve(&xs[..2], Budget::UNLIMITED), grim_encodings::Status::Unsat);
//! ```
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

/// The engine, for everything not re-exported below.
pub use grim_solver;
pub use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
pub use sink::{ClauseSink, Cnf, Wcnf};
