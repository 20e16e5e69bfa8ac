//! grim-encodings: the layer above the engine (clause sinks, cardinality encodings, the
//! Problem API, OLL MaxSAT and grid rules). It is built in its own issue; this crate exists
//! now so the workspace has its final shape and the layering (solver <- encodings <- tools)
//! is enforced by Cargo from the first commit.
#![forbid(unsafe_code)]

pub mod card;
pub mod maxsat;
pub mod problem;
pub mod sink;

pub use grim_solver::{Lit, Var};
pub use sink::{ClauseSink, Cnf, Wcnf};
