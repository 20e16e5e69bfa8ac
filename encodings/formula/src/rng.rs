//! The one pseudorandom stream of the toolchain: SplitMix64 (Steele, Lea & Flood, "Fast
//! splittable pseudorandom number generators", OOPSLA 2014, doi:10.1145/2660193.2660195).
//!
//! The type is the engine's (`grim_solver::SplitMix64`, defined in `solver/src/rng.rs`), so the
//! engine's walks, the seeded preferences of the levels (`grim-levels`), the instance
//! generators of `grim-gen` and every test draw from one definition: a seed must give the same
//! run, level and generated instance on every platform, forever, and that promise is kept in
//! one place.

pub use grim_solver::SplitMix64;
