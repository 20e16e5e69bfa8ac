//! Time to answer small instances of every generator family, from a fresh solver to the
//! answer (the solver is built outside the timing), under the default options.
//!
//! These are regression canaries for the whole engine — heuristics, learning, restarts and
//! reduction together — not micro-benchmarks: a change that slows one family and speeds up
//! another shows here first. Instances are seeded and sized to answer in milliseconds; the
//! competition-style harness (`../shared/bench`) is the place for real instances and for
//! comparisons with other solvers. Each row prints its answer and conflict count once.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use grim_benches::{
    MEASUREMENT, SAMPLE_SIZE, WARM_UP, clauses_of, measure_work, random_3sat, solver_with,
};
use grim_solver::{Budget, Lit, Options, Status};
use grim_tools::generate;

/// A benchmark row: its name, its clauses, and the answer the construction fixes (`None` for
/// random 3-SAT, where nothing does); a wrong answer aborts the run.
type Instance = (&'static str, Vec<Vec<Lit>>, Option<Status>);

fn instances() -> Vec<Instance> {
    // Name, `grim-gen` command line, answer by construction.
    let generated = [
        ("queens-16", "queens --n 16", Some(Status::Sat)),
        (
            "latin-15-30pct",
            "latin --order 15 --givens=0.3 --seed 5",
            Some(Status::Sat),
        ),
        ("ordering-10", "ordering --n 10", Some(Status::Unsat)),
        ("php-6", "php --holes 6", Some(Status::Unsat)),
        (
            "tseitin-16-unsat",
            "parity --vertices 16 --edges 24 --max-degree 4 --unsat --seed 7",
            Some(Status::Unsat),
        ),
        (
            "colouring-60-4-planted",
            "color --vertices 60 --colors 4 --edge-probability=0.15 --planted --seed 9",
            Some(Status::Sat),
        ),
    ];
    let mut instances = vec![
        ("uf100-4.26-seed2", random_3sat(100, 4.26, 2), None),
        ("uf200-3.8", random_3sat(200, 3.8, 3), None),
    ];
    for (name, line, expected) in generated {
        let g = generate::cnf(line).expect("valid generator parameters");
        instances.push((name, clauses_of(&g), expected));
    }
    instances
}

fn solve(c: &mut Criterion) {
    let options = Options::default();
    let mut group = c.benchmark_group("solve");
    group.sample_size(SAMPLE_SIZE);
    group.warm_up_time(WARM_UP);
    group.measurement_time(MEASUREMENT);
    // Milliseconds per iteration: flat sampling (the same iteration count in every sample)
    // fits 20 samples in the measurement time, where linear sampling would need 210 runs.
    group.sampling_mode(SamplingMode::Flat);
    for (name, clauses, expected) in instances() {
        let work = measure_work(&options, &clauses, Budget::UNLIMITED);
        eprintln!("{name}: {work:?}");
        if let Some(expected) = expected {
            assert_eq!(work.status, expected, "{name}: wrong answer");
        }
        group.bench_function(name, |b| {
            b.iter_batched(
                || solver_with(&options, &clauses),
                |mut s| black_box(s.solve(&[], Budget::UNLIMITED)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
