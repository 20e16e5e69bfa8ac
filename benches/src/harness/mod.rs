//! `grim-bench`'s machinery: competition-style comparisons of SAT and MaxSAT solvers, every
//! answer checked independently of the solver that gave it.
//!
//! - [`instance`]: reading instances (CNF/WCNF, gzip) and expanding directories and lists;
//! - [`run`]: one run under OS limits (RLIMIT_CPU, RLIMIT_AS, a wall-clock net), CPU measured;
//! - [`answer`]: reading a solver's `s`/`v`/`o` lines;
//! - [`expected`]: known answers shipped beside the sets (`EXPECTED`, `OPTIMA`, MSE CSVs);
//! - [`check`]: models, costs, known answers, and cross-solver disagreements;
//! - [`report`]: the table, the per-solver summary with PAR-2, the CSV;
//! - [`cactus`]: the cactus plot (SVG);
//! - [`export`]: the campaign as a Slurm array job or a BenchExec benchmark definition.

pub mod answer;
pub mod cactus;
pub mod check;
pub mod expected;
pub mod export;
pub mod instance;
pub mod report;
pub mod run;
