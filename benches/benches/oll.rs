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
    // Name and `grim-gen` command line.
    let lines = [
        (
            "maxcut-24-0.3",
            "maxcut --vertices 24 --edge-probability=0.3 --max-weight 1 --seed 1",
        ),
        (
            "wis-60-0.1",
            "wis --vertices 60 --edge-probability=0.1 --max-weight 100 --seed 2",
        ),
        (
            "set-cover-80-40-3",
            "set-cover --elements 80 --sets 40 --per-element 3 --max-weight 50 --seed 3",
        ),
        (
            "lex-40-200-3",
            "lex --vars 40 --clauses 200 --levels 3 --seed 4",
        ),
        (
            "maxsat-40-120-80",
            "maxsat --vars 40 --hard 120 --hard-k 3 --soft 80 --soft-k 2 --max-weight 20 --seed 5",
        ),
        (
            "vertex-cover-50-120",
            "vertex-cover --vertices 50 --edges 120 --max-weight 30 --seed 6",
        ),
    ];
    let instances = lines.map(|(name, line)| {
        (
            name,
            wcnf_of(&generate::wcnf(line).expect("valid parameters")),
        )
    });
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
