//! Totalizer construction: the time to encode an incremental k-truncated totalizer
//! (`grim_encodings::card::Totalizer`) into an in-memory CNF, and to extend its bound — what
//! OLL pays each time it relaxes a core or raises a bound.
//!
//! Throughput is **clauses emitted per second** (`Throughput::Elements` = the clauses of one
//! construction, counted once beforehand), so the rows compare across sizes. Rows:
//! - `n1000-k10` and `n1000-k100`: one "≥"-direction totalizer over 1000 inputs truncated at
//!   10 and 100 (the k-truncation is what keeps the first small);
//! - `n200-k200-both`: a full, both-direction totalizer over 200 inputs (exact outputs);
//! - `n1000-extend-10-to-50`: a k = 10 totalizer over 1000 inputs (built outside the timing)
//!   extended to 50, the incremental step OLL takes.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use grim_benches::{MEASUREMENT, SAMPLE_SIZE, WARM_UP};
use grim_encodings::card::Totalizer;
use grim_encodings::{Cnf, Lit, Var};

/// Positive literals of the first `n` variables, and a sink that already holds them.
fn inputs(n: usize) -> (Vec<Lit>, Cnf) {
    let lits = (0..n as u32)
        .map(|i| Lit::new(Var::new(i).expect("small index"), false))
        .collect();
    (lits, Cnf::new(n))
}

fn totalizer(c: &mut Criterion) {
    let mut group = c.benchmark_group("totalizer");
    group.sample_size(SAMPLE_SIZE);
    group.warm_up_time(WARM_UP);
    group.measurement_time(MEASUREMENT);
    for (name, n, k, both) in [
        ("n1000-k10", 1000, 10, false),
        ("n1000-k100", 1000, 100, false),
        ("n200-k200-both", 200, 200, true),
    ] {
        let build = move |sink: &mut Cnf, lits: &[Lit]| {
            if both {
                Totalizer::new_both(sink, lits, k)
            } else {
                Totalizer::new(sink, lits, k)
            }
        };
        let (lits, mut sink) = inputs(n);
        build(&mut sink, &lits);
        eprintln!(
            "{name}: {} clauses, {} variables",
            sink.clauses.len(),
            sink.num_vars
        );
        group.throughput(Throughput::Elements(sink.clauses.len() as u64));
        group.bench_function(name, |b| {
            b.iter_batched(
                || inputs(n),
                |(lits, mut sink)| {
                    let t = build(&mut sink, &lits);
                    black_box((t, sink))
                },
                BatchSize::SmallInput,
            )
        });
    }
    let (lits, mut sink) = inputs(1000);
    let mut t = Totalizer::new(&mut sink, &lits, 10);
    let before = sink.clauses.len();
    t.extend(&mut sink, 50);
    eprintln!(
        "n1000-extend-10-to-50: {} clauses",
        sink.clauses.len() - before
    );
    group.throughput(Throughput::Elements((sink.clauses.len() - before) as u64));
    group.bench_function("n1000-extend-10-to-50", |b| {
        b.iter_batched(
            || {
                let (lits, mut sink) = inputs(1000);
                let t = Totalizer::new(&mut sink, &lits, 10);
                (t, sink)
            },
            |(mut t, mut sink)| {
                t.extend(&mut sink, 50);
                black_box((t, sink))
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, totalizer);
criterion_main!(benches);
