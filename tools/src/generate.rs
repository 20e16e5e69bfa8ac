//! Seeded instance generators.
