//! Propagation throughput, measured inside real solves.
//!
//! The engine does not expose a bare "propagate this trail" call, and a synthetic one would
//! miss what matters (watch lists shaped by real learning, blockers that have drifted), so each
//! benchmark times one whole `solve` on a fresh solver (built outside the timing by
//! `iter_batched`) and criterion reports two numbers:
//! - **time per solve**, the figure to compare between commits;
//! - **propagations per second** (`Throughput::Elements` = `Stats::propagations` of one solve,
//!   counted once beforehand: the engine is deterministic, so every repetition does exactly that
//!   work). It divides *all* solve time, analysis and decisions included, by the propagated
//!   literals, so it is a lower bound on the raw propagation rate; on these instances
//!   propagation is the bulk of the time (the usual CDCL profile, an assumption not measured
//!   here — use callgrind for the split).
//!
//! Instances (seeded, generated in memory by `grim_tools::generate`):
//! - `uf150-4.26`: uniform random 3-SAT, 150 variables, 639 clauses (ratio 4.26, the
//!   threshold), seed 1 — the SATLIB `uf150` shape, solved to the end.
//! - `php8-7/2000-conflicts`: pigeonhole PHP(8, 7), UNSAT and exponentially hard for
//!   resolution, stopped by a budget of 2000 conflicts: long clauses, many binary watches, a
//!   fixed amount of work whatever the heuristics find (factoring off: it would re-encode the
//!   at-most-ones and solve the instance).

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use grim_benches::{
    MEASUREMENT, SAMPLE_SIZE, WARM_UP, bench_fresh_solves, measure_work, pairwise, pigeonhole,
    random_3sat,
};
use grim_solver::{Budget, Lit, Options};

fn bench_solve(
    c: &mut Criterion,
    name: &str,
    clauses: &[Vec<Lit>],
    options: Options,
    budget: Budget,
) {
    let work = measure_work(&options, clauses, budget);
    eprintln!("{name}: {work:?} per solve");
    let mut group = c.benchmark_group("propagate");
    group.sample_size(SAMPLE_SIZE);
    group.warm_up_time(WARM_UP);
    group.measurement_time(MEASUREMENT);
    // Milliseconds per iteration: flat sampling (the same iteration count in every sample)
    // fits 20 samples in the measurement time, where linear sampling would need 210 runs.
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(work.propagations));
    bench_fresh_solves(&mut group, name.to_string(), &options, clauses, budget);
    group.finish();
}

fn propagate(c: &mut Criterion) {
    bench_solve(
        c,
        "uf150-4.26",
        &random_3sat(150, 4.26, 1),
        Options::default(),
        Budget::UNLIMITED,
    );
    bench_solve(
        c,
        "php8-7/2000-conflicts",
        &pigeonhole(7),
        pairwise(),
        Budget::conflicts(2000),
    );
}

criterion_group!(benches, propagate);
criterion_main!(benches);
