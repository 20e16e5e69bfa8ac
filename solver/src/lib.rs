//! grim-solver: grimoire's CDCL SAT engine — deterministic, incremental, and owning all of its
//! data.
//!
//! ```
//! use grim_solver::{Budget, Solver, Status};
//!
//! let mut s = Solver::new();
//! let (a, b) = (s.new_var(), s.new_var());
//! s.add_clause(&[a.pos(), b.pos()]);       // a ∨ b
//! s.add_clause(&[a.neg(), b.pos()]);       // ¬a ∨ b
//! assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
//! assert_eq!(s.value(b.pos()), Some(true));
//!
//! // Assumptions hold for one call; the failed ones form a core.
//! assert_eq!(s.solve(&[b.neg()], Budget::UNLIMITED), Status::Unsat);
//! assert_eq!(s.failed_assumptions(), &[b.neg()]);
//! ```
//!
//! # Life cycle
//! *configuring* (`new_var`, `add_clause`, `set_phase`) → `solve` → *sat* (read `value`,
//! `model`) | *unsat* (read `failed`) | *unknown* (budget or terminate) → back to
//! *configuring* on the next `add_clause` (which discards the model and the failed set) or the
//! next `solve`. Learned clauses survive across calls.
//!
//! # Modules, one technique each
//! - `types`: `Var`, `Lit` (packed 2·var + sign), `Status`, `Budget`.
//! - `options`: the one options table; `stats`: the one statistics struct.
//! - `solver`: the state and the public API.
//! - `clause`: the clause arena (u32 offsets); `watch`: watch lists and their invariants.
//! - `propagate`: two-watched-literal unit propagation with blockers and binary watches.
//! - `analyze`: 1UIP learning, LBD, EVSIDS/clause bumping, final conflict for assumptions.
//! - `minimize`: recursive learned-clause minimisation.
//! - `decide`: EVSIDS heap (`heap`) and phase selection (user, target, saved).
//! - `restart`: glucose EMA restarts (focused), Luby (stable); `mode`: switching between them.
//! - `rephase`: target/best phases and rephasing; `reduce`: the three-tier clause database.
//! - `vivify`: learned-clause vivification after each reduction.
//! - `walk`: ProbSAT local search as a rephasing step.
//! - `proof`: DRAT proof output (text and binary).
//! - `eliminate`: bounded variable elimination before the first search.
//! - `simplify`: level-0 simplification and garbage collection; `check`: the model check.
//! - `search`: the CDCL loop, a ladder of the above.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod analyze;
mod check;
mod clause;
mod decide;
mod eliminate;
mod heap;
mod minimize;
mod mode;
pub mod options;
mod probe;
mod proof;
mod propagate;
mod reduce;
mod rephase;
mod restart;
mod search;
mod simplify;
mod solver;
mod stats;
mod types;
mod vivify;
mod walk;
mod watch;

pub use options::{OptionError, OptionKind, OptionSpec, Options};
pub use probe::Probes;
pub use proof::ProofFormat;
pub use solver::{ProgressFn, Solver, Terminator};
pub use stats::Stats;
pub use types::{Budget, Lit, Status, Var};
