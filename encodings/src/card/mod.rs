//! Cardinality encodings: clauses over fresh variables that bound how many of a list of
//! literals are true.
//!
//! - [`totalizer`]: the incremental, k-truncated totalizer (assumable outputs, lazy bound,
//!   mergeable inputs) — what OLL builds over its cores.

pub mod totalizer;

pub use totalizer::Totalizer;
