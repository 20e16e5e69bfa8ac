//! grim-tools: file formats (DIMACS CNF; WCNF in its own issue) and the command-line tools
//! `grim-sat`, `grim-check` and `grim-gen`.
#![forbid(unsafe_code)]

pub mod cli;
pub mod formats;
pub mod generate;
