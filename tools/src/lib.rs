//! grim-tools: file formats (DIMACS CNF, WCNF in both dialects, solver outputs) and the
//! command-line tools `grim-sat` (CDCL on CNF, OLL MaxSAT on WCNF), `grim-check` and
//! `grim-gen`.
#![forbid(unsafe_code)]

pub mod cli;
pub mod formats;
pub mod generate;
