//! Shared helpers for grimoire's criterion benchmarks (instance generation).
#![forbid(unsafe_code)]
