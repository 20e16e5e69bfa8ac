//! Shared helpers for grimoire's criterion benchmarks: the instances they run on, built in
//! memory from `grim_tools::generate` (seeded, so every run measures the same work), and the
//! one measurement profile that keeps `cargo bench -p grim-benches --features criterion` near two minutes.
//!
//! The benchmarks themselves live in `benches/`: `propagate` (propagation throughput inside
//! real solves), `analyze` (conflicts per second, minimisation on and off), `parse` (DIMACS
//! reading in MB/s, plain and gzip), `totalizer` (clauses per second building and extending
//! totalizers), `solve` (time to answer small instances of each generator family) and `oll`
//! (time to a proven optimum on small instances of each weighted family).
//!
//! The [`harness`] module is the competition-style comparison behind the `grim-bench` binary.
// `unsafe` is denied everywhere but in `harness::run`, whose FFI calls (setrlimit, waitid,
// wait4, kill) the standard library does not offer.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod harness;

use std::time::Duration;

use grim_solver::{Budget, Lit, Options, Solver, Status};
use grim_tools::formats::Cnf;
use grim_tools::formats::dimacs::write_dimacs;
use grim_tools::generate::{self, GenCnf};

/// Samples per benchmark. Criterion's default (100 samples over 5 s after 3 s of warm-up)
/// would take the suite past ten minutes; at 20 samples the confidence intervals of these
/// deterministic workloads stay within a few per cent on the development machine (an
/// observation, not a guarantee). Every group applies these three settings.
pub const SAMPLE_SIZE: usize = 20;
/// Warm-up time per benchmark.
pub const WARM_UP: Duration = Duration::from_secs(1);
/// Measurement time per benchmark.
pub const MEASUREMENT: Duration = Duration::from_secs(3);

/// A generated formula as engine literals. Panics on a literal the engine cannot represent,
/// which no generator call in the benchmarks produces.
pub fn clauses_of(generated: &GenCnf) -> Vec<Vec<Lit>> {
    generated
        .clauses
        .iter()
        .map(|c| {
            c.iter()
                .map(|&d| Lit::from_dimacs(d).expect("generators emit valid DIMACS literals"))
                .collect()
        })
        .collect()
}

/// Uniform random 3-SAT over `vars` variables with `round(ratio · vars)` clauses.
pub fn random_3sat(vars: u64, ratio: f64, seed: u64) -> Vec<Vec<Lit>> {
    ksat3(vars, (ratio * vars as f64).round() as u64, seed)
}

/// `grim-gen ksat --vars VARS --clauses CLAUSES --k 3 --seed SEED`, as literals.
fn ksat3(vars: u64, clauses: u64, seed: u64) -> Vec<Vec<Lit>> {
    let line = format!("ksat --vars {vars} --clauses {clauses} --k 3 --seed {seed}");
    clauses_of(&generate::cnf(&line).expect("valid k-SAT parameters"))
}

/// The pigeonhole formula PHP(holes + 1, holes) (UNSAT, exponentially hard for resolution).
pub fn pigeonhole(holes: u32) -> Vec<Vec<Lit>> {
    clauses_of(&generate::cnf(&format!("php --holes {holes}")).expect("valid pigeonhole size"))
}

/// Times one whole `solve` within `budget` on a fresh solver with `options` holding
/// `clauses` (built outside the timing by `iter_batched`), as benchmark `id` of `group`: what
/// the propagation and analysis benchmarks each time, with their own throughput.
#[cfg(feature = "criterion")]
pub fn bench_fresh_solves(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: String,
    options: &Options,
    clauses: &[Vec<Lit>],
    budget: Budget,
) {
    group.bench_function(id, |b| {
        b.iter_batched(
            || solver_with(options, clauses),
            |mut s| std::hint::black_box(s.solve(&[], budget)),
            criterion::BatchSize::SmallInput,
        )
    });
}

