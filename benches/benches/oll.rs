//! OLL (core-guided MaxSAT, `grim_maxsat::Oll`) on small instances of each
//! weighted generator family, from a fresh instance to the proven optimum, default options.
//!
//! Like `solve`, these are regression canaries for the whole optimiser — core extraction,
//! totalizers, stratification, hardening, at-most-one detection — not micro-benchmarks; sized
//! to answer in milliseconds. The MaxSAT comparison with RC2 on real-sized instances is
//! `grim-bench` on `maxsat-main`. Each row prints its optimum once and aborts the run if a
//! solve does not end at the optimum.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use grim_benches::{MEASUREMENT, SAMPLE_SIZE, WARM_UP};
use grim_maxsat::Wcnf;
use grim_maxsat::{MaxSatStatus, Oll, OllOptions};
use grim_solver::{Budget, Lit};
use grim_tools::generate::{self, GenWcnf};

fn wcnf_of(g: &GenWcnf) -> Wcnf {
    let lits = |c: &[i64]| -> Vec<Lit> {
        c.iter()
            .map(|&d| Lit::from_dimacs(d).expect("generators emit valid DIMACS literals"))
            .collect()
    };
    let mut w = Wcnf::new(g.num_vars as usize);
    w.hard = g.hard.iter().map(|c| lits(c)).collect();
    w.soft = g.soft.iter().map(|(wt, c)| (*wt, lits(c))).collect();
    w
}

/// Solves `wcnf` to the end; the optimum's cost.
fn optimum(wcnf: &Wcnf) -> Option<u64> {
    let mut oll = Oll::new(wcnf, OllOptions::default()).expect("generated instances are valid");
    match oll.solve(Budget::UNLIMITED, &mut |_| {}) {
        MaxSatStatus::Optimum => oll.best_cost(),
        _ => None,
    }
}

fn oll(c: &mut Criterion) {
    let built = |g: Result<GenWcnf, generate::GenError>| wcnf_of(&g.expect("valid parameters"));
    let instances = [
        ("maxcut-24-0.3", built(generate::max_cut(24, 0.3, 1, 1))),
        (
            "wis-60-0.1",
            built(generate::independent_set(60, 0.1, 100, 2)),
        ),
        (
            "set-cover-80-40-3",
            built(generate::set_cover(80, 40, 3, 50, 3)),
        ),
        (
            "lex-40-200-3",
            built(generate::lexicographic(40, 200, 3, 4)),
        ),
        (
            "maxsat-40-120-80",
            built(generate::random_maxsat(40, 120, 3, 80, 2, 20, 5)),
        ),
        (
            "vertex-cover-50-120",
            built(generate::vertex_cover(50, 120, 30, 6)),
        ),
    ];
    let mut group = c.benchmark_group("oll");
    group.sample_size(SAMPLE_SIZE);
    group.warm_up_time(WARM_UP);
    group.measurement_time(MEASUREMENT);
    group.sampling_mode(SamplingMode::Flat);
    for (name, wcnf) in &instances {
        let cost = optimum(wcnf);
        eprintln!("{name}: optimum {cost:?}");
        assert!(cost.is_some(), "{name}: no optimum");
        group.bench_function(*name, |b| {
            b.iter_batched(
                || Oll::new(wcnf, OllOptions::default()).expect("valid instance"),
                |mut oll| black_box(oll.solve(Budget::UNLIMITED, &mut |_| {})),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, oll);
criterion_main!(benches);
