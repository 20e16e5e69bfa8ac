//! `Cnf`: a formula in memory, as read from or written to DIMACS. The type lives in
//! `grim-formula` (it is also the in-memory clause sink encodings write to); this module
//! re-exports it so the formats read and write the very type the encodings produce.

pub use grim_formula::sink::Cnf;
