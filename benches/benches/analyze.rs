//! Conflict analysis, measured as conflicts per second on conflict-dense solves.
//!
//! The engine exposes no bare "analyse this conflict" call (a synthetic conflict would miss the
//! trail shapes real search builds), so each benchmark times a whole solve stopped by a
//! conflict budget and reports **conflicts per second** (`Throughput::Elements` = the conflicts
//! of one solve, counted once beforehand: the engine is deterministic). Every conflict costs
//! one analysis (first-UIP learning, clause minimisation, the backjump) plus the propagation
//! that led to it, so the figure is a lower bound on the analysis rate; the `minimize-off`
//! row turns recursive minimisation off (`minimize = false`), and the gap between the two rows
//! is what minimisation costs per conflict (it usually pays for itself in the search — this
//! measures only its price).
//!
//! Instances (seeded, generated in memory):
//! - `php9-8/5000-conflicts`: pigeonhole PHP(9, 8), UNSAT and hard for resolution: long
//!   learned clauses, deep analysis;
//! - `uuf200-5.0/3000-conflicts`: random 3-SAT over 200 variables above the threshold (ratio
//!   5.0), short clauses, many conflicts per second.

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use grim_benches::{
    MEASUREMENT, SAMPLE_SIZE, WARM_UP, bench_fresh_solves, measure_work, pairwise, pigeonhole,
    random_3sat,
};
use grim_solver::{Budget, Lit};

fn bench_conflicts(c: &mut Criterion, name: &str, clauses: &[Vec<Lit>], conflicts: u64) {
    let mut group = c.benchmark_group("analyze");
    group.sample_size(SAMPLE_SIZE);
    group.warm_up_time(WARM_UP);
    group.measurement_time(MEASUREMENT);
    group.sampling_mode(SamplingMode::Flat);
    // Factoring off: it would re-encode the pigeonhole's at-most-ones (`pairwise`).
    let mut plain = pairwise();
    plain
        .set("minimize", "false")
        .expect("minimize is an option of the engine");
    for (variant, options) in [("minimize-on", pairwise()), ("minimize-off", plain)] {
        let budget = Budget::conflicts(conflicts);
        let work = measure_work(&options, clauses, budget);
        eprintln!("{name}/{variant}: {work:?} per solve");
        group.throughput(Throughput::Elements(work.conflicts.max(1)));
        bench_fresh_solves(
            &mut group,
            format!("{name}/{variant}"),
            &options,
            clauses,
            budget,
        );
    }
    group.finish();
}

fn analyze(c: &mut Criterion) {
    bench_conflicts(c, "php9-8/5000-conflicts", &pigeonhole(8), 5000);
    bench_conflicts(
        c,
        "uuf200-5.0/3000-conflicts",
        &random_3sat(200, 5.0, 7),
        3000,
    );
}

criterion_group!(benches, analyze);
criterion_main!(benches);