/// A solver with `options` holding `clauses`, ready to solve.
pub fn solver_with(options: &Options, clauses: &[Vec<Lit>]) -> Solver {
    let mut s = Solver::with_options(options.clone());
    for c in clauses {
        s.add_clause(c);
    }
    s
}

/// The default options with factoring off (`factor.rs`): the pigeonhole workloads measure
/// propagation and analysis on the pairwise at-most-one encoding, which factoring would
/// re-encode (and then solve PHP(8, 7) in about 1,400 conflicts, no longer a fixed amount of
/// work per budget).
pub fn pairwise() -> Options {
    Options {
        factor: false,
        ..Options::default()
    }
}

/// What one solve of `clauses` under `budget` costs, counted once outside the timing loop:
/// the engine is deterministic, so every timed repetition does exactly this work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// The answer.
    pub status: Status,
    /// Literals propagated (`Stats::propagations`).
    pub propagations: u64,
    /// Conflicts (`Stats::conflicts`).
    pub conflicts: u64,
}

/// Solves `clauses` once with a fresh solver and reports the work done.
pub fn measure_work(options: &Options, clauses: &[Vec<Lit>], budget: Budget) -> Work {
    let mut s = solver_with(options, clauses);
    let status = s.solve(&[], budget);
    Work {
        status,
        propagations: s.stats().propagations,
        conflicts: s.stats().conflicts,
    }
}

/// A DIMACS CNF text of at least `min_bytes` bytes: random 3-SAT over 100 000 variables
/// (literals of one to six digits, as in real instances), with a few comment lines, written
/// by `grim_tools`' own writer. About 22 bytes per clause.
pub fn dimacs_text(min_bytes: usize, seed: u64) -> Vec<u8> {
    let vars = 100_000u64;
    let clauses = (min_bytes / 20) as u64 + 1;
    let cnf = Cnf {
        num_vars: vars as usize,
        clauses: ksat3(vars, clauses, seed),
    };
    let mut out = Vec::with_capacity(min_bytes + min_bytes / 8);
    out.extend_from_slice(b"c benchmark input: random 3-SAT\nc seed and size are fixed\n");
    write_dimacs(&cnf, &mut out).expect("writing to a Vec cannot fail");
    assert!(
        out.len() >= min_bytes,
        "generated {} bytes, wanted {min_bytes}",
        out.len()
    );
    out
}

/// `data` gzip-compressed at the default level, as `gzip file.cnf` would store it.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder
        .write_all(data)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_benchmark_text_reads_back_as_the_generated_formula() {
        let text = dimacs_text(50_000, 1);
        let parsed = grim_tools::formats::dimacs::read_cnf(&text[..], Default::default())
            .expect("the writer's output parses");
        assert_eq!(parsed.cnf.clauses.len(), 50_000 / 20 + 1);
        let unzipped = grim_tools::formats::Input::sniff(std::io::Cursor::new(gzip(&text)))
            .expect("gzip input opens");
        let again = grim_tools::formats::dimacs::read_cnf(unzipped, Default::default())
            .expect("the gzip stream parses");
        assert_eq!(parsed, again);
    }

    #[test]
    fn the_propagation_workloads_are_deterministic() {
        let clauses = random_3sat(150, 4.26, 1);
        let a = measure_work(&Options::default(), &clauses, Budget::UNLIMITED);
        let b = measure_work(&Options::default(), &clauses, Budget::UNLIMITED);
        assert_eq!(a, b);
        assert_ne!(a.status, Status::Unknown);
        let php = measure_work(&pairwise(), &pigeonhole(7), Budget::conflicts(2000));
        assert_eq!(
            php.status,
            Status::Unknown,
            "PHP(8, 7) within 2000 conflicts: {php:?}"
        );
        assert!(php.conflicts >= 2000, "{php:?}");
        // With factoring the at-most-ones are re-encoded and the same budget is enough: the
        // reason the pigeonhole workloads turn it off.
        let factored = measure_work(&Options::default(), &pigeonhole(7), Budget::conflicts(2000));
        assert_eq!(factored.status, Status::Unsat, "{factored:?}");
    }
}
